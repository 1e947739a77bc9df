// The graph view's model: a graphology graph built from the backend's compact
// GraphData, with colours by entity type, sizes by degree, and positions kept across
// refreshes; the local graph around a note; the flat arrays the layout worker reads.
import { MultiDirectedGraph } from 'graphology'
import type { GraphData } from '../api/types'
import { hashString, typeColors, UNRESOLVED_COLOR, UNTYPED_COLOR } from './colors'
import type { Query } from './graphQuery'

/** What a node stands for: a note, an attachment, a name no file has, a tag. */
export type NodeKind = 'note' | 'attachment' | 'unresolved' | 'tag'

export interface NodeAttrs {
  label: string
  entityType: string
  unresolved: boolean
  kind: NodeKind
  /** The note's tags, without "#". */
  tags?: string[]
  x: number
  y: number
  size: number
  color: string
  /** Other names of the note, for the search box. */
  aliases?: string[]
  /** A note a change set removed, shown as a ghost (see graphDiff). */
  ghost?: boolean
}

export interface EdgeAttrs {
  relation: string
  size: number
  color: string
  /** The relation shown on the edge when zoomed in (typed relations only). */
  label?: string
  /** An edge a change set removed, shown as a ghost (see graphDiff). */
  ghost?: boolean
}

export type ModelGraph = MultiDirectedGraph<NodeAttrs, EdgeAttrs>

/** The relation type of a body [[wikilink]]. */
export const LINKS_TO = 'links to'
/** The relation type of a body ![[embed]]. */
export const EMBEDS = 'embeds'

/** Edge colours: typed relations a little stronger than plain links. */
export const EDGE_TYPED = 'rgba(128, 136, 155, 0.55)'
export const EDGE_LINK = 'rgba(128, 136, 155, 0.3)'

/** The relation of a note to a tag, when tags are nodes. */
export const TAGGED = 'tagged'

/** isTypedRelation tells a front matter relation from a body link, an embed or a tag. */
export function isTypedRelation(type: string): boolean {
  return type !== LINKS_TO && type !== EMBEDS && type !== TAGGED
}

/**
 * Which nodes the graph is built with, as Obsidian's filters say: unresolved names,
 * attachments, orphans (nodes with no edge left), tags as nodes, and a search that
 * notes must match (other nodes stay when a kept note links to them).
 */
export interface GraphFilter {
  unresolved: boolean
  attachments: boolean
  orphans: boolean
  tags: boolean
  search: Query | null
}

/** Every node, as the payload has them (and no tag nodes). */
export const SHOW_ALL: GraphFilter = { unresolved: true, attachments: true, orphans: true, tags: false, search: null }

/** kindOf tells what node i of the payload is. */
export function kindOf(data: GraphData, i: number): NodeKind {
  if (i >= data.first_unresolved) return 'unresolved'
  return i >= (data.first_attachment ?? data.first_unresolved) ? 'attachment' : 'note'
}

/** tagsByNode lists the tags of each note of the payload, by node index. */
export function tagsByNode(data: GraphData): Map<number, string[]> {
  const out = new Map<number, string[]>()
  const pairs = data.note_tags ?? []
  const names = data.tags ?? []
  for (let i = 0; i + 1 < pairs.length; i += 2) {
    const tag = names[pairs[i + 1]!]
    if (tag === undefined) continue
    const list = out.get(pairs[i]!)
    if (list) list.push(tag)
    else out.set(pairs[i]!, [tag])
  }
  return out
}

/**
 * keptNodes applies a filter to the payload's nodes: which are kept, by index. A
 * search keeps the notes it matches and what they link to; orphans are nodes left
 * without an edge (a note with tags is not one when tags are nodes).
 */
export function keptNodes(data: GraphData, filter: GraphFilter, tags: Map<number, string[]>): Uint8Array {
  const n = data.nodes.length
  const keep = new Uint8Array(n)
  const kindOk = (i: number) => {
    const k = kindOf(data, i)
    return k === 'note' || (k === 'unresolved' ? filter.unresolved : filter.attachments)
  }
  const matches = (i: number) =>
    filter.search === null ||
    filter.search.match({ path: data.nodes[i]!, label: data.labels[i] ?? '', aliases: data.aliases[String(i)], tags: tags.get(i), entityType: data.types[data.node_types[i] ?? 0] })
  for (let i = 0; i < n; i++) if (kindOf(data, i) === 'note' && matches(i)) keep[i] = 1
  const e = data.edges
  const valid = (i: number) => Number.isInteger(i) && i >= 0 && i < n
  // Attachments and unresolved names stay when a kept note links to them.
  for (let k = 0; k + 2 < e.length; k += 3) {
    const s = e[k]!
    const t = e[k + 1]!
    if (!valid(s) || !valid(t)) continue
    if (keep[s] === 1 && !keep[t] && kindOf(data, t) !== 'note' && kindOk(t)) keep[t] = 2
  }
  if (!filter.orphans) {
    const linked = new Uint8Array(n)
    for (let k = 0; k + 2 < e.length; k += 3) {
      const s = e[k]!
      const t = e[k + 1]!
      if (!valid(s) || !valid(t) || s === t || !keep[s] || !keep[t]) continue
      linked[s] = linked[t] = 1
    }
    if (filter.tags) for (const i of tags.keys()) linked[i] = 1
    for (let i = 0; i < n; i++) if (!linked[i]) keep[i] = 0
  }
  return keep
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
 * buildGraph turns GraphData into a graph of the nodes `filter` keeps; known nodes
 * keep their `previous` positions. Edges get their index in data.edges as key (a
 * note's edge to a tag node, "tag:<n>"). With `edges: false` only the nodes are added
 * (sized by their degree all the same), for a first, quick drawing; addEdges
 * completes such a graph.
 */
export function buildGraph(
  data: GraphData,
  previous: Positions = new Map(),
  { edges: withEdges = true, filter = SHOW_ALL }: { edges?: boolean; filter?: GraphFilter } = {},
): ModelGraph {
  const g: ModelGraph = new MultiDirectedGraph<NodeAttrs, EdgeAttrs>()
  const n = data.nodes.length
  const tags = tagsByNode(data)
  const keep = filter === SHOW_ALL ? null : keptNodes(data, filter, tags)
  const kept = (i: number) => keep === null || keep[i] !== 0
  const degree = new Uint32Array(n)
  const e = data.edges
  const valid = (i: number) => Number.isInteger(i) && i >= 0 && i < n
  for (let i = 0; i + 2 < e.length; i += 3) {
    const s = e[i]!
    const t = e[i + 1]!
    if (!valid(s) || !valid(t) || !kept(s) || !kept(t)) continue
    degree[s]!++
    degree[t]!++
  }
  // Nodes spread over a disc that grows with their number, so that density and the
  // layout's work stay about the same from 10 to 10,000 notes.
  const radius = 20 * Math.sqrt(Math.max(n, 10))
  const colors = typeColors(data.types)
  const tagCount = new Map<string, number>()
  if (filter.tags) for (const [i, list] of tags) if (kept(i)) for (const t of list) tagCount.set(t, (tagCount.get(t) ?? 0) + 1)
  const order = (keep === null ? n : keep.reduce((a, k) => a + (k ? 1 : 0), 0)) + tagCount.size
  for (let i = 0; i < n; i++) {
    if (!kept(i)) continue
    const id = data.nodes[i]!
    if (g.hasNode(id)) continue
    const kind = kindOf(data, i)
    const type = data.types[data.node_types[i] ?? 0] ?? ''
    const pos = previous.get(id) ?? seedPosition(id, radius)
    const attrs: NodeAttrs = {
      label: data.labels[i] ?? id,
      entityType: type,
      unresolved: kind === 'unresolved',
      kind,
      x: pos.x,
      y: pos.y,
      size: nodeSize(degree[i]! + (filter.tags ? (tags.get(i)?.length ?? 0) : 0), order),
      color: kind === 'note' ? (colors.get(type.trim().toLowerCase()) ?? UNTYPED_COLOR) : UNRESOLVED_COLOR,
    }
    const aliases = data.aliases[String(i)]
    if (aliases && aliases.length > 0) attrs.aliases = aliases
    const own = tags.get(i)
    if (own) attrs.tags = own
    g.addNode(id, attrs)
  }
  for (const [tag, count] of tagCount) {
    const id = `tag:#${tag}`
    const pos = previous.get(id) ?? seedPosition(id, radius)
    g.addNode(id, { label: `#${tag}`, entityType: '', unresolved: false, kind: 'tag', x: pos.x, y: pos.y, size: nodeSize(count, order), color: TAG_COLOR })
  }
  if (withEdges) addEdges(g, data, previous)
  return g
}

/** The colour of tag nodes. */
export const TAG_COLOR = '#7fae5b'

/**
 * addEdges adds the edges of data between the graph's nodes to a graph built from it
 * with `edges: false` (and a note's edges to the tag nodes the graph has), and places
 * its new nodes next to a neighbour (which they had none of before).
 */
export function addEdges(g: ModelGraph, data: GraphData, previous: Positions = new Map()): void {
  for (const _ of edgeWork(g, data, previous));
}

/**
 * addEdgesInSlices does what addEdges does, in slices of about `sliceMs` with the
 * window's thread given back in between (a click, an answer, a frame), so that a big
 * graph's edges (a second of work for 100k of them) do not hold the window. It stops
 * and returns false as soon as `stop` says so after a slice; true once every edge is in.
 */
export async function addEdgesInSlices(
  g: ModelGraph,
  data: GraphData,
  previous: Positions,
  stop: () => boolean,
  sliceMs = 25,
  giveBack: () => Promise<void> = yieldToWindow,
): Promise<boolean> {
  let start = performance.now()
  for (const _ of edgeWork(g, data, previous)) {
    if (performance.now() - start < sliceMs) continue
    await giveBack()
    if (stop()) return false
    start = performance.now()
  }
  return true
}

/** yieldToWindow lets the window's thread run what waits (input first), then resumes. */
function yieldToWindow(): Promise<void> {
  const scheduler = (globalThis as { scheduler?: { yield?: () => Promise<void> } }).scheduler
  if (scheduler?.yield) return scheduler.yield()
  return new Promise((resolve) => setTimeout(resolve, 0))
}

/** How many edges edgeWork adds between two of its steps. */
const EDGES_PER_STEP = 1024

/**
 * edgeWork adds the edges of data to g (see addEdges), pausing every EDGES_PER_STEP
 * edges: the caller decides whether to go on at once or later.
 */
function* edgeWork(g: ModelGraph, data: GraphData, previous: Positions): Generator<void, void, void> {
  const n = data.nodes.length
  const e = data.edges
  if (e.length / 3 > MANY_EDGES) hashedAdjacency(g)
  const valid = (i: number) => Number.isInteger(i) && i >= 0 && i < n
  for (let i = 0; i + 2 < e.length; i += 3) {
    if (i % (3 * EDGES_PER_STEP) === 0 && i > 0) yield
    const s = e[i]!
    const t = e[i + 1]!
    if (!valid(s) || !valid(t)) continue
    const from = data.nodes[s]!
    const to = data.nodes[t]!
    if (!g.hasNode(from) || !g.hasNode(to)) continue
    const relation = data.relations[e[i + 2]!] ?? LINKS_TO
    const typed = isTypedRelation(relation)
    const attrs: EdgeAttrs = { relation, size: typed ? 1 : 0.6, color: typed ? EDGE_TYPED : EDGE_LINK }
    if (typed) attrs.label = relation
    g.addEdgeWithKey(String(i / 3), from, to, attrs)
  }
  const pairs = data.note_tags ?? []
  const names = data.tags ?? []
  for (let i = 0; i + 1 < pairs.length; i += 2) {
    if (i % (2 * EDGES_PER_STEP) === 0) yield
    const from = data.nodes[pairs[i]!]
    const tag = `tag:#${names[pairs[i + 1]!]}`
    if (from === undefined || !g.hasNode(tag) || !g.hasNode(from)) continue
    g.addEdgeWithKey(`tag:${i / 2}`, from, tag, { relation: TAGGED, size: 0.6, color: EDGE_LINK })
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
