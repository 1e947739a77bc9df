import { apiFromCaller, GO_METHODS, type Api, type GoMethod } from './api'
import { errorMessage } from './errors'
import { graphReader } from './graphFetch'
import type { EventPayloads, Topic } from './events'

type Listener = (data: unknown) => void

/** Where the page keeps its session: this tab's sessionStorage, never a cookie. */
export const SESSION_KEY = 'memotree.session'

/** What the page says when it has no way in. */
export const NO_SESSION =
  'This tab has no MemoTree session: open the address `memotree serve` printed in the terminal (it ends in ?token=…).'

/** The page's environment, for tests to replace. */
export interface SessionEnv {
  location: { href: string }
  history: { state: unknown; replaceState(data: unknown, unused: string, url?: string | URL | null): void }
  storage: Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>
  fetch: typeof fetch
  /** Calls the page's first script sent (see EarlyCall), each taken by the first like it. */
  early?: EarlyCall[]
}

/**
 * EarlyCall is a call sent by the inline script of index.html while the page is
 * parsed, before this code is loaded: the file list, so that a server busy reading a
 * big vault has it to answer a tenth of a second sooner. It goes out as call sends it
 * (same address, credential and body), and call takes its response instead of
 * sending the same request again.
 */
export interface EarlyCall {
  method: string
  /** The request's body: the JSON of the arguments. */
  body: string
  response: Promise<Response>
}

/** The name index.html's script leaves its calls under, on window. */
export const EARLY_CALLS = '__memotreeEarly'

/**
 * startSession gets the page's credential for `memotree serve`. The address the
 * server printed carries its token (?token=): it is taken out of the address bar at
 * once, and traded at POST /api/session for a session of this tab, kept in
 * sessionStorage (so a reload keeps it, and nothing goes to other servers on
 * 127.0.0.1, as a cookie would). Without a token, the tab's session is used; without
 * one either, it fails with NO_SESSION.
 */
export async function startSession(base: string, env: SessionEnv): Promise<string> {
  const here = new URL(env.location.href)
  const token = here.searchParams.get('token')
  if (token !== null) {
    here.searchParams.delete('token')
    env.history.replaceState(env.history.state, '', here.pathname + here.search + here.hash)
    const res = await env.fetch(`${base}/api/session`, {
      method: 'POST',
      credentials: 'omit',
      headers: { Authorization: `Bearer ${token}` },
    })
    const text = await res.text()
    if (!res.ok) {
      env.storage.removeItem(SESSION_KEY)
      throw new Error(`${errorMessage('session', res.status, text)}. ${NO_SESSION}`)
    }
    const session = (JSON.parse(text) as { session: string }).session
    env.storage.setItem(SESSION_KEY, session)
    return session
  }
  const kept = env.storage.getItem(SESSION_KEY)
  if (kept) return kept
  throw new Error(NO_SESSION)
}

/** An Api over HTTP, with `ready`: settles once the page has its session (or cannot). */
export type HttpApi = Api & { ready: Promise<void> }

/**
 * httpApi talks to `memotree serve`: POST /api/call/<Method> with a JSON array of the
 * positional arguments, and server-sent events from /api/events, each request with
 * the tab's session in an Authorization header (see startSession).
 */
export function httpApi(base = '', env: SessionEnv = browserEnv()): HttpApi {
  // Until the session is in, a call carries the printed token itself (the server takes
  // either): the page's first calls, the file list and the graph, go out at once
  // instead of one round trip later (on a big vault being scanned, a busy server's).
  let printed = new URL(env.location.href).searchParams.get('token')
  let settled: string | null = null
  const session = startSession(base, env)
  session.then(
    (s) => {
      settled = s
      printed = null
    },
    () => {}, // each caller sees the failure
  )
  const auth = async () => `Bearer ${settled ?? printed ?? (await session)}`
  const early = env.early ?? []
  const send = async (method: GoMethod, body: string): Promise<Response> =>
    env.fetch(`${base}/api/call/${method}`, {
      method: 'POST',
      credentials: 'omit',
      headers: { 'Content-Type': 'application/json', Authorization: await auth() },
      body,
    })
  const call = async (method: GoMethod, args: unknown[]): Promise<unknown> => {
    const body = JSON.stringify(args)
    const i = early.findIndex((e) => e.method === method && e.body === body)
    // An early call that did not get through (the network) is sent again.
    const res = i < 0 ? await send(method, body) : await early.splice(i, 1)[0]!.response.catch(() => send(method, body))
    const text = await res.text()
    if (res.status === 401) throw new Error(`${errorMessage(method, res.status, text)}. ${NO_SESSION}`)
    if (!res.ok) throw new Error(errorMessage(method, res.status, text))
    return text === '' ? null : JSON.parse(text)
  }
  const events = new EventHub(`${base}/api/events`, auth, env.fetch)
  const api = apiFromCaller(call, (topic, cb) => events.on(topic, cb as Listener))
  // The graph, the largest answer by far, is read and parsed off the window's thread.
  const url = new URL(`${base}/api/call/${GO_METHODS.graph}`, env.location.href).href
  const viaWorker = typeof Worker === 'undefined' ? null : graphReader(url, api.graph, undefined, auth)
  if (viaWorker) api.graph = viaWorker
  return { ...api, ready: session.then(() => {}) }
}

function browserEnv(): SessionEnv {
  const g = globalThis as unknown as Record<string, EarlyCall[] | undefined>
  const early = g[EARLY_CALLS] ?? []
  delete g[EARLY_CALLS]
  return { location: globalThis.location, history: globalThis.history, storage: globalThis.sessionStorage, fetch: (...a) => globalThis.fetch(...a), early }
}

/**
 * EventHub reads the server-sent events of one request for all subscribers, opened on
 * the first subscription. It uses fetch rather than EventSource, which cannot send
 * the Authorization header. A dropped stream is opened again (after 0.5 s, doubling
 * to 5 s); since events may have been missed meanwhile, vault:changed subscribers then
 * get a synthetic rescan. A refused credential (401) ends it: the calls say why.
 */
export class EventHub {
  private listeners = new Map<Topic, Set<Listener>>()
  private started = false

  constructor(
    private url: string,
    private auth: () => Promise<string>,
    private fetchFn: typeof fetch,
    private pause = (ms: number) => new Promise((r) => setTimeout(r, ms)),
  ) {}

  on<T extends Topic>(topic: T, cb: (e: EventPayloads[T]) => void) {
    let set = this.listeners.get(topic)
    if (!set) {
      set = new Set()
      this.listeners.set(topic, set)
    }
    const l = cb as Listener
    set.add(l)
    if (!this.started) {
      this.started = true
      void this.run()
    }
    return () => {
      set.delete(l)
    }
  }

  private async run() {
    let delay = 500
    let dropped = false
    for (;;) {
      try {
        const res = await this.fetchFn(this.url, {
          credentials: 'omit',
          cache: 'no-store',
          headers: { Accept: 'text/event-stream', Authorization: await this.auth() },
        })
        if (res.status === 401) return
        if (res.ok && res.body) {
          if (dropped) this.rescan()
          delay = 500
          await this.read(res.body)
        }
      } catch {
        // no session, or the server is away: try again
      }
      dropped = true
      await this.pause(delay)
      delay = Math.min(delay * 2, 5000)
    }
  }

  /** read dispatches the events of one stream until it ends. */
  private async read(body: ReadableStream<Uint8Array>) {
    const reader = body.getReader()
    const text = new TextDecoder()
    let buf = ''
    for (;;) {
      const { value, done } = await reader.read()
      if (done) return
      buf += text.decode(value, { stream: true }) // our server ends lines with \n alone
      let end: number
      while ((end = buf.indexOf('\n\n')) >= 0) {
        this.block(buf.slice(0, end))
        buf = buf.slice(end + 2)
      }
    }
  }

  /** block dispatches one event block ("event: T\ndata: D"); comments are skipped. */
  private block(text: string) {
    let topic = 'message'
    const data: string[] = []
    for (const line of text.split('\n')) {
      if (line === '' || line.startsWith(':')) continue
      const i = line.indexOf(':')
      const field = i < 0 ? line : line.slice(0, i)
      const value = i < 0 ? '' : line.slice(i + 1).replace(/^ /, '')
      if (field === 'event') topic = value
      else if (field === 'data') data.push(value)
    }
    if (data.length) this.dispatch(topic as Topic, data.join('\n'))
  }

  private rescan() {
    const rescan: EventPayloads['vault:changed'] = { library: '', paths: [], rescan: true }
    for (const l of this.listeners.get('vault:changed') ?? []) l(rescan)
  }

  private dispatch(topic: Topic, raw: string) {
    const set = this.listeners.get(topic)
    if (!set) return
    let data: unknown
    try {
      data = JSON.parse(raw)
    } catch {
      console.warn(`memotree: bad ${topic} event`, raw)
      return
    }
    for (const l of set) l(data)
  }
}
