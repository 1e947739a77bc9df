// The pointer over the graph: a click opens a note, a hovered node fades the rest (the
// reducers read `hovered`), a hovered edge names its relation, and relation labels are
// drawn only where they can be read.
import type Sigma from 'sigma'
import { drawStraightEdgeLabel } from 'sigma/rendering'
import type { EdgeLabelDrawingFunction } from 'sigma/rendering'
import type { EdgeAttrs, ModelGraph, NodeAttrs } from './graphModel'
import { BIG, EDGE_LABEL_FEW, EDGE_LABEL_RATIO } from './graphSigma'

/** A tooltip naming a hovered edge's relation, at the pointer. */
export interface EdgeTip {
  text: string
  x: number
  y: number
}

/** What the pointer reads of the renderer, and sets on it. */
export interface PointerState {
  /** The graph on screen. */
  readonly shown: ModelGraph | null
  /** How many edges are on screen. */
  readonly shownEdges: number
  hovered: string | null
  tip: EdgeTip | null
}

/** listenPointer opens a clicked note, fades the rest around a hovered one and names a hovered edge. */
export function listenPointer(renderer: Sigma<NodeAttrs, EdgeAttrs>, container: HTMLElement, s: PointerState, open: (path: string) => void) {
  renderer.on('clickNode', ({ node }) => {
    if (s.shown?.getNodeAttribute(node, 'unresolved')) return
    open(node)
  })
  renderer.on('enterNode', ({ node }) => {
    container.style.cursor = s.shown?.getNodeAttribute(node, 'unresolved') ? 'default' : 'pointer'
    // Fading the rest re-processes every edge: not worth it on a big graph.
    if (s.shownEdges > BIG) return
    s.hovered = node
    renderer.refresh({ skipIndexation: true })
  })
  renderer.on('leaveNode', () => {
    container.style.cursor = ''
    if (s.hovered === null) return
    s.hovered = null
    renderer.refresh({ skipIndexation: true })
  })
  renderer.on('enterEdge', ({ edge, event }) => {
    const rel = s.shown?.getEdgeAttribute(edge, 'relation') ?? ''
    s.tip = { text: rel, x: event.x, y: event.y }
  })
  renderer.on('leaveEdge', () => (s.tip = null))
}

/**
 * edgeLabels draws relation labels only where they can be read: beside a highlighted
 * node, on a graph of few edges, or close enough (see EDGE_LABEL_RATIO); `ratio` is the
 * camera's.
 */
export function edgeLabels(s: Pick<PointerState, 'shownEdges'>, ratio: () => number): EdgeLabelDrawingFunction<NodeAttrs, EdgeAttrs> {
  return (ctx, edge, source, target, settings) => {
    const near = source.highlighted || target.highlighted
    const few = s.shownEdges <= EDGE_LABEL_FEW
    if (!near && !few && ratio() > EDGE_LABEL_RATIO) return
    drawStraightEdgeLabel(ctx, edge, source, target, settings)
  }
}
