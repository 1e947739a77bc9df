// The official MCP TypeScript client (@modelcontextprotocol/sdk) against the real,
// token-protected `memotree mcp --http`: over streamable HTTP it keeps a session and
// listens on the session's stream; it must hear that a note it subscribed to changed
// and that the list of notes changed (once, for a new note, and not for edits), and
// its tool calls must be recorded in the journey under the name it gave.
// Usage: node notify.mjs URL TOKEN VAULT_DIR
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ResourceListChangedNotificationSchema, ResourceUpdatedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';

const [url, token, vault] = process.argv.slice(2);
const name = `ts-sdk-${process.pid}`;
const heard = { updated: [], listChanged: 0 };
let wake = () => {};

/** until waits until ok() holds, polling on each notification, or fails after 20 s. */
async function until(what, ok) {
  const end = Date.now() + 20000;
  while (!ok()) {
    if (Date.now() > end) assert.fail(`timed out waiting for ${what}: ${JSON.stringify(heard)}`);
    await new Promise((r) => { wake = r; setTimeout(r, 100); });
  }
}

const client = new Client({ name, version: '1.0.0' });
client.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => { heard.updated.push(n.params.uri); wake(); });
client.setNotificationHandler(ResourceListChangedNotificationSchema, () => { heard.listChanged++; wake(); });
const transport = new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { Authorization: `Bearer ${token}` } } });
await client.connect(transport);
assert.ok(transport.sessionId, 'the server gave the client a session');
assert.ok(client.getServerCapabilities()?.resources?.subscribe, 'resources.subscribe advertised');

const { resources } = await client.listResources();
const welcome = resources.find((r) => r.name === 'Welcome');
assert.ok(welcome, 'Welcome is a resource');
await client.subscribeResource({ uri: welcome.uri });
const file = path.join(vault, 'Welcome.md');
for (let i = 0; i < 3; i++) {
  fs.appendFileSync(file, `\nEdited by the TypeScript test, ${i}.\n`);
  await until(`resources/updated after edit ${i}`, () => heard.updated.length > i);
}
assert.ok(heard.updated.every((u) => u === welcome.uri), `updated ${heard.updated}`);
fs.writeFileSync(path.join(vault, 'From the TypeScript test.md'), '# New\n');
await until('resources/list_changed after a new note', () => heard.listChanged > 0);
assert.equal(heard.listChanged, 1, 'one list_changed for one new note, none for the edits');
console.log(`mcp: the TypeScript client heard 3 resources/updated and 1 list_changed over streamable HTTP (session ${transport.sessionId.slice(0, 8)}…)`);

const res = await client.callTool({ name: 'update_entity', arguments: { entity_name: 'Welcome', content: 'Appended by the TypeScript client.', mode: 'append' } });
assert.ok(!res.isError, JSON.stringify(res));
const journey = fs.readFileSync(path.join(vault, 'journey.yaml'), 'utf8');
assert.ok(journey.includes(`actor: mcp:${name}`), `the journey names the client:\n${journey.slice(-600)}`);
console.log(`mcp: the journey records the TypeScript client as mcp:${name}`);
await transport.terminateSession();
await client.close();
