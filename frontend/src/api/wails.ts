import { apiFromCaller, type Api, type GoMethod } from './api'

/** The part of the Wails runtime injected as window.runtime that we use. */
export interface WailsRuntime {
  /** Returns a function that removes the listener (Wails v2.5 and later). */
  EventsOn(name: string, cb: (...data: unknown[]) => void): (() => void) | void
  EventsOff(name: string, ...more: string[]): void
  BrowserOpenURL(url: string): void
}

/** One bound Go struct: its methods by name. */
export type BoundMethods = Record<string, ((...args: unknown[]) => Promise<unknown>) | undefined>

/**
 * The bindings Wails injects as window.go, by Go package then type:
 * window.go.<package>.API.<Method>. The desktop app binds backend/uiapi's API, so it
 * is window.go.uiapi.API.
 */
export type WailsBindings = Record<string, { API?: BoundMethods } | undefined>

/** boundApi finds the bound API struct, or undefined. */
export function boundApi(go: WailsBindings): BoundMethods | undefined {
  return go.uiapi?.API
}

declare global {
  interface Window {
    go?: WailsBindings
    runtime?: WailsRuntime
  }
}

/** wailsApi calls the Go methods bound by the desktop app (looked up at each call). */
export function wailsApi(go: WailsBindings, runtime: WailsRuntime): Api {
  const call = (method: GoMethod, args: unknown[]): Promise<unknown> => {
    const fn = boundApi(go)?.[method]
    if (!fn) return Promise.reject(new Error(`${method}: not bound by the desktop app`))
    return fn(...args)
  }
  return apiFromCaller(call, (topic, cb) => {
    const off = runtime.EventsOn(topic, (data) => cb(data as never))
    return typeof off === 'function' ? off : () => runtime.EventsOff(topic)
  })
}
