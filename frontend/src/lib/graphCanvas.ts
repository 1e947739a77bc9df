// Sigma as the graph view makes it, and what the view draws on its canvas itself.
// Kept apart from graphSigma.ts, whose thresholds are tested without WebGL: sigma's
// programs need a browser.
import Sigma from 'sigma'
import type { Attributes } from 'graphology-types'
import { EdgeArrowProgram, EdgeLineProgram, EdgeRectangleProgram, NodeCircleProgram, NodePointProgram } from 'sigma/rendering'
import type { EdgeLabelDrawingFunction, EdgeProgramType, NodeLabelDrawingFunction } from 'sigma/rendering'
import type { Settings as SigmaSettings } from 'sigma/settings'
import { UnusedEdgeProgram } from './graphBulkEdges'
import type { EdgeAttrs, ModelGraph, NodeAttrs } from './graphModel'
import { labelThreshold } from './graphSigma'
import { hoverDrawer, type GraphTheme } from './graphTheme'

/** What makeSigma draws with. */
export interface SigmaParts {
  /** The colours at the start; themeNow, the colours when a node is hovered. */
  theme: GraphTheme
  themeNow: () => GraphTheme
  drawLabel: NodeLabelDrawingFunction<NodeAttrs, EdgeAttrs>
  drawEdgeLabel: EdgeLabelDrawingFunction<NodeAttrs, EdgeAttrs>
  /** The program of a big graph's bulk edges (graphBulkEdges). */
  bulk: EdgeProgramType<NodeAttrs, EdgeAttrs>
  /** Whether arrows are drawn already (else their shaders are spared until asked). */
  arrows: boolean
  nodeReducer: SigmaSettings<NodeAttrs, EdgeAttrs>['nodeReducer']
  edgeReducer: SigmaSettings<NodeAttrs, EdgeAttrs>['edgeReducer']
}

/** makeSigma makes sigma in container, drawing g with the view's programs and settings. */
export function makeSigma(g: ModelGraph, container: HTMLElement, p: SigmaParts): Sigma<NodeAttrs, EdgeAttrs> {
  const font = getComputedStyle(container).fontFamily
  return new Sigma<NodeAttrs, EdgeAttrs>(g, container, {
    allowInvalidContainer: true,
    enableEdgeEvents: true,
    renderEdgeLabels: true,
    edgeLabelSize: 10,
    edgeLabelColor: { color: p.theme.label },
    edgeLabelFont: font,
    zIndex: true,
    labelColor: { color: p.theme.label },
    labelFont: font,
    labelSize: 12,
    // Room around the drawing for the outermost nodes and a little of their labels,
    // and for the graph's toolbar along the top (8 px from the edge, 34 px high), so
    // that no node is drawn under it once fitted.
    stagePadding: 48,
    labelWeight: '400',
    labelRenderedSizeThreshold: labelThreshold(false, 0),
    labelDensity: 0.5,
    defaultDrawNodeHover: hoverDrawer(p.themeNow),
    defaultDrawNodeLabel: p.drawLabel,
    defaultDrawEdgeLabel: p.drawEdgeLabel,
    edgeProgramClasses: {
      line: EdgeRectangleProgram,
      thin: EdgeLineProgram,
      bulk: p.bulk,
      // Arrows are off until the settings ask: spare sigma the arrow's shaders till then.
      arrow: p.arrows ? EdgeArrowProgram : UnusedEdgeProgram,
    },
    nodeProgramClasses: { circle: NodeCircleProgram, dot: NodePointProgram },
    nodeReducer: p.nodeReducer,
    edgeReducer: p.edgeReducer,
  })
}

/** ringNodes draws a ring around each of `ids` on sigma's label layer (after a frame). */
export function ringNodes<N extends Attributes, E extends Attributes>(r: Sigma<N, E>, g: { hasNode(id: string): boolean }, ids: Iterable<string>, color: string): void {
  const ctx = r.getCanvases().labels?.getContext('2d')
  if (!ctx) return
  ctx.strokeStyle = color
  ctx.lineWidth = 2
  for (const id of ids) {
    if (!g.hasNode(id)) continue
    const d = r.getNodeDisplayData(id)
    if (!d || d.hidden) continue
    const p = r.framedGraphToViewport(d)
    ctx.beginPath()
    ctx.arc(p.x, p.y, r.scaleSize(d.size) + 3, 0, Math.PI * 2)
    ctx.stroke()
  }
}

/** drawArrows gives sigma the arrow's program, once the settings ask for arrows. */
export function drawArrows(r: Sigma<NodeAttrs, EdgeAttrs>): void {
  const classes = r.getSetting('edgeProgramClasses')
  if (classes.arrow !== EdgeArrowProgram) r.setSetting('edgeProgramClasses', { ...classes, arrow: EdgeArrowProgram })
}

/**
 * refreshNodes applies the reducers again after a change that concerns only `nodes`
 * of g (and their edges): on a big graph just those, not every node and edge.
 */
export function refreshNodes(r: Sigma<NodeAttrs, EdgeAttrs>, g: ModelGraph, nodes: Iterable<string | null>, big: boolean): void {
  if (!big) {
    r.refresh({ skipIndexation: true })
    return
  }
  const ns = [...new Set(nodes)].filter((n): n is string => n !== null && g.hasNode(n))
  const es = ns.flatMap((n) => g.edges(n))
  r.refresh({ partialGraph: { nodes: ns, edges: es }, skipIndexation: true, schedule: true })
}
