// The graph view's model: a graphology graph built from the backend's compact
// GraphData, with colours by entity type, sizes by degree, and positions kept across
// refreshes; the local graph around a note; the flat arrays the layout worker reads.
import { MultiDirectedGraph } from 'graphology'
import type { GraphData } from '../api/types'
import { hashString, typeColors, UNRESOLVED_COLOR, UNTYPED_COLOR } from './colors'

export interface NodeAttrs {
  label: string
  entityType: string
  unresolved: boolean
  x: number
  y: number
  size: number
  color: string
  /** Other names of the note, for the search box. */
  aliases?: string[]
}

export interface EdgeAttrs {
  relation: string
  size: number
  color: string
  /** The relation shown on the edge when zoomed in (typed relations only). */
  label?: string
}

export type ModelGraph = MultiDirectedGraph<NodeAttrs, EdgeAttrs>

/** The relation type of a body [[wikilink]]. */
export const LINKS_TO = 'links to'
/** The relation type of a body ![[embed]]. */
export const EMBEDS = 'embeds'

/** Edge colours: typed relations a little stronger than plain links. */
export const EDGE_TYPED = 'rgba(128, 136, 155, 0.55)'
export const EDGE_LINK = 'rgba(128, 136, 155, 0.3)'

/** isTypedRelation tells a front matter relation from a body link or embed. */
export function isTypedRelation(type: string): boolean {
  return type !== LINKS_TO && type !== EMBEDS
}

/** A position by node id, to carry a layout from one graph to the next. */
export type Positions = ReadonlyMap<string, { x: number; y: number }>

/** seedPosition places a node deterministically on a disc, from its id. */
export function seedPosition(id: string, radius = 100): { x: number; y: number } {
  const h = hashString(id)
  const angle = ((h & 0xffff) / 0xffff) * Math.PI * 2
  // The square root spreads the nodes evenly over the disc's area.
  const r = radius * (0.1 + 0.9 * Math.sqrt((h >>> 16) / 0xffff))
  return { x: Math.cos(angle) * r, y: Math.sin(angle) * r }
}

/**
 * nodeSize grows with the square root of the degree, as Obsidian's graph does; in a
 * graph of `order` nodes above a thousand every node is smaller, so that thousands of
 * discs do not cover one another.
 */
export function nodeSize(degree: number, order = 0): number {
  const scale = order > 1000 ? Math.max(0.4, Math.sqrt(1000 / order)) : 1
  return (2.5 + Math.min(9, Math.sqrt(degree) * 1.3)) * scale
}

/**
 * buildGraph turns GraphData into a graph; known nodes keep their `previous`
 * positions. Edges get their index in data.edges as key. With `edges: false` only the
 * nodes are added (sized by their degree all the same), for a first, quick drawing;
 * addEdges completes such a graph.
 */
export function buildGraph(data: GraphData, previous: Positions = new Map(), { edges: withEdges = true } = {}): ModelGraph {
  const g: ModelGraph = new MultiDirectedGraph<NodeAttrs, EdgeAttrs>()
  const n = data.nodes.length
  const degree = new Uint32Array(n)
  const e = data.edges
  const valid = (i: number) => Number.isInteger(i) && i >= 0 && i < n
  for (let i = 0; i + 2 < e.length; i += 3) {
    const s = e[i]!
    const t = e[i + 1]!
    if (!valid(s) || !valid(t)) continue
    degree[s]!++
    degree[t]!++
  }
  // Nodes spread over a disc that grows with their number, so that density and the
  // layout's work stay about the same from 10 to 10,000 notes.
  const radius = 20 * Math.sqrt(Math.max(n, 10))
  const colors = typeColors(data.types)
  for (let i = 0; i < n; i++) {
    const id = data.nodes[i]!
    if (g.hasNode(id)) continue
    const unresolved = i >= data.first_unresolved
    const type = data.types[data.node_types[i] ?? 0] ?? ''
    const pos = previous.get(id) ?? seedPosition(id, radius)
    const attrs: NodeAttrs = {
      label: data.labels[i] ?? id,
      entityType: type,
      unresolved,
      x: pos.x,
      y: pos.y,
      size: nodeSize(degree[i]!, n),
      color: unresolved ? UNRESOLVED_COLOR : (colors.get(type.trim().toLowerCase()) ?? UNTYPED_COLOR),
    }
    const aliases = data.aliases[String(i)]
    if (aliases && aliases.length > 0) attrs.aliases = aliases
    g.addNode(id, attrs)
  }
  if (withEdges) addEdges(g, data, previous)
  return g
}

/**
 * addEdges adds the edges of data to a graph built from it with `edges: false`, and
 * places its new nodes next to a neighbour (which they had none of before).
 */
export function addEdges(g: ModelGraph, data: GraphData, previous: Positions = new Map()): void {
  const n = data.nodes.length
  const e = data.edges
  if (e.length / 3 > MANY_EDGES) hashedAdjacency(g)
  const valid = (i: number) => Number.isInteger(i) && i >= 0 && i < n
  for (let i = 0; i + 2 < e.length; i += 3) {
    const s = e[i]!
    const t = e[i + 1]!
    if (!valid(s) || !valid(t)) continue
    const relation = data.relations[e[i + 2]!] ?? LINKS_TO
    const typed = isTypedRelation(relation)
    const attrs: EdgeAttrs = { relation, size: typed ? 1 : 0.6, color: typed ? EDGE_TYPED : EDGE_LINK }
    if (typed) attrs.label = relation
    g.addEdgeWithKey(String(i / 3), data.nodes[s]!, data.nodes[t]!, attrs)
  }
  if (previous.size > 0) placeNewNodes(g, previous)
}

/** Above this many edges, addEdges switches the adjacency objects to hashed ones first. */
const MANY_EDGES = 5000

/**
 * hashedAdjacency turns the adjacency objects of every node (graphology keeps a node's
 * neighbours as the keys of plain objects) into hash tables before the edges go in.
 * Left as they are, V8 gives such an object a new hidden class for every key it
 * gains, which on 100k edges makes hundreds of thousands of hidden classes: adding the
 * edges took about twice as long, much of it in the garbage collector. Deleting a
 * property that is not the last one added is what makes V8 switch an object to a hash
 * table (it keeps the order of its keys). This reaches into graphology's node records
 * (`_nodes`, pinned at 0.26): anything unexpected there is left alone, as it only
 * costs speed.
 */
function hashedAdjacency(g: ModelGraph): void {
  const records = (g as unknown as { _nodes?: unknown })._nodes
  if (!(records instanceof Map)) return
  for (const rec of records.values() as Iterable<Record<string, unknown>>) {
    for (const side of ['in', 'out']) {
      const adj = rec[side] as Record<string, unknown> | undefined
      if (!adj || typeof adj !== 'object' || Object.keys(adj).length > 0) continue
      adj['\u0000a'] = null
      adj['\u0000b'] = null
      delete adj['\u0000a']
      delete adj['\u0000b']
    }
  }
}

/** placeNewNodes puts nodes that had no position next to a neighbour that had one. */
function placeNewNodes(g: ModelGraph, previous: Positions): void {
  g.forEachNode((id) => {
    if (previous.has(id)) return
    const anchor = g.neighbors(id).find((n) => previous.has(n))
    const at = anchor ? previous.get(anchor) : undefined
    if (!at) return
    const jitter = seedPosition(id, 5)
    g.mergeNodeAttributes(id, { x: at.x + jitter.x, y: at.y + jitter.y })
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

/** A relation type and how many edges have it. */
export interface RelationCount {
  relation: string
  count: number
}

/**
 * relationCounts lists the edge types of a graph with their counts: plain links
 * first, then embeds, then typed relations by name.
 */
export function relationCounts(g: ModelGraph): RelationCount[] {
  const m = new Map<string, number>()
  g.forEachEdge((_e, a) => m.set(a.relation, (m.get(a.relation) ?? 0) + 1))
  return orderedCounts(m)
}

/** orderedCounts lists counts by relation: plain links, embeds, then relations by name. */
function orderedCounts(m: Map<string, number>): RelationCount[] {
  const rank = (r: string) => (r === LINKS_TO ? 0 : r === EMBEDS ? 1 : 2)
  return [...m]
    .map(([relation, count]) => ({ relation, count }))
    .sort((a, b) => rank(a.relation) - rank(b.relation) || a.relation.localeCompare(b.relation))
}

/**
 * payloadRelationCounts is relationCounts read from the payload's edge triples, in
 * the same order, for a graph whose edges are not in graphology yet.
 */
export function payloadRelationCounts(data: GraphData): RelationCount[] {
  const n = data.nodes.length
  const e = data.edges
  const counts = new Map<string, number>()
  const valid = (i: number) => Number.isInteger(i) && i >= 0 && i < n
  for (let i = 0; i + 2 < e.length; i += 3) {
    if (!valid(e[i]!) || !valid(e[i + 1]!)) continue
    const relation = data.relations[e[i + 2]!] ?? LINKS_TO
    counts.set(relation, (counts.get(relation) ?? 0) + 1)
  }
  return orderedCounts(counts)
}

/** edgeTypes lists the distinct relation types of a graph's edges, sorted. */
export function edgeTypes(g: ModelGraph): string[] {
  return relationCounts(g)
    .map((r) => r.relation)
    .sort()
}

/** One entry of the colour legend. */
export interface LegendEntry {
  /** The entity type; "" for untyped notes. */
  type: string
  color: string
  count: number
}

/**
 * legend lists the entity types of a graph's notes with their colour, the most common
 * first, untyped notes last; unresolved names are not notes and are left out.
 */
export function legend(g: ModelGraph): LegendEntry[] {
  const m = new Map<string, LegendEntry>()
  g.forEachNode((_id, a) => {
    if (a.unresolved) return
    const key = a.entityType.trim().toLowerCase()
    const entry = m.get(key)
    if (entry) entry.count++
    else m.set(key, { type: key, color: a.color, count: 1 })
  })
  return [...m.values()].sort((a, b) => (a.type === '') !== (b.type === '') ? (a.type === '' ? 1 : -1) : b.count - a.count || a.type.localeCompare(b.type))
}

/**
 * neighbourhood returns the nodes within `depth` steps of `center`, following edges in
 * either direction, with their distance; `follow` (optional) says which edges count.
 * An unknown centre gives an empty map.
 */
export function neighbourhood(
  g: ModelGraph,
  center: string,
  depth: number,
  follow: (relation: string) => boolean = () => true,
): Map<string, number> {
  const dist = new Map<string, number>()
  if (!g.hasNode(center)) return dist
  dist.set(center, 0)
  let frontier = [center]
  for (let d = 1; d <= depth && frontier.length > 0; d++) {
    const next: string[] = []
    for (const node of frontier) {
      g.forEachEdge(node, (_e, a, source, target) => {
        if (!follow(a.relation)) return
        const other = source === node ? target : source
        if (dist.has(other)) return
        dist.set(other, d)
        next.push(other)
      })
    }
    frontier = next
  }
  return dist
}

/**
 * localGraph copies the part of `g` within `depth` steps of `center`: those nodes and
 * every edge between them that `follow` accepts. Nodes start on rings around the centre,
 * one ring per step, ordered by their neighbour on the ring inside so that edges cross
 * less; the layout then refines it.
 */
export function localGraph(
  g: ModelGraph,
  center: string,
  depth: number,
  follow: (relation: string) => boolean = () => true,
): ModelGraph {
  const dist = neighbourhood(g, center, depth, follow)
  const out: ModelGraph = new MultiDirectedGraph<NodeAttrs, EdgeAttrs>()
  const angle = new Map<string, number>([[center, 0]])
  const rings: string[][] = []
  for (const [id, d] of dist) (rings[d] ??= []).push(id)
  for (let d = 1; d < rings.length; d++) {
    const ring = rings[d]!
    const parentAngle = (id: string) => {
      let best = Infinity
      g.forEachNeighbor(id, (nb) => {
        if (dist.get(nb) === d - 1) best = Math.min(best, angle.get(nb) ?? Infinity)
      })
      return best
    }
    const keyed = ring.map((id) => ({ id, a: parentAngle(id) }))
    keyed.sort((x, y) => x.a - y.a || (x.id < y.id ? -1 : 1))
    keyed.forEach(({ id }, i) => angle.set(id, (i / keyed.length) * Math.PI * 2 + d * 0.3))
  }
  for (const [id, d] of dist) {
    const a = angle.get(id) ?? 0
    const r = d * 60
    out.addNode(id, { ...g.getNodeAttributes(id), x: Math.cos(a) * r, y: Math.sin(a) * r })
  }
  g.forEachEdge((key, a, source, target) => {
    if (dist.has(source) && dist.has(target) && follow(a.relation)) out.addEdgeWithKey(key, source, target, { ...a })
  })
  out.forEachNode((id) => out.setNodeAttribute(id, 'size', nodeSize(out.degree(id)) + (id === center ? 2 : 0)))
  return out
}

/** normalise folds case and width so "ada" finds "Ada" and "ＡＤＡ". */
function normalise(s: string): string {
  return s.normalize('NFKC').toLowerCase()
}

/**
 * searchNodes returns the nodes whose name or an alias contains `query` (case and
 * width folded), best first: names equal to the query, then names starting with it,
 * then the rest; notes before unresolved names; shorter names first. An empty query
 * matches nothing.
 */
export function searchNodes(g: ModelGraph, query: string): string[] {
  const q = normalise(query.trim())
  if (q === '') return []
  const hits: { id: string; rank: number; len: number }[] = []
  g.forEachNode((id, a) => {
    let rank = Infinity
    for (const name of [a.label, ...(a.aliases ?? [])]) {
      const n = normalise(name)
      const at = n.indexOf(q)
      if (at < 0) continue
      rank = Math.min(rank, n === q ? 0 : at === 0 ? 1 : 2)
    }
    if (rank === Infinity) return
    hits.push({ id, rank: rank + (a.unresolved ? 3 : 0), len: a.label.length })
  })
  hits.sort((x, y) => x.rank - y.rank || x.len - y.len || (x.id < y.id ? -1 : x.id > y.id ? 1 : 0))
  return hits.map((h) => h.id)
}

/** The number of values per node and per edge in the layout worker's arrays. */
export const LAYOUT_NODE_STRIDE = 10
export const LAYOUT_EDGE_STRIDE = 3

/**
 * layoutArrays packs a graph into the flat arrays ForceAtlas2's iteration reads (per
 * node: x, y, dx, dy, old dx, old dy, mass, convergence, size, fixed; per edge: source
 * offset, target offset, weight), in the graph's node order. Parallel edges pull once.
 */
export function layoutArrays(g: ModelGraph): { nodes: Float32Array; edges: Float32Array } {
  const nodes = new Float32Array(g.order * LAYOUT_NODE_STRIDE)
  const offset = new Map<string, number>()
  let j = 0
  g.forEachNode((id, a) => {
    offset.set(id, j)
    nodes[j] = a.x
    nodes[j + 1] = a.y
    nodes[j + 6] = 1
    nodes[j + 7] = 1
    nodes[j + 8] = a.size || 1
    j += LAYOUT_NODE_STRIDE
  })
  const pairs: number[] = []
  const seen = new Set<number>()
  g.forEachEdge((_e, _a, source, target) => {
    const s = offset.get(source)!
    const t = offset.get(target)!
    if (s === t) return
    const lo = Math.min(s, t) / LAYOUT_NODE_STRIDE
    const hi = Math.max(s, t) / LAYOUT_NODE_STRIDE
    const key = lo * g.order + hi
    if (seen.has(key)) return
    seen.add(key)
    nodes[s + 6]! += 1
    nodes[t + 6]! += 1
    pairs.push(s, t)
  })
  const edges = new Float32Array((pairs.length / 2) * LAYOUT_EDGE_STRIDE)
  for (let i = 0, k = 0; i < pairs.length; i += 2, k += LAYOUT_EDGE_STRIDE) {
    edges[k] = pairs[i]!
    edges[k + 1] = pairs[i + 1]!
    edges[k + 2] = 1
  }
  return { nodes, edges }
}

/** applyLayout writes positions from a layout array back to the graph, in one update. */
export function applyLayout(g: ModelGraph, nodes: Float32Array): void {
  let j = 0
  g.updateEachNodeAttributes(
    (_id, a) => {
      a.x = nodes[j]!
      a.y = nodes[j + 1]!
      j += LAYOUT_NODE_STRIDE
      return a
    },
    { attributes: ['x', 'y'] },
  )
}
