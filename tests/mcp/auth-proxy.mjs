// A loopback reverse proxy that adds the bearer token to every request, so that MCP
// clients which cannot send headers (the conformance suite) can test the real,
// token-protected server. Usage: node auth-proxy.mjs TARGET_URL TOKEN  → prints its URL.
import http from 'node:http';

const [target, token] = process.argv.slice(2);
const to = new URL(target);
const server = http.createServer((req, res) => {
  const headers = { ...req.headers, authorization: `Bearer ${token}` };
  const up = http.request({ host: to.hostname, port: to.port, path: req.url, method: req.method, headers }, (r) => {
    res.writeHead(r.statusCode ?? 502, r.headers);
    r.pipe(res);
  });
  up.on('error', (e) => { res.writeHead(502); res.end(String(e)); });
  req.pipe(up);
});
server.listen(0, '127.0.0.1', () => {
  const { port } = server.address();
  console.log(`http://127.0.0.1:${port}${to.pathname}`);
});
