// The review panel's conflicts and backups: the conflicted notes of the open library,
// the one shown three-way and its resolution; the library's backup settings and how
// the backup stands. Talks only to src/api.
import type { Api, BackupSettings, ConflictDetail, ConflictSummary, GitBackup, Operation, ResolveTake } from '../api'
import { debounce } from '../lib/debounce'
import { t } from '../lib/i18n.svelte'

export class ConflictStore {
  library = $state('')
  /** The conflicted notes, as the last status listed them. */
  list = $state.raw<ConflictSummary[]>([])
  operation = $state.raw<Operation | null>(null)
  /** The note shown three-way, and what it shows. */
  shown = $state<string | null>(null)
  detail = $state.raw<ConflictDetail | null>(null)
  busy = $state(false)
  error = $state<string | null>(null)
  notice = $state('')
  private seq = 0

  constructor(private readonly api: Api) {}

  /**
   * sync takes the conflicts of a fresh status: the first opens when none is shown (a
   * pull that leaves conflicts opens them), the one shown is read again, and a note
   * resolved meanwhile closes.
   */
  async sync(library: string, list: ConflictSummary[], operation: Operation | null): Promise<void> {
    if (library !== this.library) {
      this.library = library
      this.shown = null
      this.detail = null
      this.notice = ''
    }
    this.list = list
    this.operation = operation
    if (list.length === 0 && operation?.kind !== 'merge') this.notice = '' // the merge is committed: nothing left to say
    const still = list.find((c) => c.path === this.shown)
    const next = still?.path ?? list[0]?.path ?? null
    if (next === null) {
      this.shown = null
      this.detail = null
      return
    }
    await this.show(next)
  }

  /** show reads a conflicted note's sides and hunks. */
  async show(path: string): Promise<void> {
    this.shown = path
    const seq = ++this.seq
    try {
      const d = await this.api.git.conflict(this.library, path)
      if (seq !== this.seq) return
      this.detail = d
      this.error = null
    } catch (e) {
      if (seq === this.seq) this.error = message(e)
    }
  }

  /** resolve takes a side for the numbered hunks (all when none is given). */
  async resolve(take: ResolveTake, hunks: number[] = []): Promise<boolean> {
    return this.send({ take, hunks })
  }

  /** saveByHand resolves the note shown with the text the person wrote. */
  async saveByHand(content: string): Promise<boolean> {
    return this.send({ take: '', hunks: [], content })
  }

  private async send(req: { take: ResolveTake | ''; hunks: number[]; content?: string }): Promise<boolean> {
    const d = this.detail
    if (!d) return false
    this.busy = true
    try {
      const r = await this.api.git.resolve(this.library, { path: d.path, if_hash: d.working_hash, ...req })
      this.error = null
      if (r.resolved) {
        this.notice = t('conflict.resolved', { path: d.path })
        const left = this.list.filter((c) => c.path !== d.path)
        if (left.length === 0 && this.operation?.kind === 'merge') this.notice = t('conflict.allResolved')
      }
      await this.show(d.path).catch(() => undefined)
      return true
    } catch (e) {
      this.error = message(e)
      return false
    } finally {
      this.busy = false
    }
  }
}

export class BackupStore {
  library = $state('')
  view = $state.raw<GitBackup | null>(null)
  error = $state<string | null>(null)
  notice = $state('')
  busy = $state(false)
  private seq = 0

  constructor(private readonly api: Api) {}

  /** load reads a library's backup settings and state ('' clears them). */
  async load(library = this.library): Promise<void> {
    if (library !== this.library) {
      this.library = library
      this.view = null
      this.notice = ''
    }
    const seq = ++this.seq
    if (!library) return
    try {
      const v = await this.api.git.backup(library)
      if (seq !== this.seq) return
      this.view = v
      this.error = null
    } catch (e) {
      if (seq === this.seq) {
        this.view = null
        this.error = message(e)
      }
    }
  }

  /** save keeps the settings and applies them. */
  async save(settings: BackupSettings): Promise<boolean> {
    this.busy = true
    try {
      this.view = await this.api.git.saveBackup(this.library, settings)
      this.notice = this.view.serving ? t('backup.saved') : t('backup.notServed')
      this.error = null
      return true
    } catch (e) {
      this.error = message(e)
      return false
    } finally {
      this.busy = false
    }
  }
}

/** How long a burst of git:changed events may last before the backup is read again. */
export const BACKUP_LIVE_DEBOUNCE_MS = 200

/** SyncStore holds the conflicts and the backup of the open library. */
export class SyncStore {
  readonly conflicts: ConflictStore
  readonly backup: BackupStore

  constructor(private readonly api: Api) {
    this.conflicts = new ConflictStore(api)
    this.backup = new BackupStore(api)
  }

  /** connect keeps the backup current on git:changed events; returns the unsubscribe. */
  connect(): () => void {
    const flush = debounce(() => void this.backup.load(), BACKUP_LIVE_DEBOUNCE_MS)
    const off = this.api.on('git:changed', (e) => {
      if (!e.library || e.library === this.backup.library) flush()
    })
    return () => {
      flush.cancel()
      off()
    }
  }
}

function message(e: unknown): string {
  return e instanceof Error ? e.message : String(e)
}
