// The only module the rest of the frontend imports to reach the backend.
import type { Api } from './api'
import type { GraphCall } from './graphFetch'
import type { FileEntry } from './types'
import { httpApi } from './http'
import { wailsApi } from './wails'

export type { Api } from './api'
export type { HttpApi } from './http'
export * from './events'
export type * from './types'
export type * from './gitTypes'
export type * from './conflictTypes'
export type { GitApi } from './git'

/** pickApi chooses the transport: the Wails bindings when present, else HTTP. */
export function pickApi(w: Window): Api {
  if (w.go && w.runtime) return wailsApi(w.go, w.runtime)
  return httpApi()
}

/** Whether the page runs inside the desktop app (the Wails runtime is there). */
export function isDesktop(): boolean {
  return !!window.runtime
}

/** Opens an external URL in the system browser (desktop) or a new tab. */
export function openExternal(url: string): void {
  if (window.runtime) window.runtime.BrowserOpenURL(url)
  else window.open(url, '_blank', 'noopener,noreferrer')
}

/**
 * withEarlyGraph asks for the default library's graph at once, before the window is
 * built, and returns an Api whose first graph("") call takes that answer (the graph is
 * the longest thing to load; see GraphStore.prefetch), and `sent`, which settles once
 * the request is out (over HTTP the graph's reader is a worker, which starts only when
 * the window's thread has a moment: see main.ts).
 */
export function withEarlyGraph(api: Api): { api: Api; sent: Promise<void> } {
  performance.mark('graph:request')
  let early: GraphCall | null = api.graph('')
  const sent = early.sent ?? Promise.resolve()
  // A failure belongs to the call that takes the answer.
  early.catch(() => {})
  const wrapped: Api = {
    ...api,
    graph: (library) => {
      if (library !== '' || !early) return api.graph(library)
      const answer = early
      early = null
      return answer
    },
  }
  return { api: wrapped, sent }
}

/**
 * withEarlyFiles asks for the default library's files at once, before the window's
 * code is loaded and built, and returns an Api whose first files("") call takes that
 * answer. The tree is the first thing the window shows: on a vault being scanned the
 * answer waits for the scan's walk of the folder (a quarter of a second at 100k
 * notes), which now runs while the window's code loads and mounts instead of after.
 */
export function withEarlyFiles(api: Api): Api {
  let early: Promise<FileEntry[]> | null = api.files('')
  // A failure belongs to the call that takes the answer.
  early.catch(() => {})
  return {
    ...api,
    files: (library) => {
      if (library !== '' || !early) return api.files(library)
      const answer = early
      early = null
      return answer
    },
  }
}
