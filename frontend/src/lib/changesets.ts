// Pure helpers for the source-control panel: naming change sets, choosing changes.
import type { Change, ChangeSet, ChangeState } from '../api'

/** The words shown for a change set's author. */
export function changeSetLabel(s: Pick<ChangeSet, 'actor' | 'turn'>): string {
  const turn = s.turn ? ` · ${shortTurn(s.turn)}` : ''
  if (s.actor === 'agent') return `Agent${turn || ' · no turn'}`
  if (s.actor === 'user') return 'Your edits in MemoTree'
  if (s.actor === 'external') return 'Outside edits'
  if (s.actor === 'journey') return 'Journey (operation log)'
  if (s.actor === 'script') return `Script${turn}`
  if (s.actor === 'cli') return `Command line${turn}`
  if (s.actor.startsWith('mcp:')) return `MCP client ${s.actor.slice(4)}${turn}`
  return `${s.actor}${turn}`
}

/** A turn id short enough for a heading; the whole id stays in the title. */
export function shortTurn(turn: string): string {
  return turn.length > 14 ? `${turn.slice(0, 12)}…` : turn
}

/** The letter VS Code and git show for a state. */
export function stateLetter(s: ChangeState): string {
  return { added: 'A', modified: 'M', deleted: 'D', renamed: 'R', untracked: 'U' }[s]
}

/** A change set's time as "14:05" today, else a date; "" for the zero time. */
export function changeSetTime(latest: string, now = new Date()): string {
  const t = new Date(latest)
  if (Number.isNaN(t.getTime()) || t.getUTCFullYear() <= 1) return ''
  const sameDay = t.toDateString() === now.toDateString()
  const hm = `${String(t.getHours()).padStart(2, '0')}:${String(t.getMinutes()).padStart(2, '0')}`
  return sameDay ? hm : `${t.getFullYear()}-${String(t.getMonth() + 1).padStart(2, '0')}-${String(t.getDate()).padStart(2, '0')} ${hm}`
}

/** Every change of the sets, in order. */
export function allChanges(sets: readonly ChangeSet[]): Change[] {
  return sets.flatMap((s) => s.changes)
}

/** Whether a set's changes are all, some or none chosen (for a tri-state checkbox). */
export function setChoice(s: ChangeSet, chosen: ReadonlySet<string>): 'all' | 'some' | 'none' {
  const n = s.changes.filter((c) => chosen.has(c.path)).length
  return n === 0 ? 'none' : n === s.changes.length ? 'all' : 'some'
}

/** The chosen paths after toggling a whole set: all on unless all were on. */
export function toggleSet(s: ChangeSet, chosen: ReadonlySet<string>): Set<string> {
  const next = new Set(chosen)
  const on = setChoice(s, chosen) !== 'all'
  for (const c of s.changes) {
    if (on) next.add(c.path)
    else next.delete(c.path)
  }
  return next
}

/** Keeps only the chosen paths that still have a pending change. */
export function pruneChoice(sets: readonly ChangeSet[], chosen: ReadonlySet<string>): Set<string> {
  const pending = new Set(allChanges(sets).map((c) => c.path))
  return new Set([...chosen].filter((p) => pending.has(p)))
}

/** Maps each pending path (and a rename's old path) to its state: for the tree and graph. */
export function pendingMap(sets: readonly ChangeSet[]): Map<string, ChangeState> {
  const out = new Map<string, ChangeState>()
  for (const c of allChanges(sets)) {
    out.set(c.path, c.state)
    if (c.from) out.set(c.from, c.state)
  }
  return out
}

/** The folders holding a pending path at any depth: "a/b/c.md" gives "a" and "a/b". */
export function pendingFolders(paths: Iterable<string>): Set<string> {
  const out = new Set<string>()
  for (const p of paths) {
    for (let i = p.indexOf('/'); i >= 0; i = p.indexOf('/', i + 1)) out.add(p.slice(0, i))
  }
  return out
}

/** The journey is append-only: it can be committed, never discarded. */
export const JOURNEY_PATH = 'journey.yaml'

/** Whether a change may be discarded. */
export function discardable(c: Change): boolean {
  return c.path !== JOURNEY_PATH
}

/** What discarding a change does, in words for the confirmation. */
export function discardEffect(c: Change): string {
  switch (c.state) {
    case 'added':
    case 'untracked':
      return 'deleted (never committed, cannot be recovered)'
    case 'deleted':
      return 'restored as last committed'
    case 'renamed':
      return `renamed back to ${c.from ?? 'its old name'}`
    default:
      return 'restored as last committed; the edits are lost'
  }
}
