// How each node and edge of the graph is drawn, from what the view knows: sigma's
// node and edge reducers, and the style of a big graph's bulk edges (which must look
// as the edge reducer would draw them). Pure functions of a ReducerState, which the
// renderer (graphRenderer.svelte.ts) keeps: they run once per node and edge on every
// refresh, so the state is plain values, not reactive ones.
import type { ChangeState, GraphViewSettings } from '../api'
import type { BulkEdgeStyle } from './graphBulkEdges'
import type { GraphDiff } from './graphDiff'
import type { ActiveGroup } from './graphGroups'
import { isTypedRelation, type EdgeAttrs, type ModelGraph, type NodeAttrs } from './graphModel'
import type { GraphTheme } from './graphTheme'

/** What the reducers read. */
export interface ReducerState {
  theme: GraphTheme
  /** The graph's settings (null until known: nothing is drawn then but an empty graph). */
  view: GraphViewSettings | null
  /** A big graph: nodes are point sprites and edges one-pixel lines. */
  thin: boolean
  /** The change set shown as a diff, if any. */
  diff: GraphDiff | null
  /** Notes with pending changes. */
  marked: ReadonlyMap<string, ChangeState>
  /** The nodes the search box matches (null: no search). */
  matches: ReadonlySet<string> | null
  /** The open note. */
  current: string | null
  /** The node under the mouse. */
  hovered: string | null
  /** The graph on screen. */
  shown: ModelGraph | null
  /** Relation types whose edges are hidden. */
  hidden: ReadonlySet<string>
  /** The colour groups, and each node's (an index into groups). */
  groups: readonly ActiveGroup[]
  groupOf: ReadonlyMap<string, number>
  /** The queries of the groups whose nodes the legend hides. */
  hiddenGroups: ReadonlySet<string>
}

/** A node as sigma draws it. */
export type DrawnNode = NodeAttrs & { highlighted?: boolean; forceLabel?: boolean; zIndex?: number; type?: string; hidden?: boolean }
/** An edge as sigma draws it. */
export type DrawnEdge = EdgeAttrs & { hidden?: boolean; type?: string }

/** hiddenByGroup is whether the legend hides a node (its group is toggled off). */
export function hiddenByGroup(s: ReducerState, node: string): boolean {
  if (s.hiddenGroups.size === 0) return false
  const k = s.groupOf.get(node)
  return k !== undefined && s.hiddenGroups.has(s.groups[k]?.query ?? '')
}

/** reduceNode is sigma's node reducer: how node (its attributes a) is drawn. */
export function reduceNode(s: ReducerState, node: string, a: NodeAttrs): DrawnNode {
  const out = a as DrawnNode
  const { theme, diff, matches, current, hovered, shown } = s
  // A big graph's nodes are point sprites: one vertex each instead of a triangle.
  if (s.thin) out.type = 'dot'
  if (hiddenByGroup(s, node)) {
    out.hidden = true
    return out
  }
  if (s.view) out.size = a.size * s.view.node_size
  if (diff) {
    if (diff.addedNodes.has(node)) {
      out.color = theme.added
      out.forceLabel = true
      out.zIndex = 2
    } else if (diff.removedNodes.has(node) || a.ghost) {
      out.color = theme.removed
      out.forceLabel = true
      out.zIndex = 1
    } else if (diff.changedNodes.has(node)) {
      out.forceLabel = true
      out.zIndex = 2
    } else {
      out.color = theme.faded
      out.label = ''
      out.zIndex = 0
    }
    if (node === current) out.highlighted = true
    return out
  }
  if (s.marked.has(node)) {
    out.color = theme.pending
    out.forceLabel = true
    out.zIndex = 1
  }
  if (matches) {
    if (matches.has(node)) {
      out.highlighted = true
      out.forceLabel = matches.size <= 50
      out.zIndex = 2
    } else {
      out.color = theme.faded
      out.label = ''
      out.forceLabel = false
      out.zIndex = 0
    }
  }
  if (node === current) {
    out.highlighted = true
    out.forceLabel = true
    out.size = a.size * 1.5
    out.zIndex = 3
  }
  if (node === hovered) out.highlighted = true
  if (hovered && shown && node !== hovered && !shown.areNeighbors(node, hovered)) {
    out.color = theme.faded
    out.label = ''
    out.zIndex = 0
  }
  return out
}

/** reduceEdge is sigma's edge reducer: how edge (its attributes a) is drawn. */
export function reduceEdge(s: ReducerState, edge: string, a: EdgeAttrs): DrawnEdge {
  const out = a as DrawnEdge
  const { theme, diff, matches, current, hovered, shown } = s
  // A big graph's edges are one-pixel lines: a third of the cost of sigma's
  // antialiased rectangles in software WebGL, and as readable at that density.
  if (s.thin) out.type = 'thin'
  else if (s.view?.show_arrows) out.type = 'arrow'
  if (s.view) out.size = a.size * s.view.link_thickness
  if (s.hidden.has(a.relation) || (s.hiddenGroups.size > 0 && shown && (hiddenByGroup(s, shown.source(edge)) || hiddenByGroup(s, shown.target(edge))))) {
    out.hidden = true
    return out
  }
  // Opaque theme colours: translucent ones turn light on a dark transparent canvas.
  out.color = isTypedRelation(a.relation) ? theme.edgeTyped : theme.edge
  if (!shown) return out
  if (diff) {
    if (diff.addedEdges.has(edge)) ((out.color = theme.added), (out.size = Math.max(out.size, 1.5)))
    else if (a.ghost) ((out.color = theme.removed), (out.size = Math.max(out.size, 1.5)))
    else out.color = theme.faded
    return out
  }
  if (hovered && !shown.hasExtremity(edge, hovered)) out.hidden = true
  else if (matches && !(matches.has(shown.source(edge)) || matches.has(shown.target(edge)))) out.hidden = true
  else if (current && shown.hasExtremity(edge, current)) out.color = theme.accent
  return out
}

/** bulkStyle styles the bulk edges as reduceEdge does a big graph's edges (no hover on one). */
export function bulkStyle(s: ReducerState): BulkEdgeStyle {
  return {
    relationColor: (r) => (s.hidden.has(r) ? null : isTypedRelation(r) ? s.theme.edgeTyped : s.theme.edge),
    only: s.matches,
    focus: s.current,
    accent: s.theme.accent,
  }
}
