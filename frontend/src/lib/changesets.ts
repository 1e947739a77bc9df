// Pure helpers for the source-control panel: naming change sets, choosing changes.
import type { Change, ChangeSet, ChangeState } from '../api'
import { formatDateTime, t, type MessageKey } from './i18n.svelte'

/** The words shown for a change set's author. */
export function changeSetLabel(s: Pick<ChangeSet, 'actor' | 'turn'>): string {
  const turn = s.turn ? ` · ${shortTurn(s.turn)}` : ''
  if (s.actor === 'agent') return `${t('git.actor.agent')}${turn || ` · ${t('git.actor.noTurn')}`}`
  if (s.actor === 'user') return t('git.actor.user')
  if (s.actor === 'external') return t('git.actor.external')
  if (s.actor === 'journey') return t('git.actor.journey')
  if (s.actor === 'script') return `${t('git.actor.script')}${turn}`
  if (s.actor === 'cli') return `${t('git.actor.cli')}${turn}`
  if (s.actor.startsWith('mcp:')) return `${t('git.actor.mcp', { name: s.actor.slice(4) })}${turn}`
  return `${s.actor}${turn}`
}

/** A turn id short enough for a heading; the whole id stays in the title. */
export function shortTurn(turn: string): string {
  return turn.length > 14 ? `${turn.slice(0, 12)}…` : turn
}

/** The letter VS Code and git show for a state. */
export function stateLetter(s: ChangeState): string {
  return { added: 'A', modified: 'M', deleted: 'D', renamed: 'R', untracked: 'U', conflicted: 'C' }[s]
}

const stateNames: Record<ChangeState, MessageKey> = {
  added: 'git.state.added',
  modified: 'git.state.modified',
  deleted: 'git.state.deleted',
  renamed: 'git.state.renamed',
  untracked: 'git.state.untracked',
  conflicted: 'git.state.conflicted',
}

/** A state in words, in the window's language. */
export function stateName(s: ChangeState): string {
  return stateNames[s] ? t(stateNames[s]) : s
}

/** A change set's time, in the window's language: the time of day today, else date and time; "" for the zero time. */
export function changeSetTime(latest: string, now = new Date()): string {
  const d = new Date(latest)
  if (Number.isNaN(d.getTime()) || d.getUTCFullYear() <= 1) return ''
  const sameDay = d.toDateString() === now.toDateString()
  return formatDateTime(d, sameDay ? { timeStyle: 'short' } : { dateStyle: 'medium', timeStyle: 'short' })
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
  return c.path !== JOURNEY_PATH && c.state !== 'conflicted' // a conflict is resolved, not discarded
}

/** What discarding a change does, in words for the confirmation. */
export function discardEffect(c: Change): string {
  switch (c.state) {
    case 'added':
    case 'untracked':
      return t('git.effect.added')
    case 'deleted':
      return t('git.effect.deleted')
    case 'renamed':
      return t('git.effect.renamed', { from: c.from ?? t('git.effect.oldName') })
    default:
      return t('git.effect.modified')
  }
}
