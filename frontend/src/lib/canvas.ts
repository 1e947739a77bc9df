// Pure helpers of the canvas inspector.
import type { CanvasNode } from '../api/types'

export type Level = CanvasNode['level']

const LEVELS: Level[] = ['title', 'summary', 'full']

/** nextLevel is the level one step more detailed than `l`, or null at full. */
export function nextLevel(l: Level): Level | null {
  const i = LEVELS.indexOf(l)
  return i >= 0 ? (LEVELS[i + 1] ?? null) : null
}

/** expandable says whether a node can be raised: notes and sections up to full, folders and pages until open. */
export function expandable(n: CanvasNode): boolean {
  if (n.kind === 'folder' || n.kind === 'page') return n.level !== 'full'
  return nextLevel(n.level) !== null
}

/** collapsible says whether the view holds the node above its default. */
export function collapsible(n: CanvasNode): boolean {
  return n.held && n.id !== '/'
}

/** usage is the share of the budget used, clamped to [0, 1]. */
export function usage(tokens: number, budget: number): number {
  if (budget <= 0) return 0
  return Math.min(1, Math.max(0, tokens / budget))
}

/** formatTokens writes 1234 as "1,234". */
export function formatTokens(n: number): string {
  return n.toLocaleString('en-US')
}

/** label is how a node is named in the list: its last segment, the folder's with "/". */
export function label(n: CanvasNode): string {
  if (n.id === '/') return '/'
  if (n.kind === 'heading') return '§ ' + n.id.slice(n.id.indexOf('#') + 1)
  const trimmed = n.id.endsWith('/') ? n.id.slice(0, -1) : n.id
  const base = n.kind === 'page' ? trimmed.slice(trimmed.lastIndexOf('/[') + 1) : trimmed.slice(trimmed.lastIndexOf('/') + 1)
  return n.kind === 'folder' ? base + '/' : base
}
