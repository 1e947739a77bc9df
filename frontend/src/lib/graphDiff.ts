// A change set as a graph diff: what an agent turn (or an MCP session, or outside
// edits) adds to and removes from the structure of the vault. The graph holds the
// notes as they are now; the backend's GraphBefore gives the change set's notes as the
// last commit has them. New notes and new edges are added, notes and edges that are
// gone come back as ghosts, and changed notes are marked.
import type { NoteBefore } from '../api/types'
import { EDGE_LINK, seedPosition, type ModelGraph } from './graphModel'

/** A change of the change set: its path, its state, and for a rename the old path. */
export interface DiffChange {
  path: string
  state: string
  from?: string
}

/** What a change set does to the graph. */
export interface GraphDiff {
  /** Notes the last commit did not have. */
  addedNodes: Set<string>
  /** Notes it had that changed. */
  changedNodes: Set<string>
  /** Notes (or names) gone: drawn as ghosts. */
  removedNodes: Set<string>
  /** Keys of edges of the graph that the last commit did not have. */
  addedEdges: Set<string>
  /** Edges the last commit had that are gone: drawn as ghosts. */
  removedEdges: { from: string; to: string; relation: string }[]
}

const pair = (to: string, relation: string) => `${to}\u0000${relation}`

/** graphDiff compares the graph now with the change set's notes at the last commit. */
export function graphDiff(g: ModelGraph, changes: readonly DiffChange[], before: readonly NoteBefore[]): GraphDiff {
  const d: GraphDiff = { addedNodes: new Set(), changedNodes: new Set(), removedNodes: new Set(), addedEdges: new Set(), removedEdges: [] }
  const then = new Map(before.map((b) => [b.path, b]))
  for (const c of changes) {
    const old = then.get(c.from ?? c.path)
    const existed = old?.existed ?? false
    const now = g.hasNode(c.path)
    if (now && !existed) d.addedNodes.add(c.path)
    else if (now) d.changedNodes.add(c.path)
    if (c.from && c.from !== c.path && existed && !g.hasNode(c.from)) d.removedNodes.add(c.from)
    if (!now && existed) d.removedNodes.add(c.path)
    const had = new Set((old?.edges ?? []).map((e) => pair(e.to, e.relation)))
    const has = new Set<string>()
    if (now)
      g.forEachOutEdge(c.path, (key, a, _s, target) => {
        has.add(pair(target, a.relation))
        if (!had.has(pair(target, a.relation))) d.addedEdges.add(key)
      })
    for (const e of old?.edges ?? []) {
      // A renamed note's old edges live on under its new name.
      if (has.has(pair(e.to, e.relation))) continue
      const from = now ? c.path : (c.from ?? c.path)
      d.removedEdges.push({ from, to: e.to, relation: e.relation })
      if (!g.hasNode(e.to)) d.removedNodes.add(e.to)
    }
  }
  return d
}

/** The colour the ghosts (what a change set removed) are drawn in, under the theme's. */
export const GHOST = 'ghost'

/**
 * withGhosts copies g and adds what the diff removed: ghost nodes (placed next to a
 * neighbour they had) and ghost edges (keys "ghost:<n>"), marked `ghost`.
 */
export function withGhosts(g: ModelGraph, d: GraphDiff): ModelGraph {
  const out = g.copy() as ModelGraph
  const near = new Map<string, string>()
  for (const e of d.removedEdges) {
    if (!near.has(e.to)) near.set(e.to, e.from)
    if (!near.has(e.from)) near.set(e.from, e.to)
  }
  for (const id of d.removedNodes) {
    if (out.hasNode(id)) continue
    const anchor = near.get(id)
    const at = anchor && out.hasNode(anchor) ? out.getNodeAttributes(anchor) : { x: 0, y: 0 }
    const j = seedPosition(id, 5)
    const label = id.startsWith('unresolved:') ? id.slice(11) : id.replace(/^.*\//, '').replace(/\.md$/i, '')
    out.addNode(id, { label, entityType: '', unresolved: id.startsWith('unresolved:'), kind: 'note', x: at.x + j.x, y: at.y + j.y, size: 3, color: EDGE_LINK, ghost: true })
  }
  d.removedEdges.forEach((e, i) => {
    if (out.hasNode(e.from) && out.hasNode(e.to)) out.addEdgeWithKey(`ghost:${i}`, e.from, e.to, { relation: e.relation, size: 1, color: EDGE_LINK, ghost: true })
  })
  return out
}
