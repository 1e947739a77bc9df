import { expect, test } from 'vitest'
import type { GraphData } from '../api/types'
import { UNRESOLVED_COLOR, colorForType } from './colors'
import { buildGraph, edgeTypes, nodeSize, positionsOf, sameNodes, seedPosition } from './graphModel'

const data: GraphData = {
  nodes: [
    { id: 'people/Ada.md', label: 'Ada', type: 'person', unresolved: false },
    { id: 'people/Charles.md', label: 'Charles', type: 'person', unresolved: false },
    { id: 'ideas/Engine.md', label: 'Engine', type: '', unresolved: false },
    { id: 'unresolved:Ghost', label: 'Ghost', type: '', unresolved: true },
  ],
  edges: [
    { source: 'people/Ada.md', target: 'people/Charles.md', type: 'collaborator of' },
    { source: 'people/Ada.md', target: 'people/Charles.md', type: 'links to' },
    { source: 'people/Charles.md', target: 'ideas/Engine.md', type: 'embeds' },
    { source: 'ideas/Engine.md', target: 'unresolved:Ghost', type: 'links to' },
    { source: 'ideas/Engine.md', target: 'nowhere', type: 'links to' },
  ],
}

test('nodes are coloured by type, edges keep their relation, dangling edges are dropped', () => {
  const g = buildGraph(data)
  expect(g.order).toBe(4)
  expect(g.size).toBe(4)
  expect(g.getNodeAttribute('people/Ada.md', 'color')).toBe(colorForType('person'))
  expect(g.getNodeAttribute('unresolved:Ghost', 'color')).toBe(UNRESOLVED_COLOR)
  expect(edgeTypes(g)).toEqual(['collaborator of', 'embeds', 'links to'])
  expect(g.getNodeAttribute('people/Ada.md', 'size')).toBe(nodeSize(2))
})

test('positions are deterministic and carried over', () => {
  expect(seedPosition('x')).toEqual(seedPosition('x'))
  const g1 = buildGraph(data)
  g1.setNodeAttribute('people/Ada.md', 'x', 42)
  const g2 = buildGraph(data, positionsOf(g1))
  expect(g2.getNodeAttribute('people/Ada.md', 'x')).toBe(42)
  expect(sameNodes(g1, g2)).toBe(true)
  const g3 = buildGraph({ ...data, nodes: data.nodes.slice(1) })
  expect(sameNodes(g1, g3)).toBe(false)
  expect(sameNodes(g1, buildGraph({ ...data, edges: [] }))).toBe(true)
})

test('a new node starts next to a neighbour that already had a place', () => {
  const before = new Map([['people/Ada.md', { x: 500, y: -500 }]])
  const g = buildGraph(data, before)
  const c = g.getNodeAttributes('people/Charles.md')
  expect(Math.hypot(c.x - 500, c.y + 500)).toBeLessThan(10)
})

test('an empty graph', () => {
  expect(buildGraph({ nodes: [], edges: [] }).order).toBe(0)
})
