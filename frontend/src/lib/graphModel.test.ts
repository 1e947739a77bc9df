import { expect, test } from 'vitest'
import type { GraphData } from '../api/types'
import { UNRESOLVED_COLOR, UNTYPED_COLOR, colorForType, typeColors } from './colors'
import {
  addEdges,
  addEdgesInSlices,
  applyLayout,
  buildGraph,
  edgeTypes,
  LAYOUT_EDGE_STRIDE,
  LAYOUT_NODE_STRIDE,
  layoutArrays,
  legend,
  localGraph,
  neighbourhood,
  nodeSize,
  payloadRelationCounts,
  positionsOf,
  relationCounts,
  sameNodes,
  searchNodes,
  seedPosition,
} from './graphModel'

interface Node {
  id: string
  label: string
  type: string
  unresolved?: boolean
  aliases?: string[]
}

/** compact packs readable nodes and edges the way backend/uiapi/graph.go does. */
function compact(nodes: Node[], edges: [string, string, string][]): GraphData {
  const types = ['']
  const relations: string[] = []
  const idx = (list: string[], s: string) => (list.includes(s) ? list.indexOf(s) : list.push(s) - 1)
  const ids = nodes.map((n) => n.id)
  const aliases: Record<string, string[]> = {}
  nodes.forEach((n, i) => {
    if (n.aliases) aliases[String(i)] = n.aliases
  })
  return {
    nodes: ids,
    labels: nodes.map((n) => n.label),
    types,
    node_types: nodes.map((n) => idx(types, n.type)),
    library: 'v',
    first_unresolved: nodes.findIndex((n) => n.unresolved) < 0 ? nodes.length : nodes.findIndex((n) => n.unresolved),
    relations,
    edges: edges.flatMap(([s, t, r]) => [ids.indexOf(s), ids.indexOf(t), idx(relations, r)]),
    aliases,
  }
}

const data = compact(
  [
    { id: 'people/Ada.md', label: 'Ada', type: 'person', aliases: ['Countess of Lovelace'] },
    { id: 'people/Charles.md', label: 'Charles', type: 'person' },
    { id: 'ideas/Engine.md', label: 'Engine', type: '' },
    { id: 'unresolved:Ghost', label: 'Ghost', type: '', unresolved: true },
  ],
  [
    ['people/Ada.md', 'people/Charles.md', 'collaborator of'],
    ['people/Ada.md', 'people/Charles.md', 'links to'],
    ['people/Charles.md', 'ideas/Engine.md', 'embeds'],
    ['ideas/Engine.md', 'unresolved:Ghost', 'links to'],
    ['ideas/Engine.md', 'nowhere', 'links to'],
  ],
)

test('nodes are coloured by type, edges keep their relation, dangling edges are dropped', () => {
  const g = buildGraph(data)
  expect(g.order).toBe(4)
  expect(g.size).toBe(4)
  expect(g.getNodeAttribute('people/Ada.md', 'color')).toBe(colorForType('person'))
  expect(g.getNodeAttribute('ideas/Engine.md', 'color')).toBe(UNTYPED_COLOR)
  expect(g.getNodeAttribute('unresolved:Ghost', 'color')).toBe(UNRESOLVED_COLOR)
  expect(g.getNodeAttribute('unresolved:Ghost', 'unresolved')).toBe(true)
  expect(g.getNodeAttribute('people/Ada.md', 'aliases')).toEqual(['Countess of Lovelace'])
  expect(edgeTypes(g)).toEqual(['collaborator of', 'embeds', 'links to'])
  expect(g.getNodeAttribute('people/Ada.md', 'size')).toBe(nodeSize(2))
})

test('typed relations carry their type as the edge label; links and embeds carry none', () => {
  const g = buildGraph(data)
  const labels = g.mapEdges((_e, a) => `${a.relation}=${a.label ?? '-'}`).sort()
  expect(labels).toEqual(['collaborator of=collaborator of', 'embeds=-', 'links to=-', 'links to=-'])
})

test('relation types are counted, plain links first', () => {
  expect(relationCounts(buildGraph(data))).toEqual([
    { relation: 'links to', count: 2 },
    { relation: 'embeds', count: 1 },
    { relation: 'collaborator of', count: 1 },
  ])
})

test('the payload counts relations as the graph does, before its edges are in', () => {
  expect(payloadRelationCounts(data)).toEqual(relationCounts(buildGraph(data)))
  // Edges naming no node are skipped by both.
  const bad: GraphData = { ...data, edges: [...Array.from(data.edges), 0, 99, 0, -1, 0, 0] }
  expect(payloadRelationCounts(bad)).toEqual(relationCounts(buildGraph(bad)))
})

test('the legend lists the entity types of notes, commonest first, untyped last', () => {
  expect(legend(buildGraph(data))).toEqual([
    { type: 'person', color: colorForType('person'), count: 2 },
    { type: '', color: UNTYPED_COLOR, count: 1 },
  ])
})

test('positions are deterministic and carried over', () => {
  expect(seedPosition('x')).toEqual(seedPosition('x'))
  const g1 = buildGraph(data)
  g1.setNodeAttribute('people/Ada.md', 'x', 42)
  const g2 = buildGraph(data, positionsOf(g1))
  expect(g2.getNodeAttribute('people/Ada.md', 'x')).toBe(42)
  expect(sameNodes(g1, g2)).toBe(true)
  const fewer = compact([{ id: 'people/Ada.md', label: 'Ada', type: 'person' }], [])
  expect(sameNodes(g1, buildGraph(fewer))).toBe(false)
  expect(sameNodes(g1, buildGraph({ ...data, edges: [] }))).toBe(true)
})

test('a new node starts next to a neighbour that already had a place', () => {
  const before = new Map([['people/Ada.md', { x: 500, y: -500 }]])
  const g = buildGraph(data, before)
  const c = g.getNodeAttributes('people/Charles.md')
  expect(Math.hypot(c.x - 500, c.y + 500)).toBeLessThan(10)
})

test('an empty graph', () => {
  expect(buildGraph(compact([], [])).order).toBe(0)
})

// A chain a - b - c - d - e with a typed side branch b -> x and an isolated node z.
const chain = buildGraph(
  compact(
    ['a', 'b', 'c', 'd', 'e', 'x', 'z'].map((id) => ({ id, label: id.toUpperCase(), type: '' })),
    [
      ['a', 'b', 'links to'],
      ['c', 'b', 'links to'],
      ['c', 'd', 'links to'],
      ['d', 'e', 'links to'],
      ['b', 'x', 'part of'],
    ],
  ),
)

test('the neighbourhood grows with the depth and follows edges both ways', () => {
  const at = (d: number) => [...neighbourhood(chain, 'c', d).keys()].sort()
  expect(at(0)).toEqual(['c'])
  expect(at(1)).toEqual(['b', 'c', 'd'])
  expect(at(2)).toEqual(['a', 'b', 'c', 'd', 'e', 'x'])
  expect(neighbourhood(chain, 'c', 2).get('x')).toBe(2)
  expect(at(3)).toEqual(at(2))
  expect(neighbourhood(chain, 'nope', 2).size).toBe(0)
})

test('the neighbourhood follows only the relations the filter lets through', () => {
  const hiddenPartOf = (r: string) => r !== 'part of'
  expect([...neighbourhood(chain, 'a', 3, hiddenPartOf).keys()].sort()).toEqual(['a', 'b', 'c', 'd'])
})

test('a local graph copies the nodes within reach and the edges between them, on rings', () => {
  const g = localGraph(chain, 'c', 1)
  expect(g.nodes().sort()).toEqual(['b', 'c', 'd'])
  expect(g.size).toBe(2)
  expect(g.getNodeAttribute('b', 'label')).toBe('B')
  const c = g.getNodeAttributes('c')
  expect(Math.hypot(c.x, c.y)).toBe(0)
  const b = g.getNodeAttributes('b')
  expect(Math.round(Math.hypot(b.x, b.y))).toBe(60)
  const g2 = localGraph(chain, 'c', 2)
  const x = g2.getNodeAttributes('x')
  expect(Math.round(Math.hypot(x.x, x.y))).toBe(120)
  expect(g2.size).toBe(5)
  // The whole graph is not touched.
  expect(chain.getNodeAttribute('c', 'x')).not.toBe(0)
  const filtered = localGraph(chain, 'b', 1, (r) => r !== 'part of')
  expect(filtered.nodes().sort()).toEqual(['a', 'b', 'c'])
  expect(filtered.someEdge((_e, a) => a.relation === 'part of')).toBe(false)
})

test('search matches names and aliases, best first, case and width folded', () => {
  const g = buildGraph(
    compact(
      [
        { id: 'Adalbert.md', label: 'Adalbert', type: '' },
        { id: 'Ada.md', label: 'Ada', type: '' },
        { id: 'Grenada.md', label: 'Grenada', type: '' },
        { id: 'Lovelace.md', label: 'Lovelace', type: '', aliases: ['Ada King'] },
        { id: 'unresolved:ada', label: 'ada', type: '', unresolved: true },
        { id: '二进制.md', label: '二进制', type: '' },
      ],
      [],
    ),
  )
  expect(searchNodes(g, 'ADA')).toEqual(['Ada.md', 'Adalbert.md', 'Lovelace.md', 'Grenada.md', 'unresolved:ada'])
  expect(searchNodes(g, 'ＫＩＮＧ')).toEqual(['Lovelace.md'])
  expect(searchNodes(g, '进制')).toEqual(['二进制.md'])
  expect(searchNodes(g, '  ')).toEqual([])
  expect(searchNodes(g, 'zzz')).toEqual([])
})

test('the layout arrays hold one pull per linked pair and come back to the graph', () => {
  const { nodes, edges } = layoutArrays(buildGraph(data))
  expect(nodes.length).toBe(4 * LAYOUT_NODE_STRIDE)
  // Ada-Charles twice (a relation and a link) pulls once; Charles-Engine; Engine-Ghost.
  expect(edges.length).toBe(3 * LAYOUT_EDGE_STRIDE)
  // Mass is 1 + the number of distinct neighbours: Charles has Ada and Engine.
  const g = buildGraph(data)
  const order = g.nodes()
  expect(nodes[order.indexOf('people/Charles.md') * LAYOUT_NODE_STRIDE + 6]).toBe(3)
  const moved = nodes.slice()
  moved[0] = 7
  moved[1] = -7
  applyLayout(g, moved)
  expect(g.getNodeAttributes(order[0]!)).toMatchObject({ x: 7, y: -7 })
})

test('every entity type present gets its own colour; well-known types keep theirs', () => {
  // "memory" and "manual" hash onto the colours of person and project.
  const types = ['person', 'memory', 'manual', 'project', 'Concept', '']
  const c = typeColors(types)
  expect(c.get('person')).toBe(colorForType('person'))
  expect(c.get('project')).toBe(colorForType('project'))
  expect(c.get('concept')).toBe(colorForType('concept'))
  expect(c.get('')).toBe(UNTYPED_COLOR)
  expect(new Set(c.values()).size).toBe(c.size)
  expect(typeColors([...types].reverse())).toEqual(c)
  const many = typeColors(Array.from({ length: 30 }, (_, i) => `kind ${i}`))
  expect(new Set(many.values()).size).toBe(31)
  const g = buildGraph(compact([{ id: 'm.md', label: 'm', type: 'Memory' }, { id: 'p.md', label: 'p', type: 'person' }], []))
  expect(g.getNodeAttribute('m.md', 'color')).toBe(typeColors(['Memory', 'person']).get('memory'))
  expect(g.getNodeAttribute('m.md', 'color')).not.toBe(g.getNodeAttribute('p.md', 'color'))
})

test('a big graph built in two steps (nodes, then addEdges) has every edge, neighbours in order, nothing else', () => {
  // Enough edges for addEdges to switch the adjacency objects to hash tables first.
  const nodes: Node[] = Array.from({ length: 400 }, (_, i) => ({ id: `n/${i}.md`, label: String(i), type: i % 3 ? '' : 'person' }))
  const edges: [string, string, string][] = []
  for (let i = 0; i < 8000; i++) edges.push([`n/${(i * 7) % 400}.md`, `n/${(i * 13 + 1) % 400}.md`, i % 5 ? 'links to' : 'knows'])
  const data = compact(nodes, edges)
  const g = buildGraph(data, new Map(), { edges: false })
  expect(g.size).toBe(0)
  addEdges(g, data)
  expect(g.order).toBe(400)
  expect(g.size).toBe(8000)
  // Out-neighbours in the order their first edge came, as graphology keeps them.
  const want = new Map<string, string[]>()
  for (const [s, t] of edges) {
    const l = want.get(s) ?? []
    if (!l.includes(t)) l.push(t)
    want.set(s, l)
  }
  for (const [s, ts] of want) expect(g.outNeighbors(s)).toEqual(ts)
  const all = new Set(g.nodes())
  g.forEachNode((n) => {
    for (const m of g.neighbors(n)) expect(all.has(m)).toBe(true)
  })
  expect(g.hasEdge('n/0.md', 'n/1.md')).toBe(true)
  expect(payloadRelationCounts(data)).toEqual(relationCounts(g))
  expect(relationCounts(g)).toEqual([
    { relation: 'links to', count: 6400 },
    { relation: 'knows', count: 1600 },
  ])
  // The same graph as one built in a single step.
  const once = buildGraph(data)
  expect(g.edges().map((e) => [g.source(e), g.target(e), g.getEdgeAttribute(e, 'relation')])).toEqual(
    once.edges().map((e) => [once.source(e), once.target(e), once.getEdgeAttribute(e, 'relation')]),
  )
})

test('the edges added in slices, the thread given back between them, make the same graph; a stop ends it early', async () => {
  const nodes: Node[] = Array.from({ length: 300 }, (_, i) => ({ id: `n/${i}.md`, label: String(i), type: '' }))
  const edges: [string, string, string][] = []
  for (let i = 0; i < 6000; i++) edges.push([`n/${(i * 7) % 300}.md`, `n/${(i * 11 + 1) % 300}.md`, i % 4 ? 'links to' : 'knows'])
  const data = compact(nodes, edges)
  const once = buildGraph(data)
  const g = buildGraph(data, new Map(), { edges: false })
  let given = 0
  const done = await addEdgesInSlices(g, data, new Map(), () => false, 0, async () => void given++)
  expect(done).toBe(true)
  // With no time to spend per slice, the thread is given back at every step.
  expect(given).toBeGreaterThanOrEqual(5)
  expect(g.edges().map((e) => [g.source(e), g.target(e), g.getEdgeAttribute(e, 'relation')])).toEqual(
    once.edges().map((e) => [once.source(e), once.target(e), once.getEdgeAttribute(e, 'relation')]),
  )
  // Stopped after the first slice: false, and part of the edges only.
  const h = buildGraph(data, new Map(), { edges: false })
  let steps = 0
  expect(await addEdgesInSlices(h, data, new Map(), () => ++steps >= 1, 0, async () => {})).toBe(false)
  expect(h.size).toBeGreaterThan(0)
  expect(h.size).toBeLessThan(6000)
})
