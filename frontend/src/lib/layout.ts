// The window's layout: panel sizes and which panels are open, remembered between
// sessions. Pure functions here; the store (stores/layout.svelte.ts) keeps it in the
// browser (lib/windowState.ts).

/** The right-hand panel that is open, or '' for none. */
export type SidePanel = '' | 'git' | 'chat' | 'canvas'

/** What is remembered of the layout. Sizes are CSS pixels. */
export interface Layout {
  sidebarWidth: number
  graphWidth: number
  /** Height of the graph when the window is narrow and the graph sits under the note. */
  graphHeight: number
  sideWidth: number
  showSidebar: boolean
  showGraph: boolean
  /** The graph takes the centre of the window and the note the graph's column. */
  graphMain: boolean
  side: SidePanel
}

/** The bounds of each size. */
export const LIMITS = {
  sidebarWidth: { min: 160, max: 640, initial: 260 },
  graphWidth: { min: 220, max: 1400, initial: 460 },
  graphHeight: { min: 120, max: 1200, initial: 280 },
  sideWidth: { min: 280, max: 1000, initial: 420 },
} as const

/** The layout of a first start. */
export const DEFAULT_LAYOUT: Layout = {
  sidebarWidth: LIMITS.sidebarWidth.initial,
  graphWidth: LIMITS.graphWidth.initial,
  graphHeight: LIMITS.graphHeight.initial,
  sideWidth: LIMITS.sideWidth.initial,
  showSidebar: true,
  showGraph: true,
  graphMain: false,
  side: '',
}

/** clamp bounds v to [min, max], rounding to whole pixels; NaN gives min. */
export function clamp(v: number, min: number, max: number): number {
  if (!Number.isFinite(v)) return min
  return Math.round(Math.min(Math.max(v, min), Math.max(min, max)))
}

type SizeKey = keyof typeof LIMITS

function size(raw: unknown, k: SizeKey): number {
  const l = LIMITS[k]
  return typeof raw === 'number' && Number.isFinite(raw) ? clamp(raw, l.min, l.max) : l.initial
}

/**
 * parseLayout reads a stored layout: anything missing, of the wrong type or out of
 * bounds falls back to the default, so a corrupt or older entry never breaks the window.
 */
export function parseLayout(text: string | null | undefined): Layout {
  let raw: Record<string, unknown> = {}
  try {
    const v: unknown = text ? JSON.parse(text) : {}
    if (v && typeof v === 'object' && !Array.isArray(v)) raw = v as Record<string, unknown>
  } catch {
    // A corrupt entry: start from the default.
  }
  const side = raw.side
  return {
    sidebarWidth: size(raw.sidebarWidth, 'sidebarWidth'),
    graphWidth: size(raw.graphWidth, 'graphWidth'),
    graphHeight: size(raw.graphHeight, 'graphHeight'),
    sideWidth: size(raw.sideWidth, 'sideWidth'),
    showSidebar: typeof raw.showSidebar === 'boolean' ? raw.showSidebar : DEFAULT_LAYOUT.showSidebar,
    showGraph: typeof raw.showGraph === 'boolean' ? raw.showGraph : DEFAULT_LAYOUT.showGraph,
    graphMain: typeof raw.graphMain === 'boolean' ? raw.graphMain : DEFAULT_LAYOUT.graphMain,
    side: side === 'git' || side === 'chat' || side === 'canvas' ? side : '',
  }
}

/** The least width the note column keeps when panels are resized. */
export const MIN_MAIN = 360

/**
 * fitLayout returns the sizes to draw in a window `width` pixels wide: each panel
 * within its bounds, and shrunk (the graph first, then the right-hand panel, then
 * the sidebar) so that the note keeps MIN_MAIN pixels. With `emptyNote` (no note is
 * open) the graph takes what the note column does not need, down to MIN_MAIN: an
 * empty pane has nothing to show in the room the graph needs. The stored sizes are
 * not changed, so widening the window, or opening a note, restores them.
 */
export function fitLayout(l: Layout, width: number, { emptyNote = false } = {}): { sidebar: number; graph: number; side: number } {
  let sidebar = l.showSidebar ? l.sidebarWidth : 0
  let graph = l.showGraph ? l.graphWidth : 0
  let side = l.side ? l.sideWidth : 0
  let over = sidebar + graph + side + MIN_MAIN - width
  const shrink = (v: number, min: number) => {
    if (over <= 0 || v === 0) return v
    const cut = Math.min(over, v - min)
    if (cut <= 0) return v
    over -= cut
    return v - cut
  }
  graph = shrink(graph, LIMITS.graphWidth.min)
  side = shrink(side, LIMITS.sideWidth.min)
  sidebar = shrink(sidebar, LIMITS.sidebarWidth.min)
  if (emptyNote && graph > 0) graph = Math.max(graph, Math.min(LIMITS.graphWidth.max, width - sidebar - side - MIN_MAIN))
  return { sidebar, graph, side }
}
