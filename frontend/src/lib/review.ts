// Pure helpers of the hunk review and the blame view: what identifies a hunk across
// diffs, what the agent is told when its change is undone, how a blame's lines group
// and who an actor is in words.
import type { Blame, BlameCommit, ChangeSet, FileDiff, Hunk } from '../api'
import { changeSetLabel } from './changesets'
import { hunkHeader, lineSign } from './diffview'
import { t } from './i18n.svelte'

/**
 * hunkKey identifies a hunk by what it changes, not by where: the same hunk keeps its
 * key when another hunk before it is undone (its line numbers shift) or the diff is
 * fetched again.
 */
export function hunkKey(h: Hunk): string {
  return JSON.stringify(h.lines.map((l) => [l.kind, l.text, l.no_newline ?? false]))
}

/** The keys of every hunk of a diff; a diff without hunks (binary, renamed) by its base. */
export function diffKeys(d: FileDiff): string[] {
  return d.hunks.length > 0 ? d.hunks.map(hunkKey) : [`whole:${d.base ?? ''}`]
}

/** Whether every hunk of a diff is among the kept keys. */
export function allKept(d: FileDiff, kept: ReadonlySet<string> | undefined): boolean {
  return !!kept && diffKeys(d).every((k) => kept.has(k))
}

/** hunksText writes hunks as a unified diff's lines, each under its header. */
export function hunksText(hunks: readonly Hunk[]): string {
  const out: string[] = []
  for (const h of hunks) {
    out.push(hunkHeader(h))
    for (const l of h.lines) {
      out.push(lineSign(l) + l.text)
      if (l.no_newline) out.push('\\ No newline at end of file')
    }
  }
  return out.join('\n')
}

/** What was undone, for the agent: some hunks of one note, or a whole change set. */
export type Undone = { kind: 'hunks'; path: string; hunks: Hunk[] } | { kind: 'set'; paths: string[] }

/**
 * feedbackMessage is the person's next message to the chat whose change they undid:
 * what was undone (the hunk quoted as a diff), then their reason.
 */
export function feedbackMessage(undone: Undone, why: string): string {
  const parts: string[] = []
  if (undone.kind === 'hunks') {
    parts.push(t('review.feedback.hunk', { path: undone.path }), '```diff\n' + hunksText(undone.hunks) + '\n```')
  } else {
    parts.push(t('review.feedback.set', { paths: undone.paths.join(', ') }))
  }
  parts.push(t('review.feedback.why', { text: why.trim() }))
  return parts.join('\n\n')
}

/** Whether the person's feedback on a change set can go to a chat: an agent turn with its session. */
export function chatOf(set: ChangeSet | undefined): string {
  return set && set.actor === 'agent' && set.turn && set.session ? set.session : ''
}

/** The words for an actor: a change set id ("agent@t1"), a trailer ("agent, user") or an author's name. */
export function actorLabel(actor: string, turn = ''): string {
  return actor
    .split(',')
    .map((a) => a.trim())
    .filter((a) => a !== '')
    .map((a) => {
      const at = a.indexOf('@')
      const [who, tn] = at > 0 ? [a.slice(0, at), a.slice(at + 1)] : [a, turn]
      return changeSetLabel({ actor: who, turn: tn || undefined })
    })
    .join(', ')
}

/** A run of consecutive lines a blame gives to one commit (the pending change has hash ""). */
export interface BlameRun {
  commit: BlameCommit
  lines: { line: number; text: string }[]
}

/** blameRuns groups a blame's lines into runs of one commit, as GitHub's blame shows them. */
export function blameRuns(b: Blame): BlameRun[] {
  const out: BlameRun[] = []
  for (const l of b.lines) {
    const commit = l.commit === '' ? b.pending : b.commits[l.commit]
    if (!commit) continue
    const last = out.at(-1)
    if (last && last.commit.hash === commit.hash) last.lines.push({ line: l.line, text: l.text })
    else out.push({ commit, lines: [{ line: l.line, text: l.text }] })
  }
  return out
}
