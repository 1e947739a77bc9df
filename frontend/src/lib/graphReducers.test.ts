import { expect, test } from 'vitest'
import type { GraphData } from '../api/types'
import { buildGraph, type EdgeAttrs, type NodeAttrs } from './graphModel'
import { bulkStyle, hiddenByGroup, reduceEdge, reduceNode, type ReducerState } from './graphReducers'
import type { GraphTheme } from './graphTheme'
import { graphViewSettings } from './testdata'

// A links to B (links to) and to C (a typed relation, "cites"); D stands alone.
const data: GraphData = {
  library: 'v',
  nodes: ['A.md', 'B.md', 'C.md', 'D.md'],
  labels: ['A', 'B', 'C', 'D'],
  types: [''],
  node_types: [0, 0, 0, 0],
  first_unresolved: 4,
  relations: ['links to', 'cites'],
  edges: [0, 1, 0, 0, 2, 1],
  aliases: {},
}

const theme: GraphTheme = {
  label: 'label',
  hoverBg: 'hoverBg',
  hoverText: 'hoverText',
  faded: 'faded',
  accent: 'accent',
  edge: 'edge',
  edgeTyped: 'edgeTyped',
  pending: 'pending',
  added: 'added',
  removed: 'removed',
}

function state(patch: Partial<ReducerState> = {}): ReducerState {
  const shown = buildGraph(data)
  return {
    theme,
    view: graphViewSettings(),
    thin: false,
    diff: null,
    marked: new Map(),
    matches: null,
    current: null,
    hovered: null,
    shown,
    hidden: new Set(),
    groups: [],
    groupOf: new Map(),
    hiddenGroups: new Set(),
    ...patch,
  }
}

/** node reduces a copy of a node's attributes, as sigma passes them. */
function node(s: ReducerState, id: string) {
  return reduceNode(s, id, { ...s.shown!.getNodeAttributes(id) } as NodeAttrs)
}

function edge(s: ReducerState, from: string, to: string) {
  const e = s.shown!.edges(from, to)[0]!
  return reduceEdge(s, e, { ...s.shown!.getEdgeAttributes(e) } as EdgeAttrs)
}

test('the open note is highlighted, labelled, larger and on top; its edges take the accent', () => {
  const s = state({ current: 'A.md' })
  const size = s.shown!.getNodeAttribute('A.md', 'size')
  expect(node(s, 'A.md')).toMatchObject({ highlighted: true, forceLabel: true, size: size * 1.5, zIndex: 3 })
  expect(node(s, 'B.md').highlighted).toBeUndefined()
  expect(edge(s, 'A.md', 'B.md').color).toBe('accent')
})

test('the settings size nodes and edges; arrows are drawn only when asked, and a big graph is thin', () => {
  const s = state({ view: graphViewSettings({ node_size: 2, link_thickness: 3, show_arrows: true }) })
  const a = s.shown!.getNodeAttributes('B.md')
  expect(node(s, 'B.md').size).toBe(a.size * 2)
  const e = edge(s, 'A.md', 'B.md')
  expect(e.size).toBe(s.shown!.getEdgeAttribute(s.shown!.edges('A.md', 'B.md')[0]!, 'size') * 3)
  expect(e.type).toBe('arrow')
  expect(edge(state(), 'A.md', 'B.md').type).toBeUndefined()
  const thin = state({ thin: true, view: graphViewSettings({ show_arrows: true }) })
  expect(edge(thin, 'A.md', 'B.md').type).toBe('thin')
  expect(node(thin, 'A.md').type).toBe('dot')
})

test('typed relations, hidden relations and the search', () => {
  expect(edge(state(), 'A.md', 'C.md').color).toBe('edgeTyped')
  expect(edge(state(), 'A.md', 'B.md').color).toBe('edge')
  expect(edge(state({ hidden: new Set(['cites']) }), 'A.md', 'C.md').hidden).toBe(true)
  const s = state({ matches: new Set(['B.md']) })
  expect(node(s, 'B.md')).toMatchObject({ highlighted: true, forceLabel: true, zIndex: 2 })
  expect(node(s, 'D.md')).toMatchObject({ color: 'faded', label: '', zIndex: 0 })
  expect(edge(s, 'A.md', 'B.md').hidden).toBeUndefined()
  expect(edge(s, 'A.md', 'C.md').hidden).toBe(true)
})

test('hovering fades what is not a neighbour and hides the other edges', () => {
  const s = state({ hovered: 'B.md' })
  expect(node(s, 'B.md').highlighted).toBe(true)
  expect(node(s, 'A.md').color).not.toBe('faded')
  expect(node(s, 'C.md')).toMatchObject({ color: 'faded', label: '' })
  expect(edge(s, 'A.md', 'C.md').hidden).toBe(true)
})

test('pending notes are marked; a group the legend hides hides its nodes and their edges', () => {
  expect(node(state({ marked: new Map([['D.md', 'modified']]) }), 'D.md')).toMatchObject({ color: 'pending', forceLabel: true })
  const s = state({ groups: [{ query: 'path:A', color: '#111111', count: 1 } as never], groupOf: new Map([['A.md', 0]]), hiddenGroups: new Set(['path:A']) })
  expect(hiddenByGroup(s, 'A.md')).toBe(true)
  expect(hiddenByGroup(s, 'B.md')).toBe(false)
  expect(node(s, 'A.md').hidden).toBe(true)
  expect(edge(s, 'A.md', 'B.md').hidden).toBe(true)
})

test('a change set shown as a diff: added green, removed and ghosts red, changed labelled, the rest faded', () => {
  const s = state({
    current: 'D.md',
    diff: { addedNodes: new Set(['B.md']), removedNodes: new Set(['C.md']), changedNodes: new Set(['A.md']), addedEdges: new Set(), removedEdges: [] } as never,
  })
  expect(node(s, 'B.md')).toMatchObject({ color: 'added', forceLabel: true, zIndex: 2 })
  expect(node(s, 'C.md')).toMatchObject({ color: 'removed', zIndex: 1 })
  expect(node(s, 'A.md')).toMatchObject({ forceLabel: true, zIndex: 2 })
  expect(node(s, 'D.md')).toMatchObject({ color: 'faded', highlighted: true })
  expect(edge(s, 'A.md', 'B.md').color).toBe('faded')
})

test('the bulk edges are styled as the edge reducer draws a big graph’s', () => {
  const s = state({ hidden: new Set(['cites']), current: 'A.md', matches: new Set(['B.md']) })
  const style = bulkStyle(s)
  expect([style.relationColor('links to'), style.relationColor('cites'), style.relationColor('tagged')]).toEqual(['edge', null, 'edge'])
  expect(style.relationColor('mentors')).toBe('edgeTyped')
  expect([style.focus, style.accent, style.only]).toEqual(['A.md', 'accent', s.matches])
})
