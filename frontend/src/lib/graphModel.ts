// The graph view's model: a graphology graph built from the backend's GraphData, with
// colours by entity type, sizes by degree, and positions kept across refreshes.
import { MultiDirectedGraph } from 'graphology'
import type { GraphData } from '../api/types'
import { colorForType, hashString, UNRESOLVED_COLOR } from './colors'

export interface NodeAttrs {
  label: string
  entityType: string
  unresolved: boolean
  x: number
  y: number
  size: number
  color: string
}

export interface EdgeAttrs {
  relation: string
  size: number
  color: string
}

export type ModelGraph = MultiDirectedGraph<NodeAttrs, EdgeAttrs>

/** Edge colours: typed relations a little stronger than plain links. */
export const EDGE_TYPED = 'rgba(128, 136, 155, 0.55)'
export const EDGE_LINK = 'rgba(128, 136, 155, 0.3)'

/** isTypedRelation tells a front matter relation from a body link or embed. */
export function isTypedRelation(type: string): boolean {
  return type !== 'links to' && type !== 'embeds'
}

/** A position by node id, to carry a layout from one graph to the next. */
export type Positions = ReadonlyMap<string, { x: number; y: number }>

/** seedPosition places a node deterministically on a disc, from its id. */
export function seedPosition(id: string): { x: number; y: number } {
  const h = hashString(id)
  const angle = ((h & 0xffff) / 0xffff) * Math.PI * 2
  const r = 10 + ((h >>> 16) / 0xffff) * 90
  return { x: Math.cos(angle) * r, y: Math.sin(angle) * r }
}

/** nodeSize grows with the square root of the degree, as Obsidian's graph does. */
export function nodeSize(degree: number): number {
  return 2.5 + Math.min(9, Math.sqrt(degree) * 1.3)
}

/** buildGraph turns GraphData into a graph; known nodes keep their `previous` positions. */
export function buildGraph(data: GraphData, previous: Positions = new Map()): ModelGraph {
  const g: ModelGraph = new MultiDirectedGraph<NodeAttrs, EdgeAttrs>()
  for (const n of data.nodes) {
    if (g.hasNode(n.id)) continue
    const pos = previous.get(n.id) ?? seedPosition(n.id)
    g.addNode(n.id, {
      label: n.label,
      entityType: n.type,
      unresolved: n.unresolved,
      x: pos.x,
      y: pos.y,
      size: 3,
      color: n.unresolved ? UNRESOLVED_COLOR : colorForType(n.type),
    })
  }
  for (const e of data.edges) {
    if (!g.hasNode(e.source) || !g.hasNode(e.target)) continue
    const typed = isTypedRelation(e.type)
    g.addEdge(e.source, e.target, { relation: e.type, size: typed ? 1 : 0.6, color: typed ? EDGE_TYPED : EDGE_LINK })
  }
  g.forEachNode((id) => g.setNodeAttribute(id, 'size', nodeSize(g.degree(id))))
  if (previous.size > 0) placeNewNodes(g, previous)
  return g
}

/** placeNewNodes puts nodes that had no position next to a neighbour that had one. */
function placeNewNodes(g: ModelGraph, previous: Positions): void {
  g.forEachNode((id) => {
    if (previous.has(id)) return
    const anchor = g.neighbors(id).find((n) => previous.has(n))
    const at = anchor ? previous.get(anchor) : undefined
    if (!at) return
    const jitter = seedPosition(id)
    g.mergeNodeAttributes(id, { x: at.x + jitter.x / 20, y: at.y + jitter.y / 20 })
  })
}

/** positionsOf reads the current layout of a graph. */
export function positionsOf(g: ModelGraph): Map<string, { x: number; y: number }> {
  const out = new Map<string, { x: number; y: number }>()
  g.forEachNode((id, a) => out.set(id, { x: a.x, y: a.y }))
  return out
}

/**
 * sameNodes reports whether two graphs have the same nodes, so the layout can stay as it
 * is: edges that come and go do not move anything.
 */
export function sameNodes(a: ModelGraph, b: ModelGraph): boolean {
  if (a.order !== b.order) return false
  let same = true
  a.forEachNode((id) => {
    if (same && !b.hasNode(id)) same = false
  })
  return same
}

/** edgeTypes lists the distinct relation types of a graph's edges, sorted. */
export function edgeTypes(g: ModelGraph): string[] {
  const s = new Set<string>()
  g.forEachEdge((_e, a) => s.add(a.relation))
  return [...s].sort()
}
