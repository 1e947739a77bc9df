import { describe, expect, test } from 'vitest'
import type { FileEntry } from '../api/types'
import { ancestors, buildTree, treeKey, visibleRows, type TreeFolder } from './tree'

const f = (path: string, entity_type = ''): FileEntry => ({
  path,
  name: path.replace(/\.md$/, ''),
  is_note: path.endsWith('.md'),
  entity_type,
})

const files = [
  f('Welcome.md'),
  f('people/Ada Lovelace.md', 'person'),
  f('people/Charles Babbage.md', 'person'),
  f('attachments/diagram.png'),
  f('notes/Note 10.md'),
  f('notes/Note 2.md'),
  f('notes/deep/Inner.md'),
  f('中文/沈括.md', 'person'),
]

function names(root: TreeFolder, collapsed = new Set<string>()): string[] {
  return visibleRows(root, collapsed).map((r) => `${'  '.repeat(r.depth - 1)}${r.node.name}`)
}

describe('buildTree', () => {
  test('folders first, natural order, notes without .md', () => {
    expect(names(buildTree(files))).toEqual([
      'attachments',
      '  diagram.png',
      'notes',
      '  deep',
      '    Inner',
      '  Note 2',
      '  Note 10',
      'people',
      '  Ada Lovelace',
      '  Charles Babbage',
      '中文',
      '  沈括',
      'Welcome',
    ])
  })
  test('keeps entity types and note flags', () => {
    const people = buildTree(files).children.find((n) => n.name === 'people')
    expect(people?.kind === 'folder' && people.children[0]).toMatchObject({ kind: 'file', isNote: true, entityType: 'person', path: 'people/Ada Lovelace.md' })
  })
  test('collapsed folders hide their contents', () => {
    expect(names(buildTree(files), new Set(['notes', 'people', 'attachments', '中文']))).toEqual(['attachments', 'notes', 'people', '中文', 'Welcome'])
  })
  test('empty list', () => {
    expect(visibleRows(buildTree([]), new Set())).toEqual([])
  })
})

test('ancestors', () => {
  expect(ancestors('a/b/c.md')).toEqual(['a', 'a/b'])
  expect(ancestors('c.md')).toEqual([])
})

describe('treeKey', () => {
  const root = buildTree(files)
  const none = new Set<string>()
  const rows = visibleRows(root, none)
  const at = (name: string) => rows.findIndex((r) => r.node.name === name)

  test('arrows move, Home and End jump', () => {
    expect(treeKey(rows, 0, 'ArrowDown', none)).toEqual({ kind: 'focus', index: 1 })
    expect(treeKey(rows, 1, 'ArrowUp', none)).toEqual({ kind: 'focus', index: 0 })
    expect(treeKey(rows, 0, 'ArrowUp', none)).toEqual({ kind: 'none' })
    expect(treeKey(rows, 3, 'End', none)).toEqual({ kind: 'focus', index: rows.length - 1 })
    expect(treeKey(rows, 3, 'Home', none)).toEqual({ kind: 'focus', index: 0 })
  })
  test('Left collapses an open folder, then goes to the parent', () => {
    expect(treeKey(rows, at('deep'), 'ArrowLeft', none)).toEqual({ kind: 'collapse', path: 'notes/deep' })
    expect(treeKey(rows, at('Inner'), 'ArrowLeft', none)).toEqual({ kind: 'focus', index: at('deep') })
  })
  test('Right expands a shut folder, then enters it', () => {
    const shut = new Set(['people'])
    const r2 = visibleRows(root, shut)
    const p = r2.findIndex((r) => r.node.name === 'people')
    expect(treeKey(r2, p, 'ArrowRight', shut)).toEqual({ kind: 'expand', path: 'people' })
    expect(treeKey(rows, at('people'), 'ArrowRight', none)).toEqual({ kind: 'focus', index: at('Ada Lovelace') })
  })
  test('Enter opens notes and toggles folders, not attachments', () => {
    expect(treeKey(rows, at('Welcome'), 'Enter', none)).toEqual({ kind: 'open', path: 'Welcome.md' })
    expect(treeKey(rows, at('notes'), 'Enter', none)).toEqual({ kind: 'toggle', path: 'notes' })
    expect(treeKey(rows, at('diagram.png'), 'Enter', none)).toEqual({ kind: 'none' })
  })
})
