import { expect, test } from 'vitest'
import type { GraphData } from '../api/types'
import { graphDiff, withGhosts } from './graphDiff'
import { buildGraph } from './graphModel'

// The graph now: A links to B and to the new note N; N links to B; C was deleted.
const now: GraphData = {
  library: 'v',
  nodes: ['A.md', 'B.md', 'N.md'],
  labels: ['A', 'B', 'N'],
  types: [''],
  node_types: [0, 0, 0],
  first_unresolved: 3,
  relations: ['links to'],
  edges: [0, 1, 0, 0, 2, 0, 2, 1, 0],
  aliases: {},
}

test('a change set: a new note and its links added, a changed note, a deleted note and its link as ghosts', () => {
  const g = buildGraph(now)
  const d = graphDiff(
    g,
    [
      { path: 'A.md', state: 'modified' },
      { path: 'N.md', state: 'untracked' },
      { path: 'C.md', state: 'deleted' },
    ],
    [
      { path: 'A.md', existed: true, edges: [{ to: 'B.md', relation: 'links to' }, { to: 'unresolved:C', relation: 'links to' }] },
      { path: 'N.md', existed: false, edges: [] },
      { path: 'C.md', existed: true, edges: [{ to: 'B.md', relation: 'links to' }] },
    ],
  )
  expect([...d.addedNodes]).toEqual(['N.md'])
  expect([...d.changedNodes]).toEqual(['A.md'])
  expect([...d.removedNodes].sort()).toEqual(['C.md', 'unresolved:C'])
  // A→N and N→B are new; A→B was there.
  expect([...d.addedEdges].map((k) => `${g.source(k)}>${g.target(k)}`).sort()).toEqual(['A.md>N.md', 'N.md>B.md'])
  expect(d.removedEdges).toEqual([
    { from: 'A.md', to: 'unresolved:C', relation: 'links to' },
    { from: 'C.md', to: 'B.md', relation: 'links to' },
  ])
  const shown = withGhosts(g, d)
  expect(shown.getNodeAttribute('C.md', 'ghost')).toBe(true)
  expect(shown.filterEdges((_e, a) => a.ghost === true)).toHaveLength(2)
  expect(g.hasNode('C.md')).toBe(false)
})

test('a rename keeps the old edges under the new name; nothing before: every edge is new', () => {
  const g = buildGraph(now)
  const d = graphDiff(g, [{ path: 'N.md', state: 'renamed', from: 'Old.md' }], [{ path: 'Old.md', existed: true, edges: [{ to: 'B.md', relation: 'links to' }] }])
  expect([...d.changedNodes]).toEqual(['N.md'])
  expect(d.addedEdges.size).toBe(0)
  expect(d.removedEdges).toEqual([])
  expect(graphDiff(g, [{ path: 'A.md', state: 'untracked' }], []).addedEdges.size).toBe(2)
})
