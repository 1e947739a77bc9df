// A small OpenAI-compatible server for the chat's end-to-end tests. It speaks the real
// wire protocol — GET /v1/models, and POST /v1/chat/completions answered as a stream of
// server-sent events — and answers each chat request with the next scripted reply.
// POST /v1/embeddings answers bags of hashed words, so texts sharing words are near.
// Tool-call arguments are split mid-JSON, and parallel calls interleave, as real
// servers do.
import http from 'node:http'

/**
 * startFakeLLM listens on 127.0.0.1 on a free port.
 * @returns {Promise<{baseURL: string, requests: any[], embeddings: {model: string, count: number}[], script: (...replies: Reply[]) => void, close: () => Promise<void>}>}
 */
export async function startFakeLLM() {
  /** @type {Reply[]} */
  let queue = []
  const requests = []
  /** @type {{model: string, count: number}[]} */
  const embeddings = []
  const server = http.createServer(async (req, res) => {
    if (req.method === 'GET' && req.url.endsWith('/models')) {
      res.writeHead(200, { 'Content-Type': 'application/json' })
      res.end(JSON.stringify({ object: 'list', data: [{ id: 'fake-model', object: 'model', owned_by: 'e2e' }] }))
      return
    }
    let body = ''
    for await (const b of req) body += b
    if (req.url.endsWith('/embeddings')) {
      const { input, model } = JSON.parse(body || '{}')
      const texts = Array.isArray(input) ? input : [input]
      embeddings.push({ model, count: texts.length })
      res.writeHead(200, { 'Content-Type': 'application/json' })
      res.end(JSON.stringify({ object: 'list', model, data: texts.map((t, index) => ({ object: 'embedding', index, embedding: bagOfWords(t) })) }))
      return
    }
    requests.push(JSON.parse(body || '{}'))
    const reply = queue.shift() ?? text('(no scripted reply)')
    let gone = false
    res.on('close', () => {
      gone = true
    })
    res.writeHead(200, { 'Content-Type': 'text/event-stream', 'Cache-Control': 'no-cache' })
    for (const chunk of reply.chunks) {
      if (gone) return
      if (reply.delayMs) await new Promise((r) => setTimeout(r, reply.delayMs))
      res.write(`data: ${JSON.stringify({ id: 'chatcmpl-e2e', object: 'chat.completion.chunk', created: 0, model: 'fake-model', choices: [chunk] })}\n\n`)
    }
    res.write('data: [DONE]\n\n')
    res.end()
  })
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = /** @type {import('node:net').AddressInfo} */ (server.address())
  return {
    baseURL: `http://127.0.0.1:${port}/v1`,
    requests,
    embeddings,
    script: (...replies) => {
      queue.push(...replies)
    },
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}

/** @typedef {{chunks: any[], delayMs?: number}} Reply */

/** bagOfWords is a 64-dimension vector: each lower-cased word adds one at its hash. */
function bagOfWords(text) {
  const v = new Array(64).fill(0)
  for (const w of String(text).toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []) {
    let h = 2166136261
    for (const c of w) h = Math.imul(h ^ c.codePointAt(0), 16777619) >>> 0
    v[h % 64] += 1
  }
  return v
}

/**
 * text streams a reply word by word, delayMs between chunks.
 * @returns {Reply}
 */
export function text(s, delayMs = 0) {
  const words = s.split(/(?<= )/)
  const chunks = words.map((w, i) => ({ index: 0, delta: i === 0 ? { role: 'assistant', content: w } : { content: w }, finish_reason: null }))
  chunks.push({ index: 0, delta: {}, finish_reason: 'stop' })
  return { chunks, delayMs }
}

/**
 * toolCalls streams one reply asking for several calls at once: each call's id and
 * name come first, then the arguments of all calls in interleaved pieces of 7
 * characters, cut anywhere in the JSON.
 * @param {{id: string, name: string, args: object}[]} calls
 * @returns {Reply}
 */
export function toolCalls(calls) {
  const chunks = calls.map((c, index) => ({
    index: 0,
    delta: { ...(index === 0 ? { role: 'assistant' } : {}), tool_calls: [{ index, id: c.id, type: 'function', function: { name: c.name, arguments: '' } }] },
    finish_reason: null,
  }))
  const pieces = calls.map((c) => JSON.stringify(c.args).match(/[\s\S]{1,7}/g) ?? [])
  for (let k = 0; pieces.some((p) => k < p.length); k++) {
    pieces.forEach((p, index) => {
      if (k < p.length) chunks.push({ index: 0, delta: { tool_calls: [{ index, function: { arguments: p[k] } }] }, finish_reason: null })
    })
  }
  chunks.push({ index: 0, delta: {}, finish_reason: 'tool_calls' })
  return { chunks }
}

/**
 * deltas streams a reply made of the given deltas, one chunk each, as servers send
 * them: {content: '<thi'} cut anywhere, {reasoning_content: '…'}, {reasoning: '…'}.
 * @param {object[]} list
 * @returns {Reply}
 */
export function deltas(list, delayMs = 0) {
  const chunks = list.map((d, i) => ({ index: 0, delta: i === 0 ? { role: 'assistant', ...d } : d, finish_reason: null }))
  chunks.push({ index: 0, delta: {}, finish_reason: 'stop' })
  return { chunks, delayMs }
}
