// The only module the rest of the frontend imports to reach the backend.
import type { Api } from './api'
import { httpApi } from './http'
import { wailsApi } from './wails'

export type { Api } from './api'
export * from './events'
export type * from './types'
export type * from './gitTypes'
export type { GitApi } from './git'

/** pickApi chooses the transport: the Wails bindings when present, else HTTP. */
export function pickApi(w: Window): Api {
  if (w.go && w.runtime) return wailsApi(w.go, w.runtime)
  return httpApi()
}

/** Opens an external URL in the system browser (desktop) or a new tab. */
export function openExternal(url: string): void {
  if (window.runtime) window.runtime.BrowserOpenURL(url)
  else window.open(url, '_blank', 'noopener,noreferrer')
}
