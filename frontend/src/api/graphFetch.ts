// The graph over HTTP, read off the window's thread: a dedicated worker fetches the
// payload, decodes and parses it, and hands the window the parsed graph with its edges,
// node types and tag pairs in Int32Arrays (moved, not copied). On a 10k-note vault the payload is about
// 2.3 MB; read on the window's thread, its body waited for every task the starting
// window ran (a fetch's body is read on the thread that asked for it), and parsing it
// took a tenth of a second more.
//
// graphReader keeps one worker per window and answers calls in order of arrival.
import { errorMessage } from './errors'
import type { GraphData } from './types'

/** What the window asks the worker. */
export interface GraphFetchRequest {
  id: number
  url: string
  library: string
  /** The Authorization header (the page's session), "" for none. */
  auth?: string
}

/** What the worker answers: that the request is out, then the graph or an error. */
export type GraphFetchReply = { id: number; sent: true } | { id: number; data: GraphData } | { id: number; error: string }

/** A graph on its way; `sent` settles once the request has left (see graphReader). */
export type GraphCall = Promise<GraphData> & { sent?: Promise<void> }

/**
 * fetchGraph asks `url` (POST /api/call/Graph) for a library's graph and parses it,
 * edges packed in an Int32Array; a failure becomes an error reply with the server's
 * message. `fetchFn` is the worker's fetch; `req.auth` its credential (a worker has no
 * cookies of the page to send, and the page keeps its session in sessionStorage).
 */
export async function fetchGraph(fetchFn: typeof fetch, req: GraphFetchRequest): Promise<Exclude<GraphFetchReply, { sent: true }>> {
  try {
    const res = await fetchFn(req.url, {
      method: 'POST',
      credentials: 'omit',
      headers: { 'Content-Type': 'application/json', ...(req.auth ? { Authorization: req.auth } : {}) },
      body: JSON.stringify([req.library]),
    })
    const text = await res.text()
    if (!res.ok) return { id: req.id, error: errorMessage('Graph', res.status, text) }
    const data = JSON.parse(text) as GraphData
    // The number lists travel to the window moved, not copied: a structured copy of
    // a list is made again on the window's thread, number by number (at 100k notes
    // the node types and tag pairs are 0.7 million numbers).
    data.edges = Int32Array.from(data.edges)
    data.node_types = Int32Array.from(data.node_types)
    if (data.note_tags) data.note_tags = Int32Array.from(data.note_tags)
    return { id: req.id, data }
  } catch (e) {
    return { id: req.id, error: e instanceof Error ? e.message : String(e) }
  }
}


/** transferables lists the buffers of a reply's packed number lists, for postMessage to move. */
export function transferables(reply: GraphFetchReply): ArrayBuffer[] {
  if (!('data' in reply)) return []
  const { edges, node_types, note_tags } = reply.data
  return [edges, node_types, note_tags].filter((a): a is Int32Array => a instanceof Int32Array).map((a) => a.buffer as ArrayBuffer)
}

/** The performance mark set each time a graph came through the worker. */
export const GRAPH_WORKER_MARK = 'graph:worker'

/**
 * graphReader returns a function reading a library's graph through the worker, which
 * it starts on the first call. When the worker cannot start or dies (a browser
 * without module workers, a policy forbidding them), that call and the later ones go
 * through `fallback` (the window's own fetch); server errors are errors either way.
 * `auth` gives the Authorization header each request carries (the page's session).
 */
export function graphReader(
  url: string,
  fallback: (library: string) => Promise<GraphData>,
  makeWorker: () => Worker = () => new Worker(new URL('./graphFetch.worker.ts', import.meta.url), { type: 'module' }),
  auth: () => Promise<string> = async () => '',
): (library: string) => GraphCall {
  let worker: Worker | null = null
  let broken = false
  let seq = 0
  interface Waiting {
    library: string
    resolve: (d: GraphData) => void
    reject: (e: Error) => void
    sent: () => void
  }
  const waiting = new Map<number, Waiting>()

  const fail = () => {
    broken = true
    worker?.terminate()
    worker = null
    const calls = [...waiting.values()]
    waiting.clear()
    for (const c of calls) {
      c.sent()
      fallback(c.library).then(c.resolve, c.reject)
    }
  }

  const start = (): Worker | null => {
    if (worker || broken) return worker
    try {
      worker = makeWorker()
    } catch {
      broken = true
      return null
    }
    worker.onmessage = (ev: MessageEvent<GraphFetchReply>) => {
      const r = ev.data
      const call = waiting.get(r.id)
      if (!call) return
      if ('sent' in r) return call.sent()
      waiting.delete(r.id)
      call.sent()
      if ('error' in r) return call.reject(new Error(r.error))
      performance.mark(GRAPH_WORKER_MARK)
      call.resolve(r.data)
    }
    worker.onerror = fail
    worker.onmessageerror = fail
    return worker
  }

  return (library) => {
    const w = start()
    if (!w) return fallback(library)
    let sent = () => {}
    const sentP = new Promise<void>((r) => (sent = r))
    const call: GraphCall = new Promise<GraphData>((resolve, reject) => {
      const id = ++seq
      waiting.set(id, { library, resolve, reject, sent })
      auth().then(
        (a) => {
          const req: GraphFetchRequest = { id, url, library, auth: a }
          w.postMessage(req)
        },
        (e: unknown) => {
          waiting.delete(id)
          sent()
          reject(e instanceof Error ? e : new Error(String(e)))
        },
      )
    })
    call.sent = sentP
    return call
  }
}
