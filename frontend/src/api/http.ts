import { apiFromCaller, GO_METHODS, type Api, type GoMethod } from './api'
import { errorMessage } from './errors'
import { graphReader } from './graphFetch'
import type { EventPayloads, Topic } from './events'

type Listener = (data: unknown) => void

/**
 * httpApi talks to `memotree serve`: POST /api/call/<Method> with a JSON array of the
 * positional arguments, and server-sent events from /api/events. The session token
 * lives in a cookie the server set when the page was opened with ?token=.
 */
export function httpApi(base = ''): Api {
  const call = async (method: GoMethod, args: unknown[]): Promise<unknown> => {
    const res = await fetch(`${base}/api/call/${method}`, {
      method: 'POST',
      credentials: 'same-origin',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(args),
    })
    const text = await res.text()
    if (!res.ok) throw new Error(errorMessage(method, res.status, text))
    return text === '' ? null : JSON.parse(text)
  }
  const events = new EventHub(`${base}/api/events`)
  const api = apiFromCaller(call, (topic, cb) => events.on(topic, cb as Listener))
  // The graph, the largest answer by far, is read and parsed off the window's thread.
  const url = new URL(`${base}/api/call/${GO_METHODS.graph}`, globalThis.location?.href ?? 'http://localhost/').href
  const viaWorker = typeof Worker === 'undefined' ? null : graphReader(url, api.graph)
  if (viaWorker) api.graph = viaWorker
  return api
}


/**
 * EventHub shares one EventSource among all subscribers, opened on the first
 * subscription. After a dropped connection comes back, events may have been missed,
 * so vault:changed subscribers get a synthetic rescan.
 */
class EventHub {
  private source: EventSource | null = null
  private listeners = new Map<Topic, Set<Listener>>()
  private dropped = false

  constructor(private url: string) {}

  on<T extends Topic>(topic: T, cb: (e: EventPayloads[T]) => void) {
    const src = this.open()
    let set = this.listeners.get(topic)
    if (!set) {
      set = new Set()
      this.listeners.set(topic, set)
      src.addEventListener(topic, (ev) => this.dispatch(topic, (ev as MessageEvent<string>).data))
    }
    const l = cb as Listener
    set.add(l)
    return () => {
      set.delete(l)
    }
  }

  private open(): EventSource {
    if (this.source) return this.source
    const src = new EventSource(this.url, { withCredentials: true })
    src.addEventListener('error', () => {
      this.dropped = true
    })
    src.addEventListener('open', () => {
      if (!this.dropped) return
      this.dropped = false
      const rescan: EventPayloads['vault:changed'] = { library: '', paths: [], rescan: true }
      for (const l of this.listeners.get('vault:changed') ?? []) l(rescan)
    })
    this.source = src
    return src
  }

  private dispatch(topic: Topic, raw: string) {
    let data: unknown
    try {
      data = JSON.parse(raw)
    } catch {
      console.warn(`memotree: bad ${topic} event`, raw)
      return
    }
    for (const l of this.listeners.get(topic) ?? []) l(data)
  }
}
