import { afterEach, expect, test, vi } from 'vitest'
import { fetchGraph, graphReader, GRAPH_WORKER_MARK, transferables, type GraphFetchReply, type GraphFetchRequest } from './graphFetch'
import { withEarlyGraph } from './index'
import type { Api } from './api'
import type { GraphData } from './types'

const graph: GraphData = {
  library: 'demo',
  nodes: ['a.md', 'b.md'],
  labels: ['a', 'b'],
  types: [''],
  node_types: [0, 0],
  first_unresolved: 2,
  relations: ['links to'],
  edges: [0, 1, 0],
  aliases: {},
}

afterEach(() => {
  performance.clearMarks()
})

test('fetchGraph posts the library and packs the edges, node types and tag pairs in Int32Arrays, which the worker moves', async () => {
  const fetchFn = vi.fn(async () => new Response(JSON.stringify({ ...graph, tags: ['x'], note_tags: [1, 0] }), { status: 200 }))
  const r = await fetchGraph(fetchFn as unknown as typeof fetch, { id: 7, url: 'http://x/api/call/Graph', library: 'demo', auth: 'Bearer s-1' })
  expect(fetchFn).toHaveBeenCalledWith(
    'http://x/api/call/Graph',
    expect.objectContaining({ method: 'POST', credentials: 'omit', body: '["demo"]', headers: expect.objectContaining({ Authorization: 'Bearer s-1' }) }),
  )
  expect(r.id).toBe(7)
  if (!('data' in r)) throw new Error('no data')
  expect(r.data.edges).toBeInstanceOf(Int32Array)
  expect([...(r.data.edges as Int32Array)]).toEqual([0, 1, 0])
  expect(r.data.node_types).toBeInstanceOf(Int32Array)
  expect([...(r.data.node_types as Int32Array)]).toEqual([0, 0])
  expect(r.data.note_tags).toBeInstanceOf(Int32Array)
  expect([...(r.data.note_tags as Int32Array)]).toEqual([1, 0])
  expect(r.data.nodes).toEqual(graph.nodes)
  const moved = transferables(r)
  expect(moved).toHaveLength(3)
  expect(moved).toContain((r.data.edges as Int32Array).buffer)
  expect(moved).toContain((r.data.node_types as Int32Array).buffer)
  expect(moved).toContain((r.data.note_tags as Int32Array).buffer)
  // A graph without tags has nothing more to move; an error nothing at all.
  const untagged = await fetchGraph((async () => new Response(JSON.stringify(graph), { status: 200 })) as unknown as typeof fetch, { id: 8, url: 'u', library: 'demo' })
  expect(transferables(untagged)).toHaveLength(2)
  expect(transferables({ id: 9, error: 'down' })).toEqual([])
})

test("fetchGraph turns the server's error and a failed fetch into error replies", async () => {
  const bad = async () => new Response('{"error":"no library \\"x\\""}', { status: 400 })
  expect(await fetchGraph(bad as unknown as typeof fetch, { id: 1, url: 'u', library: 'x' })).toEqual({ id: 1, error: 'no library "x"' })
  const down = async () => {
    throw new TypeError('Failed to fetch')
  }
  expect(await fetchGraph(down as unknown as typeof fetch, { id: 2, url: 'u', library: '' })).toEqual({ id: 2, error: 'Failed to fetch' })
})

/** A worker stand-in that answers with fetchGraph over a fake fetch, as the real one does. */
class FakeWorker {
  onmessage: ((ev: MessageEvent<GraphFetchReply>) => void) | null = null
  onerror: (() => void) | null = null
  onmessageerror: (() => void) | null = null
  requests: GraphFetchRequest[] = []
  terminated = false
  constructor(private answer: (req: GraphFetchRequest) => Promise<GraphFetchReply>) {}
  postMessage(req: GraphFetchRequest) {
    this.requests.push(req)
    const reply = (r: GraphFetchReply) => this.onmessage?.({ data: r } as MessageEvent<GraphFetchReply>)
    queueMicrotask(() => reply({ id: req.id, sent: true }))
    void this.answer(req).then(reply)
  }
  terminate() {
    this.terminated = true
  }
}

test('graphReader answers through one worker, marks it, and tells when the request is out', async () => {
  const fallback = vi.fn(async () => graph)
  let made = 0
  const w = new FakeWorker(async (req) => ({ id: req.id, data: { ...graph, library: req.library } }))
  const read = graphReader('http://x/api/call/Graph', fallback, () => (made++, w as unknown as Worker), async () => 'Bearer s-2')
  const call = read('demo')
  await call.sent
  expect((await call).library).toBe('demo')
  expect((await read('other')).library).toBe('other')
  expect(made).toBe(1)
  expect(w.requests.map((r) => r.library)).toEqual(['demo', 'other'])
  expect(w.requests.map((r) => r.auth)).toEqual(['Bearer s-2', 'Bearer s-2'])
  expect(fallback).not.toHaveBeenCalled()
  expect(performance.getEntriesByName(GRAPH_WORKER_MARK, 'mark')).toHaveLength(2)
})

test('graphReader rejects when the page has no session', async () => {
  const w = new FakeWorker(async (req) => ({ id: req.id, data: graph }))
  const read = graphReader('u', async () => graph, () => w as unknown as Worker, async () => {
    throw new Error('This tab has no MemoTree session')
  })
  const call = read('x')
  await call.sent
  await expect(call).rejects.toThrow('no MemoTree session')
  expect(w.requests).toEqual([])
})

test("graphReader rejects with the server's message", async () => {
  const w = new FakeWorker(async (req) => ({ id: req.id, error: 'no library "x"' }))
  const read = graphReader('u', async () => graph, () => w as unknown as Worker)
  await expect(read('x')).rejects.toThrow('no library "x"')
})

test('graphReader falls back to the window when the worker cannot start or dies', async () => {
  const fallback = vi.fn(async (library: string) => ({ ...graph, library }))
  const cannot = graphReader('u', fallback, () => {
    throw new Error('workers are forbidden')
  })
  expect((await cannot('demo')).library).toBe('demo')
  // A worker that dies with a call waiting: that call and the next go to the fallback.
  const w = new FakeWorker(() => new Promise(() => {}))
  const dies = graphReader('u', fallback, () => w as unknown as Worker)
  const waiting = dies('a')
  w.onerror?.()
  expect((await waiting).library).toBe('a')
  expect(w.terminated).toBe(true)
  expect((await dies('b')).library).toBe('b')
  expect(fallback).toHaveBeenCalledTimes(3)
  expect(performance.getEntriesByName(GRAPH_WORKER_MARK, 'mark')).toHaveLength(0)
})

test('withEarlyGraph asks at once and gives that answer to the first call for the default library only', async () => {
  const graphFn = vi.fn(async (library: string) => ({ ...graph, library: library || 'default' }))
  const api = { graph: graphFn } as unknown as Api
  const early = withEarlyGraph(api)
  expect(graphFn).toHaveBeenCalledTimes(1)
  await early.sent
  expect((await early.api.graph('')).library).toBe('default')
  expect(graphFn).toHaveBeenCalledTimes(1)
  expect((await early.api.graph('')).library).toBe('default')
  expect(graphFn).toHaveBeenCalledTimes(2)
  expect((await early.api.graph('other')).library).toBe('other')
  // A failed early answer is the first caller's error, not an unhandled rejection.
  const failing = withEarlyGraph({ graph: async () => Promise.reject(new Error('down')) } as unknown as Api)
  await expect(failing.api.graph('')).rejects.toThrow('down')
})
