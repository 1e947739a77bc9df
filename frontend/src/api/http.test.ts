import { afterEach, expect, test, vi } from 'vitest'
import { settled, waitFor } from '../lib/testing'
import { errorMessage } from './errors'
import fs from 'node:fs'
import { GO_METHODS } from './api'
import { EARLY_CALLS, EventHub, httpApi, NO_SESSION, SESSION_KEY, startSession, type SessionEnv } from './http'

afterEach(() => {
  vi.unstubAllGlobals()
})

/** A page environment: an address, its history, this tab's storage and a fetch. */
function pageEnv(href: string, fetchFn: (url: string, init?: RequestInit) => Promise<Response>, stored: Record<string, string> = {}) {
  const storage = new Map(Object.entries(stored))
  const replaced: string[] = []
  const env: SessionEnv = {
    location: { href },
    history: { state: null, replaceState: (_d, _u, url) => void replaced.push(String(url)) },
    storage: {
      getItem: (k) => storage.get(k) ?? null,
      setItem: (k, v) => void storage.set(k, v),
      removeItem: (k) => void storage.delete(k),
    },
    fetch: fetchFn as typeof fetch,
  }
  return { env, storage, replaced }
}

const headers = (init?: RequestInit) => new Headers(init?.headers)

test('the printed token leaves the address bar and is traded once for a session', async () => {
  const seen: [string, string | null][] = []
  const f = vi.fn(async (url: string, init?: RequestInit) => {
    seen.push([url, headers(init).get('Authorization')])
    if (url === '/api/session') return new Response('{"session":"s-123"}', { status: 200 })
    return new Response('{"path":"a.md"}', { status: 200 })
  })
  const { env, storage, replaced } = pageEnv('http://127.0.0.1:9/?token=T0K&x=1#/a.md', f)
  const api = httpApi('', env)
  expect(replaced).toEqual(['/?x=1#/a.md']) // at once, before any answer
  await api.ready
  await expect(api.note('demo', 'a.md')).resolves.toEqual({ path: 'a.md' })
  expect(seen).toEqual([
    ['/api/session', 'Bearer T0K'],
    ['/api/call/Note', 'Bearer s-123'],
  ])
  expect(storage.get(SESSION_KEY)).toBe('s-123')
  const init = f.mock.calls[1]?.[1]
  expect(init).toMatchObject({ method: 'POST', credentials: 'omit', body: '["demo","a.md"]' })
  await api.reportRendered({ library: 'demo', notes: 3, layout: 'sidebar' })
  expect(f).toHaveBeenLastCalledWith('/api/call/ReportRendered', expect.objectContaining({ body: '[{"library":"demo","notes":3,"layout":"sidebar"}]' }))
})

test('a call made before the session is in carries the printed token, and the session once it is', async () => {
  let answer = () => {}
  const gate = new Promise<void>((r) => (answer = r))
  const seen: [string, string | null][] = []
  const f = async (url: string, init?: RequestInit) => {
    seen.push([url, headers(init).get('Authorization')])
    if (url === '/api/session') {
      await gate
      return new Response('{"session":"s-7"}', { status: 200 })
    }
    return new Response('{"paths":[],"attachments":[],"types":[],"typed":[]}', { status: 200 })
  }
  const { env } = pageEnv('http://127.0.0.1:9/?token=T0K', f)
  const api = httpApi('', env)
  await expect(api.files('')).resolves.toEqual([])
  answer()
  await api.ready
  await api.files('')
  expect(seen).toEqual([
    ['/api/session', 'Bearer T0K'],
    ['/api/call/Files', 'Bearer T0K'],
    ['/api/call/Files', 'Bearer s-7'],
  ])
})

test('a reload (no token in the address) keeps the tab\'s session; none at all says how to get in', async () => {
  const f = async () => new Response('[]', { status: 200 })
  const kept = pageEnv('http://127.0.0.1:9/#/a.md', f, { [SESSION_KEY]: 's-9' })
  await expect(startSession('', kept.env)).resolves.toBe('s-9')
  expect(kept.replaced).toEqual([])
  const none = pageEnv('http://127.0.0.1:9/', f)
  await expect(startSession('', none.env)).rejects.toThrow(NO_SESSION)
  const api = httpApi('', none.env)
  await expect(api.ready).rejects.toThrow('memotree serve')
  await expect(api.libraries()).rejects.toThrow('memotree serve')
})

test('a call the page sent early is taken once by the first call like it, and sent again if it did not get through', async () => {
  const sent: string[] = []
  const f = vi.fn(async (url: string, init?: RequestInit) => {
    if (url === '/api/session') return new Response('{"session":"s-1"}', { status: 200 })
    sent.push(`${url} ${String(init?.body)}`)
    return new Response('{"paths":["late.md"],"attachments":[],"types":[],"typed":[]}', { status: 200 })
  })
  const { env } = pageEnv('http://127.0.0.1:9/?token=T', f)
  env.early = [{ method: 'Files', body: '[""]', response: Promise.resolve(new Response('{"paths":["early.md"],"attachments":[],"types":[],"typed":[]}', { status: 200 })) }]
  const api = httpApi('', env)
  await expect(api.files('other')).resolves.toEqual([{ path: 'late.md', is_note: true }]) // another library: not its answer
  await expect(api.files('')).resolves.toEqual([{ path: 'early.md', is_note: true }])
  await expect(api.files('')).resolves.toEqual([{ path: 'late.md', is_note: true }]) // taken once
  expect(sent).toEqual(['/api/call/Files ["other"]', '/api/call/Files [""]'])

  // Refused early (a stale session): the same error as a call sent now.
  const { env: refusedEnv } = pageEnv('http://127.0.0.1:9/?token=T', f)
  refusedEnv.early = [{ method: 'Files', body: '[""]', response: Promise.resolve(new Response('bad token', { status: 401 })) }]
  await expect(httpApi('', refusedEnv).files('')).rejects.toThrow(NO_SESSION)

  // Lost on the way: sent again.
  sent.length = 0
  const { env: lostEnv } = pageEnv('http://127.0.0.1:9/?token=T', f)
  lostEnv.early = [{ method: 'Files', body: '[""]', response: Promise.reject(new TypeError('Failed to fetch')) }]
  await expect(httpApi('', lostEnv).files('')).resolves.toEqual([{ path: 'late.md', is_note: true }])
  expect(sent).toEqual(['/api/call/Files [""]'])
})

test('index.html sends its early call as call would: the names it uses are the code\'s', () => {
  const html = fs.readFileSync(new URL('../../index.html', import.meta.url), 'utf8')
  const script = /<script>([\s\S]*?)<\/script>/.exec(html)?.[1] ?? ''
  expect(script).toContain(`sessionStorage.getItem('${SESSION_KEY}')`)
  expect(script).toContain(`'/api/call/${GO_METHODS.files}'`)
  expect(script).toContain(`method: '${GO_METHODS.files}'`)
  expect(script).toContain(`var body = '${JSON.stringify([''])}'`)
  expect(script).toContain(`window.${EARLY_CALLS} =`)
  expect(script).toContain("credentials: 'omit'")
})

test('a refused token or session says how to get back in', async () => {
  const f = async (url: string) =>
    url === '/api/session' ? new Response('missing or wrong token\n', { status: 401 }) : new Response('missing or wrong token\n', { status: 401 })
  const bad = pageEnv('http://127.0.0.1:9/?token=old', f, { [SESSION_KEY]: 'stale' })
  await expect(startSession('', bad.env)).rejects.toThrow(/missing or wrong token.*memotree serve/)
  expect(bad.storage.has(SESSION_KEY)).toBe(false)
  const gone = pageEnv('http://127.0.0.1:9/', f, { [SESSION_KEY]: 'stale' })
  await expect(httpApi('', gone.env).files('demo')).rejects.toThrow(/missing or wrong token.*memotree serve/)
})

test('a non-2xx answer throws its error message', async () => {
  const f = async () => new Response('{"error":"read note x.md: not found"}', { status: 500 })
  await expect(httpApi('', pageEnv('http://h/', f, { [SESSION_KEY]: 's' }).env).files('demo')).rejects.toThrow('read note x.md: not found')
})

test('errorMessage falls back to the body, then the status', () => {
  expect(errorMessage('Files', 401, 'missing or wrong token\n')).toBe('missing or wrong token')
  expect(errorMessage('Files', 502, '')).toBe('Files: HTTP 502')
  expect(errorMessage('Files', 400, '{"error":""}')).toBe('{"error":""}')
})

/** A stream the test writes server-sent events into, chunk by chunk. */
function sseStream() {
  let ctl!: ReadableStreamDefaultController<Uint8Array>
  const body = new ReadableStream<Uint8Array>({ start: (c) => void (ctl = c) })
  const enc = new TextEncoder()
  return { body, push: (s: string) => ctl.enqueue(enc.encode(s)), end: () => ctl.close() }
}

test('events come from one authorised stream, parsed per topic, split anywhere', async () => {
  const streams: ReturnType<typeof sseStream>[] = []
  const auths: (string | null)[] = []
  const f = vi.fn(async (_url: string, init?: RequestInit) => {
    auths.push(headers(init).get('Authorization'))
    const s = sseStream()
    streams.push(s)
    return new Response(s.body, { status: 200, headers: { 'Content-Type': 'text/event-stream' } })
  })
  const pauses: number[] = []
  const hub = new EventHub('/api/events', async () => 'Bearer s-1', f as unknown as typeof fetch, async (ms) => void pauses.push(ms))
  const got: unknown[] = []
  const off = hub.on('vault:changed', (e) => got.push(e))
  const all: unknown[] = [] // a listener that stays: it shows when an event has been read
  hub.on('vault:changed', (e) => all.push(e))
  await waitFor(() => expect(f).toHaveBeenCalledTimes(1))
  expect(auths).toEqual(['Bearer s-1'])
  const s = streams[0]!
  s.push(': connected\n\nevent: vault:changed\ndata: {"library":"demo",')
  s.push('"paths":["a.md"],"rescan":false}\n\nevent: git:changed\ndata: {"library":"demo"}\n\n')
  await waitFor(() => expect(got).toEqual([{ library: 'demo', paths: ['a.md'], rescan: false }]))
  // A dropped stream is opened again; events may have been missed: a rescan.
  s.end()
  await waitFor(() => expect(f).toHaveBeenCalledTimes(2))
  await waitFor(() => expect(got[1]).toEqual({ library: '', paths: [], rescan: true }))
  expect(pauses).toEqual([500])
  off()
  streams[1]!.push('event: vault:changed\ndata: {"library":"demo","paths":[],"rescan":false}\n\n')
  await waitFor(() => expect(all).toHaveLength(3)) // read and given to the listener that stays
  expect(got).toHaveLength(2) // but not to the one that left
})

test('a refused session ends the event stream', async () => {
  const f = vi.fn(async () => new Response('missing or wrong token', { status: 401 }))
  const hub = new EventHub('/api/events', async () => 'Bearer gone', f as unknown as typeof fetch, async () => {})
  hub.on('vault:changed', () => {})
  await waitFor(() => expect(f).toHaveBeenCalledTimes(1))
  await settled() // a hub that tried again would have called fetch by now: nothing else waits
  expect(f).toHaveBeenCalledTimes(1)
})
