// What the graph view asks of sigma, and the thresholds of size it goes by: the
// renderer's settings for a graph of so many edges, how long a layout may run, and
// the patch that spares sigma a whole re-indexing after every drag. Pure, so tested
// without WebGL; graphRenderer.svelte.ts makes sigma and drives it.
import type Sigma from 'sigma'
import type { Settings as SigmaSettings } from 'sigma/settings'
import type { ModelGraph } from './graphModel'

/** Above this many edges the view trades details (hover fading, edge hover) for speed. */
export const BIG = 20000
/** Above this many edges, edges and labels are hidden while the camera moves. */
export const BUSY = 5000
/** Relation labels show on every edge once zoomed in this far (camera ratio)... */
export const EDGE_LABEL_RATIO = 0.5
/** ...or on every edge of a graph this small, and always around the open note. */
export const EDGE_LABEL_FEW = 30
/** Above this many nodes, labels may cover other nodes' discs (checking costs too much). */
export const LABEL_DISCS = 3000

/**
 * labelThreshold is the rendered size above which a node's label is drawn: later on a
 * big graph, and moved by the settings' text fade (-3 sooner to 3 later).
 */
export function labelThreshold(big: boolean, textFade: number): number {
  return Math.max(0.5, (big ? 8 : 3.5) + textFade * 1.5)
}

/** The sigma settings that follow the size of the graph on screen. */
export type SizeSettings = Pick<SigmaSettings, 'hideEdgesOnMove' | 'hideLabelsOnMove' | 'enableEdgeEvents' | 'labelRenderedSizeThreshold'>

/** sizeSettings are sigma's settings for a graph of `edges` edges on screen. */
export function sizeSettings(edges: number, textFade: number): SizeSettings {
  const big = edges > BIG
  return {
    hideEdgesOnMove: edges > BUSY,
    hideLabelsOnMove: edges > BUSY,
    // Edge hover needs the edges drawn a second time (for picking): small graphs only.
    enableEdgeEvents: !big,
    labelRenderedSizeThreshold: labelThreshold(big, textFade),
  }
}

/** globalLayoutMs is the longest a layout of the whole graph may run (it ends sooner once converged). */
export function globalLayoutMs(g: ModelGraph): number {
  if (g.size > BIG) return 5000
  return Math.min(4000, 1500 + g.order * 2)
}

/** localLayoutMs is the longest a layout of a local graph may run. */
export function localLayoutMs(g: ModelGraph): number {
  return Math.min(2000, 500 + g.order * 4)
}

/** How often a layout sends its positions: a big graph moves once, when the layout is done. */
export function layoutPostEvery(g: ModelGraph, ms: number): number {
  // Every update re-indexes the whole graph in sigma (about a second for 100k edges).
  return g.size > BIG ? ms : 100
}

/** The part of sigma renderOnBareRefresh patches. */
export type Refreshable = Pick<Sigma, 'refresh' | 'setGraph'>

/**
 * renderOnBareRefresh: sigma's mouse captor calls refresh() at the end of every drag
 * when hideEdgesOnMove is on, only to draw the edges again; but a bare refresh
 * re-indexes every node and edge (about a second on a 10k-note graph), a stall after
 * each pan. A render is enough: bare calls render, except inside setGraph (a new
 * graph must be indexed). The view's own full refreshes pass an options object.
 */
export function renderOnBareRefresh(r: Refreshable): void {
  const refresh = r.refresh.bind(r)
  const setGraph = r.setGraph.bind(r)
  let indexing = false
  r.refresh = (opts) => (opts || indexing ? refresh(opts) : refresh({ partialGraph: {}, skipIndexation: true }))
  r.setGraph = (g) => {
    indexing = true
    try {
      setGraph(g)
    } finally {
      indexing = false
    }
  }
}
