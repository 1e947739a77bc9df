import { describe, expect, test } from 'vitest'
import type { FileEntry } from '../api/types'
import { ancestors, buildTree, centerOffset, revealOffset, rowIndex, rowWindow, treeKey, visibleRows, type TreeFolder } from './tree'

// As Files sends it: no entity_type for an untyped note or another file.
const f = (path: string, entity_type = ''): FileEntry => ({
  path,
  is_note: path.endsWith('.md'),
  ...(entity_type ? { entity_type } : {}),
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
  test('a big folder comes in the collator\'s natural order, whatever the order of the list', () => {
    // Names whose lower-cased order and natural order differ: numbers, case, accents,
    // punctuation, scripts; sub-folders among them.
    const parts = ['note', 'Note', 'NOTE', 'Ärger', 'arger', 'Zeta', 'éclair', 'eclair', '_draft', '-x', ' lead', '沈括', 'ß', 'ss', 'item 2', 'item 10', 'item 02', 'a.b', 'a-b', 'a b', 'Z9', 'z10']
    let seed = 7
    const rnd = (n: number) => ((seed = (seed * 1103515245 + 12345) % 2147483648), seed % n)
    const list: FileEntry[] = []
    const seen = new Set<string>()
    while (list.length < 600) {
      const name = `${parts[rnd(parts.length)]}${rnd(3) === 0 ? ` ${rnd(120)}` : ''}${parts[rnd(parts.length)]}`
      const p = rnd(8) === 0 ? `big/${name}/inner.md` : `big/${name}${rnd(5) === 0 ? '.png' : '.md'}`
      if (seen.has(p)) continue
      seen.add(p)
      list.push(f(p))
    }
    list.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0))
    const collator = new Intl.Collator(undefined, { numeric: true, sensitivity: 'base' })
    const big = buildTree(list).children[0] as TreeFolder
    const want = [...big.children].sort((a, b) =>
      a.kind !== b.kind ? (a.kind === 'folder' ? -1 : 1) : collator.compare(a.name, b.name) || (a.path < b.path ? -1 : a.path > b.path ? 1 : 0),
    )
    expect(big.children.length).toBeGreaterThan(450)
    expect(big.children.map((n) => n.path)).toEqual(want.map((n) => n.path))
    // The same files listed in another order make the same tree.
    const shuffled = [...list].reverse()
    expect((buildTree(shuffled).children[0] as TreeFolder).children.map((n) => n.path)).toEqual(want.map((n) => n.path))
  })

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

describe('the windowed list', () => {
  test('draws only the rows in view, plus the overscan', () => {
    // 50,000 rows of 26 px, a 520 px viewport (20 rows).
    expect(rowWindow(50000, 26, 0, 520, 5)).toEqual({ start: 0, end: 25, total: 1_300_000 })
    expect(rowWindow(50000, 26, 26 * 1000, 520, 5)).toEqual({ start: 995, end: 1025, total: 1_300_000 })
    // A scroll position between rows draws the partly shown rows on both edges.
    expect(rowWindow(50000, 26, 26 * 1000 + 13, 520, 0)).toEqual({ start: 1000, end: 1021, total: 1_300_000 })
  })

  test('the end of the list shows the last row, and over-scrolling is clamped', () => {
    const w = rowWindow(50000, 26, 26 * 50000, 520, 3)
    expect(w.end).toBe(50000)
    expect(w.start).toBe(50000 - 20 - 3)
    expect(rowWindow(50000, 26, -40, 520, 0).start).toBe(0)
  })

  test('short and empty lists draw everything or nothing', () => {
    expect(rowWindow(7, 26, 0, 520, 5)).toEqual({ start: 0, end: 7, total: 182 })
    expect(rowWindow(0, 26, 0, 520, 5)).toEqual({ start: 0, end: 0, total: 0 })
    expect(rowWindow(10, 26, 0, 0, 2)).toEqual({ start: 0, end: 2, total: 260 })
  })

  test('the number of drawn rows does not grow with the list', () => {
    for (const n of [100, 10_000, 1_000_000]) {
      const w = rowWindow(n, 26, (n / 2) * 26, 800, 40)
      expect(w.end - w.start).toBeLessThanOrEqual(Math.ceil(800 / 26) + 1 + 80)
    }
  })

  test('revealing a row scrolls as little as possible', () => {
    expect(revealOffset(5, 26, 0, 520)).toBeNull()
    expect(revealOffset(19, 26, 0, 520)).toBeNull()
    expect(revealOffset(20, 26, 0, 520)).toBe(26) // one row down
    expect(revealOffset(100, 26, 0, 520)).toBe(101 * 26 - 520)
    expect(revealOffset(3, 26, 26 * 10, 520)).toBe(78) // up: the row at the top
    expect(revealOffset(3, 26, 26 * 10, 520, 2)).toBe(26)
  })

  test('centering clamps to the list', () => {
    expect(centerOffset(0, 26, 520, 1000)).toBe(0)
    expect(centerOffset(500, 26, 520, 1000)).toBe(500 * 26 - 247)
    expect(centerOffset(999, 26, 520, 1000)).toBe(1000 * 26 - 520)
  })

  test('rows carry their position among siblings, and rowIndex finds a file', () => {
    const rows = visibleRows(buildTree(files), new Set())
    const ada = rows[rowIndex(rows, 'people/Ada Lovelace.md')]
    expect(ada).toMatchObject({ depth: 2, posinset: 1, setsize: 2 })
    expect(rowIndex(rows, 'people')).toBe(-1) // folders are not files
    expect(rowIndex(rows, 'missing.md')).toBe(-1)
  })

  test('PageDown and PageUp move by a page, clamped', () => {
    const rows = visibleRows(buildTree(files), new Set())
    expect(treeKey(rows, 0, 'PageDown', new Set(), 4)).toEqual({ kind: 'focus', index: 4 })
    expect(treeKey(rows, rows.length - 2, 'PageDown', new Set(), 4)).toEqual({ kind: 'focus', index: rows.length - 1 })
    expect(treeKey(rows, 2, 'PageUp', new Set(), 4)).toEqual({ kind: 'focus', index: 0 })
  })
})
