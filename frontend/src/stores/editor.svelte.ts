// The editor store: the text being edited, the version of the note it started from,
// and what happened at the last save. Saving is a compare-and-swap on the note's
// hash, so an edit made elsewhere meanwhile (Obsidian, the agent, git) is never
// overwritten silently: the store goes to "conflict" and keeps both texts until the
// person reloads, overwrites, or keeps editing.
import type { Api, NoteView } from '../api'

export type EditStatus = 'clean' | 'dirty' | 'saving' | 'saved' | 'conflict' | 'deleted' | 'error'

export class EditorStore {
  /** The note being edited, or null when not editing. */
  path = $state<string | null>(null)
  library = ''
  /** The editor's current text. */
  text = $state('')
  /** The text as last loaded or saved; dirty when text differs. */
  base = $state('')
  /** The hash of the version `base` was loaded from or saved as. */
  baseHash = ''
  status = $state<EditStatus>('clean')
  /** On a conflict: the text on disk now, and its hash. */
  theirs = $state('')
  theirsHash = ''
  error = $state<string | null>(null)
  /** Bumped whenever the text is replaced from outside the editor (load, reload). */
  revision = $state(0)
  dirty = $derived(this.path !== null && this.text !== this.base)
  /** Hashes of versions a save of ours replaced: a copy of them arriving late is stale. */
  private superseded = new Set<string>()

  constructor(private readonly api: Api) {}

  /** begin edits a note, starting from the version the window shows. */
  begin(note: NoteView): void {
    this.library = note.library
    this.path = note.path
    this.superseded.clear()
    this.load(note.content, note.hash)
  }

  /** stop leaves editing. The caller asks first when the text is dirty. */
  stop(): void {
    this.path = null
    this.status = 'clean'
    this.error = null
  }

  /** input records the editor's text. */
  input(text: string): void {
    this.text = text
    if (this.status !== 'conflict' && this.status !== 'deleted' && this.status !== 'saving') {
      this.status = this.dirty ? 'dirty' : 'clean'
    }
  }

  /** save writes the text if the note is still the version it was loaded from. */
  async save(): Promise<void> {
    if (this.path === null || this.status === 'saving') return
    await this.write(this.baseHash)
  }

  /** overwrite saves over the version on disk after a conflict, on purpose. */
  async overwrite(): Promise<void> {
    if (this.path === null || (this.status !== 'conflict' && this.status !== 'deleted')) return
    await this.write(this.status === 'deleted' ? '' : this.theirsHash)
  }

  /** reload drops the edits and takes the version on disk. */
  reload(): void {
    if (this.status === 'conflict') this.load(this.theirs, this.theirsHash)
  }

  /**
   * noteChanged is told of every fresh copy of the open note (after a vault:changed
   * event). An unedited text follows it; an edited one goes to conflict.
   */
  noteChanged(note: NoteView): void {
    if (this.path === null || note.path !== this.path || note.hash === this.baseHash) return
    if (this.status === 'saving') return // our own save coming back
    if (this.superseded.has(note.hash)) return // a copy older than our last save
    if (!this.dirty) {
      this.load(note.content, note.hash)
      return
    }
    this.theirs = note.content
    this.theirsHash = note.hash
    this.status = 'conflict'
  }

  private load(content: string, hash: string): void {
    this.text = content
    this.base = content
    this.baseHash = hash
    this.theirs = ''
    this.theirsHash = ''
    this.status = 'clean'
    this.error = null
    this.revision++
  }

  private async write(ifHash: string): Promise<void> {
    const path = this.path
    if (path === null) return
    const text = this.text
    this.status = 'saving'
    try {
      const res = await this.api.saveNote(this.library, path, text, ifHash)
      if (this.path !== path) return
      if (res.conflict) {
        this.theirs = res.current ?? ''
        this.theirsHash = res.hash
        this.status = res.deleted ? 'deleted' : 'conflict'
        return
      }
      for (const h of [this.baseHash, this.theirsHash, ifHash]) if (h) this.superseded.add(h)
      this.superseded.delete(res.hash)
      this.base = text
      this.baseHash = res.hash
      this.error = null
      this.status = this.text === text ? 'saved' : 'dirty'
    } catch (e) {
      this.error = e instanceof Error ? e.message : String(e)
      this.status = 'error'
    }
  }
}
