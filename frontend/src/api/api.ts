import type { EventPayloads, Topic, Unsubscribe } from './events'
import type { CanvasView, FileEntry, GraphData, LibraryInfo, NoteView } from './types'

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
  /** Tells a waiting smoke test that the file tree rendered with `count` notes. */
  reportRendered(count: number): Promise<void>
  /** The agent's canvas: a view of a library ("" for the default view). */
  canvas(library: string, view: string): Promise<CanvasView>
  canvasExpand(library: string, view: string, id: string, level: string): Promise<CanvasView>
  canvasCollapse(library: string, view: string, id: string): Promise<CanvasView>
  canvasPin(library: string, view: string, id: string, pinned: boolean): Promise<CanvasView>
  canvasSettings(library: string, budget: number, autoSummary: boolean): Promise<CanvasView>
  /** Subscribes to a topic; returns the function that unsubscribes. */
  on<T extends Topic>(topic: T, cb: (e: EventPayloads[T]) => void): Unsubscribe
}

/** The Go method name for each Api method, shared by both transports. */
export const GO_METHODS = {
  libraries: 'Libraries',
  files: 'Files',
  note: 'Note',
  graph: 'Graph',
  reportRendered: 'ReportRendered',
  canvas: 'Canvas',
  canvasExpand: 'CanvasExpand',
  canvasCollapse: 'CanvasCollapse',
  canvasPin: 'CanvasPin',
  canvasSettings: 'CanvasSettings',
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
    reportRendered: async (count) => {
      await call(GO_METHODS.reportRendered, [count])
    },
    canvas: (library, view) => call(GO_METHODS.canvas, [library, view]) as Promise<CanvasView>,
    canvasExpand: (library, view, id, level) =>
      call(GO_METHODS.canvasExpand, [library, view, id, level]) as Promise<CanvasView>,
    canvasCollapse: (library, view, id) => call(GO_METHODS.canvasCollapse, [library, view, id]) as Promise<CanvasView>,
    canvasPin: (library, view, id, pinned) =>
      call(GO_METHODS.canvasPin, [library, view, id, pinned]) as Promise<CanvasView>,
    canvasSettings: (library, budget, autoSummary) =>
      call(GO_METHODS.canvasSettings, [library, budget, autoSummary]) as Promise<CanvasView>,
    on,
  }
}
