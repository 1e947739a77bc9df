import { expect, test } from 'vitest'
import { BulkEdges, bulkLines, type BulkEdgeData, type BulkEdgeStyle } from './graphBulkEdges'

const data: BulkEdgeData = {
  nodes: ['a.md', 'b.md', 'c.md', 'unresolved:d'],
  // a→b links, b→c knows, c→d links, then two edges naming no node and one with an
  // unknown relation (a plain link).
  edges: new Int32Array([0, 1, 0, 1, 2, 1, 2, 3, 0, 0, 9, 0, -1, 1, 0, 3, 0, 7]),
  relations: ['links to', 'knows'],
}
const at: Record<string, { x: number; y: number; hidden?: boolean }> = {
  'a.md': { x: 0, y: 0 },
  'b.md': { x: 1, y: 0 },
  'c.md': { x: 1, y: 1 },
  'unresolved:d': { x: 0, y: 1 },
}
const RGBA: Record<string, [number, number, number, number]> = {
  link: [9, 9, 9, 128],
  typed: [1, 2, 3, 255],
  accent: [200, 0, 0, 255],
}
const rgba = (c: string) => RGBA[c]!
const plain: BulkEdgeStyle = { relationColor: (r) => (r === 'links to' ? 'link' : 'typed'), only: null, focus: null, accent: 'accent' }
/** The colour of each line, by its first vertex. */
const colours = (c: Uint8Array) => Array.from({ length: c.length / 8 }, (_v, i) => [...c.subarray(i * 8, i * 8 + 4)].join(','))

test('every edge naming two placed nodes becomes a line with its colour', () => {
  const l = bulkLines(data, (id) => at[id], plain, rgba)
  expect(l.count).toBe(4)
  expect([...l.positions]).toEqual([0, 0, 1, 0, 1, 0, 1, 1, 1, 1, 0, 1, 0, 1, 0, 0])
  expect([...l.colors.subarray(0, 8)]).toEqual([9, 9, 9, 128, 9, 9, 9, 128])
  expect(colours(l.colors)).toEqual(['9,9,9,128', '1,2,3,255', '9,9,9,128', '9,9,9,128'])
})

test('hidden relations, a search and the open note apply as in the graph', () => {
  const noKnows = bulkLines(data, (id) => at[id], { ...plain, relationColor: (r) => (r === 'knows' ? null : 'link') }, rgba)
  expect(noKnows.count).toBe(3)
  const noLinks = bulkLines(data, (id) => at[id], { ...plain, relationColor: (r) => (r === 'links to' ? null : 'typed') }, rgba)
  expect(noLinks.count).toBe(1)
  // A search for c: only the edges touching c.
  const search = bulkLines(data, (id) => at[id], { ...plain, only: new Set(['c.md']) }, rgba)
  expect(search.count).toBe(2)
  expect([...search.positions.subarray(0, 4)]).toEqual([1, 0, 1, 1])
  // The open note's edges take the accent.
  const focus = bulkLines(data, (id) => at[id], { ...plain, focus: 'b.md' }, rgba)
  expect(colours(focus.colors)).toEqual(['200,0,0,255', '200,0,0,255', '9,9,9,128', '9,9,9,128'])
})

test('edges with a hidden or unplaced end are left out', () => {
  const hiddenC = bulkLines(data, (id) => (id === 'c.md' ? { ...at[id]!, hidden: true } : at[id]), plain, rgba)
  expect(hiddenC.count).toBe(2)
  const unplaced = bulkLines(data, (id) => (id === 'a.md' ? undefined : at[id]), plain, rgba)
  expect(unplaced.count).toBe(2)
})

test('BulkEdges holds edges until cleared', () => {
  const b = new BulkEdges()
  expect(b.active).toBe(false)
  b.set(data, () => plain)
  expect(b.active).toBe(true)
  expect(b.count).toBe(6)
  b.clear()
  expect(b.active).toBe(false)
  expect(b.count).toBe(0)
})
