// The git store: the open library's pending changes by change set, the chosen ones, the
// diff and history of the focused change. Talks only to src/api.
import type { Api, Change, ChangeSet, ChangeState, Commit, FileDiff, GitRevision, GitStatus } from '../api'
import { allChanges, pendingMap, pruneChoice } from '../lib/changesets'
import { t, tn } from '../lib/i18n.svelte'

/** How many commits of a note's history the panel lists. */
export const HISTORY_LIMIT = 50

export class GitStore {
  library = $state('')
  status = $state.raw<GitStatus | null>(null)
  /** Paths chosen for commit or discard. */
  chosen = $state.raw<ReadonlySet<string>>(new Set())
  /** The change set shown in the graph as a diff (its id), or null. */
  graphSet = $state<string | null>(null)
  /** The change set shown in the graph, while it has pending changes. */
  get shownSet(): ChangeSet | null {
    return this.status?.change_sets.find((s) => s.id === this.graphSet) ?? null
  }
  /** showInGraph shows a change set in the graph, or stops showing it. */
  showInGraph(id: string) {
    this.graphSet = this.graphSet === id ? null : id
  }
  /** The change whose diff is shown. */
  focused = $state.raw<Change | null>(null)
  diff = $state.raw<FileDiff | null>(null)
  /** The note whose history is shown, and its commits. */
  historyPath = $state<string | null>(null)
  history = $state.raw<Commit[]>([])
  /** A revision being previewed from the history. */
  preview = $state.raw<GitRevision | null>(null)
  busy = $state(false)
  error = $state<string | null>(null)
  /** The last thing done, for a polite live region. */
  notice = $state('')
  /** What a push or pull is doing ('' when none runs), and the remote's last message. */
  syncing = $state<'' | 'push' | 'pull'>('')
  progress = $state('')
  /** Why the last commit was refused for want of a name and email, or '' when it was not. */
  needsIdentity = $state('')
  /** Files a pull left with both versions between conflict markers. */
  conflicts = $state.raw<string[]>([])
  pending = $derived<ReadonlyMap<string, ChangeState>>(pendingMap(this.status?.change_sets ?? []))

  private seq = 0
  private diffSeq = 0
  private historySeq = 0

  constructor(private readonly api: Api) {}

  /** refresh refetches the status of a library (the current one when omitted). */
  async refresh(library = this.library): Promise<void> {
    if (library !== this.library) {
      this.library = library
      this.chosen = new Set()
      this.focused = null
      this.diff = null
      this.historyPath = null
      this.history = []
      this.preview = null
    }
    if (!library) {
      this.seq++
      this.status = null
      return
    }
    const seq = ++this.seq
    try {
      const st = await this.api.git.status(library)
      if (seq !== this.seq) return
      this.status = st
      this.chosen = pruneChoice(st.change_sets, this.chosen)
      this.error = null
      const f = this.focused
      const still = f && allChanges(st.change_sets).find((c) => c.path === f.path)
      if (still) void this.focus(still)
      else {
        this.focused = null
        this.diff = null
      }
      if (this.historyPath) void this.loadHistory(this.historyPath)
    } catch (e) {
      if (seq === this.seq) this.error = message(e)
    }
  }

  /** choose sets which paths are chosen. */
  choose(paths: Iterable<string>): void {
    this.chosen = new Set(paths)
  }

  /** toggle chooses or unchooses one path. */
  toggle(path: string): void {
    const next = new Set(this.chosen)
    if (next.has(path)) next.delete(path)
    else next.add(path)
    this.chosen = next
  }

  /** focus shows the diff of a change and the history of its note. */
  async focus(c: Change): Promise<void> {
    this.focused = c
    const seq = ++this.diffSeq
    try {
      const d = await this.api.git.diff(this.library, c.path, c.from ?? '')
      if (seq !== this.diffSeq) return
      this.diff = d
      this.error = null
    } catch (e) {
      if (seq === this.diffSeq) this.error = message(e)
    }
  }

  /** loadHistory lists the commits that changed a note. */
  async loadHistory(path: string): Promise<void> {
    if (path !== this.historyPath) this.preview = null
    this.historyPath = path
    const seq = ++this.historySeq
    try {
      const h = this.status?.head ? await this.api.git.log(this.library, path, HISTORY_LIMIT) : []
      if (seq !== this.historySeq) return
      this.history = h
    } catch (e) {
      if (seq === this.historySeq) this.error = message(e)
    }
  }

  /** showRevision previews a note as it was at a commit. */
  async showRevision(path: string, rev: string): Promise<void> {
    await this.run(async () => {
      this.preview = await this.api.git.show(this.library, path, rev)
    })
  }

  /**
   * commit records the chosen changes (all of them when none is chosen). It reports
   * false, with needsIdentity set, when git names nobody to sign with.
   */
  async commit(message: string, tag: string, tagDescription = ''): Promise<boolean> {
    const paths = [...this.chosen]
    let refused = false
    const ok = await this.run(async () => {
      const r = await this.api.git.commit(this.library, { paths, message, tag, ...(tag && tagDescription ? { tag_description: tagDescription } : {}) })
      if (r.needs_identity) {
        this.needsIdentity = r.refused || t('git.identity.needed')
        refused = true
        return
      }
      this.needsIdentity = ''
      this.notice = [
        tn('git.notice.committed', r.paths.length, { hash: r.hash.slice(0, 7), tagged: tag ? t('git.notice.tagged', { tag }) : '' }),
        ...(r.warnings ?? []),
      ].join(' ')
      this.chosen = new Set()
    })
    return ok && !refused
  }

  /**
   * setIdentityAndCommit saves the name and email in the repository's configuration,
   * then makes the commit that was refused without them: one step for the person.
   */
  async setIdentityAndCommit(name: string, email: string, message: string, tag: string, tagDescription = ''): Promise<boolean> {
    const saved = await this.run(async () => {
      await this.api.git.setIdentity(this.library, name, email)
      this.needsIdentity = ''
    })
    return saved && (await this.commit(message, tag, tagDescription))
  }

  /** discard throws away the changes of paths; the caller has confirmed. */
  async discard(paths: string[]): Promise<boolean> {
    return this.run(async () => {
      const done = await this.api.git.discard(this.library, paths)
      this.notice = tn('git.notice.discarded', done.length)
      this.chosen = new Set([...this.chosen].filter((p) => !paths.includes(p)))
    })
  }

  /** restore brings a note back as it was at a commit, as a pending change. */
  async restore(path: string, rev: string): Promise<boolean> {
    return this.run(async () => {
      const changed = await this.api.git.restore(this.library, path, rev)
      const short = rev.slice(0, 7)
      this.notice = changed ? t('git.notice.restored', { path, rev: short }) : t('git.notice.alreadyMatches', { path, rev: short })
      this.preview = null
    })
  }

  /** init makes the library a git repository. */
  async init(): Promise<boolean> {
    return this.run(async () => {
      this.status = await this.api.git.init(this.library)
      this.notice = t('git.notice.initialised')
    })
  }

  /** push sends the branch to the remote. */
  async push(): Promise<boolean> {
    return this.sync('push', async () => {
      const r = await this.api.git.push(this.library)
      const p = { remote: r.remote, branch: r.branch }
      this.notice = r.up_to_date ? t('git.notice.upToDate', p) : t('git.notice.pushed', p)
    })
  }

  /** pull brings in the remote's commits, keeping local edits; conflicts are listed. */
  async pull(): Promise<boolean> {
    return this.sync('pull', async () => {
      const r = await this.api.git.pull(this.library)
      this.conflicts = r.conflicts ?? []
      this.notice = pullNotice(r.outcome, r.updated?.length ?? 0, this.conflicts.length)
    })
  }

  /** progressLine shows a remote's message while a push or pull runs. */
  progressLine(text: string): void {
    if (this.syncing) this.progress = text
  }

  private async sync(kind: 'push' | 'pull', fn: () => Promise<void>): Promise<boolean> {
    this.syncing = kind
    this.progress = ''
    try {
      return await this.run(fn)
    } finally {
      this.syncing = ''
      this.progress = ''
    }
  }

  /** run does one write, then refreshes; it reports success and keeps the write's error. */
  private async run(fn: () => Promise<void>): Promise<boolean> {
    this.busy = true
    let failure: string | null = null
    try {
      await fn()
    } catch (e) {
      failure = message(e)
    }
    this.busy = false
    await this.refresh()
    if (failure !== null) this.error = failure
    return failure === null
  }
}

/** pullNotice says in words what a pull did, in the window's language. */
export function pullNotice(outcome: string, updated: number, conflicts: number): string {
  const files = { files: tn('git.files', updated) }
  const base =
    outcome === 'up_to_date'
      ? t('git.notice.pullUpToDate')
      : outcome === 'merged'
        ? t('git.notice.merged', files)
        : outcome === 'conflict'
          ? t('git.notice.mergedConflicts')
          : t('git.notice.pulled', files)
  if (conflicts === 0) return base
  return t('git.notice.join', { a: base, b: tn('git.notice.keepBoth', conflicts, { files: tn('git.files', conflicts) }) })
}

function message(e: unknown): string {
  return e instanceof Error ? e.message : String(e)
}
