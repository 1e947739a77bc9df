import { describe, expect, test } from 'vitest'
import type { GraphData } from '../api/types'
import { PALETTE } from './colors'
import { applyGroups, folderGroups, groupsFor, typeGroups } from './graphGroups'
import { buildGraph } from './graphModel'

function data(nodes: [string, string][], extra: Partial<GraphData> = {}): GraphData {
  const types = ['', ...new Set(nodes.map(([, t]) => t).filter((t) => t !== ''))]
  return {
    library: 'v',
    nodes: nodes.map(([id]) => id),
    labels: nodes.map(([id]) => id.replace(/^.*\//, '').replace(/\.md$/, '')),
    types,
    node_types: nodes.map(([, t]) => types.indexOf(t)),
    first_unresolved: nodes.length,
    relations: [],
    edges: [],
    aliases: {},
    ...extra,
  }
}

const untyped = data([
  ['Bases/a.md', ''],
  ['Bases/b.md', ''],
  ['Bases/c.md', ''],
  ['Sync/d.md', ''],
  ['Home.md', ''],
  ['Import notes/e.md', ''],
])

describe('default groups', () => {
  test('a vault without types is coloured by its top-level folders, the fullest first', () => {
    const g = groupsFor(untyped, [])
    expect(g.source).toBe('folders')
    expect(g.groups.map((x) => x.query)).toEqual(['path:/^Bases\\//', 'path:/^Import\\x20notes\\//', 'path:/^Sync\\//'])
    expect(new Set(g.groups.map((x) => x.color)).size).toBe(3)
  })

  test('with entity types, one group per type; the settings’ groups come first of all', () => {
    const typed = data([
      ['a.md', 'person'],
      ['b.md', 'person'],
      ['c.md', 'Book'],
    ])
    expect(typeGroups(typed).map((x) => x.query)).toEqual(['type:person', 'type:book'])
    expect(groupsFor(typed, [{ query: 'tag:x', color: '#000000' }]).source).toBe('settings')
    expect(groupsFor(typed, []).source).toBe('types')
  })

  test('a few typed notes (one the agent just made) do not turn a vault of folders grey', () => {
    const some = data([...untyped.nodes.map((p) => [p, ''] as [string, string]), ['Tour note.md', 'note']])
    const g = groupsFor(some, [])
    expect(g.source).toBe('folders')
    expect(g.groups.map((x) => x.query)).toEqual(['path:/^Bases\\//', 'path:/^Import\\x20notes\\//', 'path:/^Sync\\//'])
    // Half the notes typed: the types colour them.
    const half = data([
      ['Bases/a.md', 'person'],
      ['Sync/b.md', ''],
    ])
    expect(groupsFor(half, []).source).toBe('types')
  })

  test('a flat vault with a few typed notes is coloured by their types (there are no folders)', () => {
    const flat = data([
      ['a.md', ''],
      ['b.md', ''],
      ['c.md', 'person'],
    ])
    expect(groupsFor(flat, [])).toMatchObject({ source: 'types', groups: [{ query: 'type:person' }] })
  })

  test('no folders at all: no group (the notes stay in the untyped colour)', () => {
    expect(folderGroups(data([['a.md', '']]))).toEqual([])
  })

  test('more folders than colours: the palette’s length of them', () => {
    const many = data(Array.from({ length: 14 }, (_, i) => [`f${i}/n.md`, ''] as [string, string]))
    expect(folderGroups(many)).toHaveLength(PALETTE.length)
  })
})

test('a folder group holds that top-level folder only, whatever its name', () => {
  const d = data([
    ['Obsidian/a.md', ''],
    ['Obsidian/b.md', ''],
    ['Extending Obsidian/c.md', ''],
    ['Odd (1) "x".v/d.md', ''],
  ])
  const g = buildGraph(d)
  const { active } = applyGroups(g, folderGroups(d))
  expect(active.map((a) => [a.label, a.count])).toEqual([
    ['Obsidian', 2],
    ['Extending Obsidian', 1],
    ['Odd (1) "x".v', 1],
  ])
})

describe('applyGroups', () => {
  test('the first matching group colours a note; counts; unresolved names stay grey', () => {
    const d = data([
      ['Bases/a.md', ''],
      ['Bases/b.md', ''],
      ['Sync/c.md', ''],
    ], { nodes: ['Bases/a.md', 'Bases/b.md', 'Sync/c.md', 'unresolved:x'], labels: ['a', 'b', 'c', 'x'], node_types: [0, 0, 0, 0], first_unresolved: 3, tags: ['t'], note_tags: [1, 0] })
    const g = buildGraph(d)
    const { active, groupOf } = applyGroups(g, [
      { query: 'tag:t', color: '#111111' },
      { query: 'path:Bases/', color: '#222222' },
      { query: 'nothing-matches', color: '#333333' },
      { query: '(broken', color: '#444444' },
    ])
    expect(g.getNodeAttribute('Bases/b.md', 'color')).toBe('#111111')
    expect(g.getNodeAttribute('Bases/a.md', 'color')).toBe('#222222')
    expect(active.map((a) => a.count)).toEqual([1, 1, 0, 0])
    expect(active[3]!.parsed.error).toBeTruthy()
    expect(groupOf.has('unresolved:x')).toBe(false)
    expect(active[1]!.label).toBe('path:Bases/')
  })

  test('a group matching everything colours every note', () => {
    const g = buildGraph(untyped)
    const { active } = applyGroups(g, [{ query: 'md', color: '#123456' }])
    expect(active[0]!.count).toBe(untyped.nodes.length)
  })
})
