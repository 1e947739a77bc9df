// The review store: keeping and undoing hunks of the pending changes the git store
// shows, the person's feedback to the agent whose change was undone, and the blame of
// the open note. Talks only to src/api; the git store holds the status and the diff.
import type { Api, Blame, BlameCommit, Change, ChangeSet, FileDiff, Hunk } from '../api'
import { t } from '../lib/i18n.svelte'
import { allKept, chatOf, diffKeys, feedbackMessage, hunkKey, type Undone } from '../lib/review'
import type { GitStore } from './git.svelte'

/** An offer to tell a chat why its change was undone. */
export interface Feedback {
  session: string
  undone: Undone
}

/** Sends the person's message to a chat session; false when the chat cannot take it now. */
export type TellAgent = (session: string, message: string) => Promise<boolean>

export class ReviewStore {
  /** The hunks the person kept, by path (see hunkKey). */
  kept = $state.raw<ReadonlyMap<string, ReadonlySet<string>>>(new Map())
  /** The paths whose last known diff was kept whole. */
  private wholly = $state.raw<ReadonlySet<string>>(new Set())
  /** The offer to tell the agent why, after an undo of its change; null when none. */
  feedback = $state.raw<Feedback | null>(null)
  feedbackError = $state('')
  /** The blame of the open note while the blame view is open. */
  blameOpen = $state(false)
  blame = $state.raw<Blame | null>(null)
  blameError = $state('')
  /** A commit's diff, opened from a blame line. */
  commit = $state.raw<{ commit: BlameCommit; diff: FileDiff } | null>(null)
  busy = $state(false)

  private blameSeq = 0

  constructor(
    private readonly api: Api,
    private readonly git: GitStore,
    private readonly tell: TellAgent,
  ) {}

  /** isKept says whether a hunk of a path was kept. */
  isKept(path: string, h: Hunk): boolean {
    return this.kept.get(path)?.has(hunkKey(h)) ?? false
  }

  /** reviewed says whether every hunk of the diff was kept. */
  reviewed(d: FileDiff): boolean {
    return allKept(d, this.kept.get(d.path))
  }

  /** reviewedPath says whether a pending change was kept whole (Keep on each hunk, or Keep all). */
  reviewedPath(path: string): boolean {
    return this.wholly.has(path)
  }

  /** keep marks a hunk reviewed, or reviewed no more. */
  keep(d: FileDiff, h: Hunk, on = !this.isKept(d.path, h)): void {
    const next = new Set(this.kept.get(d.path) ?? [])
    if (on) next.add(hunkKey(h))
    else next.delete(hunkKey(h))
    this.setKept(d, next)
  }

  private setKept(d: FileDiff, keys: Set<string>): void {
    const m = new Map(this.kept)
    m.set(d.path, keys)
    this.kept = m
    const w = new Set(this.wholly)
    if (allKept(d, keys)) w.add(d.path)
    else w.delete(d.path)
    this.wholly = w
  }

  /** keepAll marks every hunk of every change of a set reviewed. */
  async keepAll(set: ChangeSet): Promise<void> {
    await this.run(async () => {
      for (const c of set.changes) {
        const d = await this.api.git.diff(this.git.library, c.path, c.from ?? '')
        this.setKept(d, new Set([...(this.kept.get(c.path) ?? []), ...diffKeys(d)]))
      }
    })
  }

  /** recheck forgets a kept change that changed since (a new edit is to be reviewed again). */
  async recheck(set: ChangeSet): Promise<void> {
    for (const c of set.changes) {
      if (!this.wholly.has(c.path)) continue
      try {
        const d = await this.api.git.diff(this.git.library, c.path, c.from ?? '')
        if (!this.reviewed(d)) this.setKept(d, new Set(this.kept.get(c.path) ?? []))
      } catch {
        // The change went meanwhile: the next status drops it.
      }
    }
  }

  /** setOf returns the change set a path's pending change is in. */
  setOf(path: string): ChangeSet | undefined {
    return this.git.status?.change_sets.find((s) => s.changes.some((c) => c.path === path))
  }

  /**
   * undoHunk puts one hunk back as last committed. A note saved since its diff was
   * shown is left alone: its diff of now is shown instead. Undoing an agent turn's
   * hunk offers to tell that chat why.
   */
  async undoHunk(d: FileDiff, h: Hunk): Promise<void> {
    const set = this.setOf(d.path)
    await this.run(async () => {
      const r = await this.api.git.undoHunks(this.git.library, { path: d.path, from: d.from ?? '', hunks: [h.number], base: d.base ?? '' })
      this.git.diff = r.diff
      if (r.stale) {
        this.git.notice = t('review.notice.stale', { path: d.path })
        return
      }
      this.git.notice = t('review.notice.undone', { n: h.number, path: d.path })
      const session = chatOf(set)
      if (session) this.offer(session, { kind: 'hunks', path: d.path, hunks: r.undone })
    })
    await this.git.refresh()
  }

  /** undoAll throws away every change of a set (the caller confirmed) and offers feedback. */
  async undoAll(set: ChangeSet, changes: Change[]): Promise<void> {
    const ok = await this.git.discard(changes.map((c) => c.path))
    const session = chatOf(set)
    if (ok && session) this.offer(session, { kind: 'set', paths: changes.map((c) => c.path) })
  }

  private offer(session: string, undone: Undone): void {
    this.feedback = { session, undone }
    this.feedbackError = ''
  }

  /** sendFeedback sends the person's reason, with what was undone, to the chat. */
  async sendFeedback(why: string): Promise<boolean> {
    const f = this.feedback
    if (!f || why.trim() === '') return false
    const sent = await this.tell(f.session, feedbackMessage(f.undone, why))
    if (!sent) {
      this.feedbackError = t('review.feedback.busy')
      return false
    }
    this.feedback = null
    this.git.notice = t('review.notice.sent')
    return true
  }

  dismissFeedback(): void {
    this.feedback = null
  }

  /** showBlame opens or closes the blame view. */
  showBlame(open: boolean): void {
    this.blameOpen = open
    if (!open) {
      this.blame = null
      this.commit = null
    }
  }

  /** loadBlame reads the blame of a note (the blame view is open). */
  async loadBlame(path: string): Promise<void> {
    const seq = ++this.blameSeq
    try {
      const b = await this.api.git.blame(this.git.library, path)
      if (seq !== this.blameSeq) return
      this.blame = b
      this.blameError = ''
      if (this.commit && this.commit.diff.path !== path) this.commit = null
    } catch (e) {
      if (seq === this.blameSeq) {
        this.blame = null
        this.blameError = message(e)
      }
    }
  }

  /** openCommit shows the change a blame line's commit made; for a pending line, the pending diff. */
  async openCommit(c: BlameCommit, path: string): Promise<void> {
    if (c.hash === '') {
      const change = this.git.status?.change_sets.flatMap((s) => s.changes).find((x) => x.path === path || x.from === path)
      if (change) await this.git.focus(change)
      return
    }
    try {
      const diff = await this.api.git.commitDiff(this.git.library, c.hash, c.path ?? path, c.previous_path ?? '')
      this.commit = { commit: c, diff }
    } catch (e) {
      this.blameError = message(e)
    }
  }

  private async run(fn: () => Promise<void>): Promise<void> {
    this.busy = true
    try {
      await fn()
      this.git.error = null
    } catch (e) {
      this.git.error = message(e)
    } finally {
      this.busy = false
    }
  }
}

function message(e: unknown): string {
  return e instanceof Error ? e.message : String(e)
}
