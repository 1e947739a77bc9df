import type { EventPayloads, Topic, Unsubscribe } from './events'
import type { FileEntry, GraphData, LibraryInfo, NoteView, SearchOptions, SearchResults, SwitchItem } from './types'

/**
 * Api is everything the window asks of the backend. Two transports implement it: the
 * Wails bindings inside the desktop app and HTTP against `memotree serve` in a browser.
 * Method names map one to one onto the Go methods (libraries → Libraries, ...).
 */
export interface Api {
  libraries(): Promise<LibraryInfo[]>
  files(library: string): Promise<FileEntry[]>
  note(library: string, path: string): Promise<NoteView>
  graph(library: string): Promise<GraphData>
  /** Notes whose names or aliases match query fuzzily, best first. */
  quickSwitch(library: string, query: string, limit: number): Promise<SwitchItem[]>
  /** Ranked search (search_nodes) with snippets. */
  search(library: string, query: string, options: SearchOptions): Promise<SearchResults>
  /** Tells a waiting smoke test that the file tree rendered with `count` notes. */
  reportRendered(count: number): Promise<void>
  /** Subscribes to a topic; returns the function that unsubscribes. */
  on<T extends Topic>(topic: T, cb: (e: EventPayloads[T]) => void): Unsubscribe
}

/** The Go method name for each Api method, shared by both transports. */
export const GO_METHODS = {
  libraries: 'Libraries',
  files: 'Files',
  note: 'Note',
  graph: 'Graph',
  quickSwitch: 'QuickSwitch',
  search: 'Search',
  reportRendered: 'ReportRendered',
} as const satisfies Record<Exclude<keyof Api, 'on'>, string>

export type GoMethod = (typeof GO_METHODS)[keyof typeof GO_METHODS]

/** Builds an Api from a function that calls a Go method with positional arguments. */
export function apiFromCaller(
  call: (method: GoMethod, args: unknown[]) => Promise<unknown>,
  on: Api['on'],
): Api {
  return {
    libraries: () => call(GO_METHODS.libraries, []) as Promise<LibraryInfo[]>,
    files: (library) => call(GO_METHODS.files, [library]) as Promise<FileEntry[]>,
    note: (library, path) => call(GO_METHODS.note, [library, path]) as Promise<NoteView>,
    graph: (library) => call(GO_METHODS.graph, [library]) as Promise<GraphData>,
    quickSwitch: (library, query, limit) =>
      call(GO_METHODS.quickSwitch, [library, query, limit]) as Promise<SwitchItem[]>,
    search: (library, query, options) => call(GO_METHODS.search, [library, query, options]) as Promise<SearchResults>,
    reportRendered: async (count) => {
      await call(GO_METHODS.reportRendered, [count])
    },
    on,
  }
}
