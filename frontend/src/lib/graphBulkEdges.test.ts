import { expect, test } from 'vitest'
import { BulkEdges, bulkLines, type BulkEdgeData } from './graphBulkEdges'

const data: BulkEdgeData = {
  nodes: ['a.md', 'b.md', 'c.md', 'unresolved:d'],
  // a→b links, b→c knows, c→d links, then two edges naming no node.
  edges: new Int32Array([0, 1, 0, 1, 2, 1, 2, 3, 0, 0, 9, 0, -1, 1, 0]),
  relations: ['links to', 'knows'],
}
const at: Record<string, { x: number; y: number; hidden?: boolean }> = {
  'a.md': { x: 0, y: 0 },
  'b.md': { x: 1, y: 0 },
  'c.md': { x: 1, y: 1 },
  'unresolved:d': { x: 0, y: 1 },
}
const rgba = (c: string): [number, number, number, number] => (c === 'typed' ? [1, 2, 3, 255] : [9, 9, 9, 128])
const plain = (rel: string) => (rel === 'links to' ? 'link' : 'typed')

test('every edge naming two placed nodes becomes a line with its colour', () => {
  const l = bulkLines(data, (id) => at[id], plain, rgba)
  expect(l.count).toBe(3)
  expect([...l.positions]).toEqual([0, 0, 1, 0, 1, 0, 1, 1, 1, 1, 0, 1])
  expect([...l.colors.subarray(0, 8)]).toEqual([9, 9, 9, 128, 9, 9, 9, 128])
  expect([...l.colors.subarray(8, 16)]).toEqual([1, 2, 3, 255, 1, 2, 3, 255])
})

test('the style leaves edges out, and so do hidden or unplaced ends', () => {
  const noKnows = bulkLines(data, (id) => at[id], (rel) => (rel === 'knows' ? null : 'link'), rgba)
  expect(noKnows.count).toBe(2)
  const hiddenC = bulkLines(data, (id) => (id === 'c.md' ? { ...at[id]!, hidden: true } : at[id]), plain, rgba)
  expect(hiddenC.count).toBe(1)
  const unplaced = bulkLines(data, (id) => (id === 'a.md' ? undefined : at[id]), plain, rgba)
  expect(unplaced.count).toBe(2)
  const seen: string[] = []
  bulkLines(data, (id) => at[id], (rel, s, t) => (seen.push(`${s} ${rel} ${t}`), null), rgba)
  expect(seen).toEqual(['a.md links to b.md', 'b.md knows c.md', 'c.md links to unresolved:d'])
})

test('BulkEdges holds edges until cleared', () => {
  const b = new BulkEdges()
  expect(b.active).toBe(false)
  b.set(data, plain)
  expect(b.active).toBe(true)
  expect(b.count).toBe(5)
  b.clear()
  expect(b.active).toBe(false)
  expect(b.count).toBe(0)
})
