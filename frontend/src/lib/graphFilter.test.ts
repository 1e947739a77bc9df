import { expect, test } from 'vitest'
import type { GraphData } from '../api/types'
import { buildGraph, SHOW_ALL, TAGGED, type GraphFilter } from './graphModel'
import { parseQuery } from './graphQuery'

// Notes A (tags x, y/z), B, Lone (an orphan); the attachment img.png; the unresolved Ghost.
// A links to B, embeds img.png and links to Ghost.
const data: GraphData = {
  library: 'v',
  nodes: ['A.md', 'B.md', 'Lone.md', 'img.png', 'unresolved:Ghost'],
  labels: ['A', 'B', 'Lone', 'img.png', 'Ghost'],
  types: [''],
  node_types: [0, 0, 0, 0, 0],
  first_attachment: 3,
  first_unresolved: 4,
  relations: ['links to', 'embeds'],
  edges: [0, 1, 0, 0, 3, 1, 0, 4, 0],
  aliases: {},
  tags: ['x', 'y/z'],
  note_tags: [0, 0, 0, 1],
}

const ids = (f: Partial<GraphFilter>) => buildGraph(data, new Map(), { filter: { ...SHOW_ALL, ...f } }).nodes().sort()

test('every node, with kinds and tags', () => {
  const g = buildGraph(data)
  expect(g.order).toBe(5)
  expect(g.mapNodes((_id, a) => a.kind)).toEqual(['note', 'note', 'note', 'attachment', 'unresolved'])
  expect(g.getNodeAttribute('A.md', 'tags')).toEqual(['x', 'y/z'])
})

test('attachments, unresolved names and orphans filtered out', () => {
  expect(ids({ attachments: false })).toEqual(['A.md', 'B.md', 'Lone.md', 'unresolved:Ghost'])
  expect(ids({ unresolved: false })).toEqual(['A.md', 'B.md', 'Lone.md', 'img.png'])
  expect(ids({ orphans: false })).toEqual(['A.md', 'B.md', 'img.png', 'unresolved:Ghost'])
  // Once the attachment and the name are gone, nothing else is left alone but Lone.
  expect(ids({ orphans: false, attachments: false, unresolved: false })).toEqual(['A.md', 'B.md'])
})

test('tags as nodes: a node per tag and an edge from each note carrying it', () => {
  const g = buildGraph(data, new Map(), { filter: { ...SHOW_ALL, tags: true } })
  expect(g.hasNode('tag:#x') && g.hasNode('tag:#y/z')).toBe(true)
  expect(g.getNodeAttribute('tag:#x', 'kind')).toBe('tag')
  expect(g.filterEdges((_e, a) => a.relation === TAGGED).map((e) => `${g.source(e)}>${g.target(e)}`).sort()).toEqual(['A.md>tag:#x', 'A.md>tag:#y/z'])
})

test('a search keeps the notes it matches and what they link to; matching nothing leaves nothing', () => {
  expect(ids({ search: parseQuery('tag:#x') })).toEqual(['A.md', 'img.png', 'unresolved:Ghost'])
  expect(ids({ search: parseQuery('Lone') })).toEqual(['Lone.md'])
  expect(ids({ search: parseQuery('nothing at all') })).toEqual([])
})
