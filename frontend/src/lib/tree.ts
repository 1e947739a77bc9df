// The file tree: built from the flat, path-sorted file list, flattened into the rows
// that are visible given which folders are collapsed, and navigated by keyboard.
import type { FileEntry } from '../api/types'

export interface TreeFolder {
  kind: 'folder'
  /** Folder path without a trailing slash ("people"), "" for the root. */
  path: string
  name: string
  children: TreeNode[]
}

export interface TreeFile {
  kind: 'file'
  path: string
  /** Display name: the base name, without ".md" for notes. */
  name: string
  isNote: boolean
  entityType: string
}

export type TreeNode = TreeFolder | TreeFile

const collator = new Intl.Collator(undefined, { numeric: true, sensitivity: 'base' })

function compareNodes(a: TreeNode, b: TreeNode): number {
  if (a.kind !== b.kind) return a.kind === 'folder' ? -1 : 1
  return collator.compare(a.name, b.name) || (a.path < b.path ? -1 : a.path > b.path ? 1 : 0)
}

function baseName(path: string): string {
  const i = path.lastIndexOf('/')
  return i < 0 ? path : path.slice(i + 1)
}

/** buildTree turns the flat file list into a tree, folders first, names in natural order. */
export function buildTree(files: readonly FileEntry[]): TreeFolder {
  const root: TreeFolder = { kind: 'folder', path: '', name: '', children: [] }
  const folders = new Map<string, TreeFolder>([['', root]])
  const folderFor = (dir: string): TreeFolder => {
    const existing = folders.get(dir)
    if (existing) return existing
    const slash = dir.lastIndexOf('/')
    const parent = folderFor(slash < 0 ? '' : dir.slice(0, slash))
    const f: TreeFolder = { kind: 'folder', path: dir, name: baseName(dir), children: [] }
    parent.children.push(f)
    folders.set(dir, f)
    return f
  }
  // The list comes sorted by path: a folder's files come one after another.
  let dir: string | null = null
  let parent = root
  for (const e of files) {
    const slash = e.path.lastIndexOf('/')
    const d = slash < 0 ? '' : e.path.slice(0, slash)
    if (d !== dir) {
      dir = d
      parent = folderFor(d)
    }
    const base = slash < 0 ? e.path : e.path.slice(slash + 1)
    parent.children.push({
      kind: 'file',
      path: e.path,
      name: e.is_note && base.slice(-3).toLowerCase() === '.md' ? base.slice(0, -3) : base,
      isNote: e.is_note,
      entityType: e.entity_type ?? '',
    })
  }
  for (const f of folders.values()) sortChildren(f.children)
  return root
}

/**
 * sortChildren sorts a folder's entries with compareNodes. The collator is slow for
 * each comparison (a vault of 100k notes takes about 900k of them, a fifth of a
 * second, before its tree can be shown), and the sort is adaptive: the entries are
 * first put in the order of their lower-cased names, a cheap comparison that is
 * nearly the collator's, and the collator then only confirms that order (about one
 * comparison per entry) and mends the few places where it differs.
 */
function sortChildren(nodes: TreeNode[]): void {
  if (nodes.length > 64) {
    const keyed = nodes.map((n) => ({ n, key: (n.kind === 'folder' ? '0' : '1') + n.name.toLowerCase() }))
    keyed.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0))
    keyed.forEach((k, i) => (nodes[i] = k.n))
  }
  nodes.sort(compareNodes)
}

/** A visible row of the tree. */
export interface TreeRow {
  node: TreeNode
  depth: number
  /** Path of the parent folder ("" at the top level). */
  parent: string
  /** Position among its siblings, from 1, and how many siblings there are (ARIA). */
  posinset: number
  setsize: number
}

/** visibleRows flattens the tree into the rows shown when `collapsed` folders are shut. */
export function visibleRows(root: TreeFolder, collapsed: ReadonlySet<string>): TreeRow[] {
  const rows: TreeRow[] = []
  const walk = (f: TreeFolder, depth: number) => {
    const setsize = f.children.length
    let posinset = 0
    for (const n of f.children) {
      rows.push({ node: n, depth, parent: f.path, posinset: ++posinset, setsize })
      if (n.kind === 'folder' && !collapsed.has(n.path)) walk(n, depth + 1)
    }
  }
  walk(root, 1)
  return rows
}

/** ancestors lists the folder paths that contain a file path, outermost first. */
export function ancestors(path: string): string[] {
  const parts = path.split('/').slice(0, -1)
  return parts.map((_, i) => parts.slice(0, i + 1).join('/'))
}

/** What a key press in the tree asks for. */
export type TreeAction =
  | { kind: 'focus'; index: number }
  | { kind: 'expand'; path: string }
  | { kind: 'collapse'; path: string }
  | { kind: 'open'; path: string }
  | { kind: 'toggle'; path: string }
  | { kind: 'none' }

/** treeKey maps a key press on row `index` to an action, following the ARIA tree pattern. */
export function treeKey(rows: readonly TreeRow[], index: number, key: string, collapsed: ReadonlySet<string>, page = 10): TreeAction {
  const row = rows[index]
  if (!row) return rows.length > 0 ? { kind: 'focus', index: 0 } : { kind: 'none' }
  const n = row.node
  switch (key) {
    case 'ArrowDown':
      return index + 1 < rows.length ? { kind: 'focus', index: index + 1 } : { kind: 'none' }
    case 'ArrowUp':
      return index > 0 ? { kind: 'focus', index: index - 1 } : { kind: 'none' }
    case 'PageDown':
      return { kind: 'focus', index: Math.min(rows.length - 1, index + Math.max(1, page)) }
    case 'PageUp':
      return { kind: 'focus', index: Math.max(0, index - Math.max(1, page)) }
    case 'Home':
      return { kind: 'focus', index: 0 }
    case 'End':
      return { kind: 'focus', index: rows.length - 1 }
    case 'ArrowRight':
      if (n.kind !== 'folder') return { kind: 'none' }
      if (collapsed.has(n.path)) return { kind: 'expand', path: n.path }
      return rows[index + 1]?.parent === n.path ? { kind: 'focus', index: index + 1 } : { kind: 'none' }
    case 'ArrowLeft': {
      if (n.kind === 'folder' && !collapsed.has(n.path)) return { kind: 'collapse', path: n.path }
      const p = rows.findIndex((r) => r.node.kind === 'folder' && r.node.path === row.parent)
      return p >= 0 ? { kind: 'focus', index: p } : { kind: 'none' }
    }
    case 'Enter':
    case ' ':
      if (n.kind === 'folder') return { kind: 'toggle', path: n.path }
      return n.isNote ? { kind: 'open', path: n.path } : { kind: 'none' }
  }
  return { kind: 'none' }
}

/** The rows of a fixed-height list that are drawn for one scroll position. */
export interface RowWindow {
  /** First drawn row (inclusive). */
  start: number
  /** Row after the last drawn one (exclusive). */
  end: number
  /** Height of the whole list in pixels: the scrolled content's size. */
  total: number
}

/**
 * rowWindow picks the rows to draw for a list of `count` rows of `rowHeight` pixels,
 * scrolled to `scrollTop` in a viewport `viewport` pixels high, with `overscan` extra
 * rows above and below so that a fast scroll does not show blank space.
 */
export function rowWindow(count: number, rowHeight: number, scrollTop: number, viewport: number, overscan: number): RowWindow {
  const total = count * rowHeight
  if (count === 0 || rowHeight <= 0) return { start: 0, end: 0, total: 0 }
  const top = Math.max(0, Math.min(scrollTop, Math.max(0, total - viewport)))
  const first = Math.floor(top / rowHeight)
  const last = Math.ceil((top + Math.max(viewport, 0)) / rowHeight)
  return { start: Math.max(0, first - overscan), end: Math.min(count, last + overscan), total }
}

/**
 * revealOffset returns the scrollTop that brings row `index` fully into a viewport
 * currently scrolled to `scrollTop`, moving as little as possible; null when the row is
 * already fully visible. `pad` rows of context are kept above and below when moving.
 */
export function revealOffset(index: number, rowHeight: number, scrollTop: number, viewport: number, pad = 0): number | null {
  const top = index * rowHeight
  const bottom = top + rowHeight
  if (top >= scrollTop && bottom <= scrollTop + viewport) return null
  if (top < scrollTop) return Math.max(0, top - pad * rowHeight)
  return Math.max(0, bottom - viewport + pad * rowHeight)
}

/** centerOffset returns the scrollTop that puts row `index` in the middle of the viewport. */
export function centerOffset(index: number, rowHeight: number, viewport: number, count: number): number {
  const max = Math.max(0, count * rowHeight - viewport)
  return Math.max(0, Math.min(max, index * rowHeight - (viewport - rowHeight) / 2))
}

/** rowIndex finds the visible row of a path, or -1. */
export function rowIndex(rows: readonly TreeRow[], path: string): number {
  return rows.findIndex((r) => r.node.kind === 'file' && r.node.path === path)
}
