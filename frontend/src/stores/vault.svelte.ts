// The vault store: libraries, the open library's files, and the open note with the
// notes it embeds. Talks only to src/api.
import type { Api, FileEntry, LibrariesChange, LibraryInfo, NoteView, VaultChange } from '../api'
import { typeColors, UNTYPED_COLOR } from '../lib/colors'
import { afterNextFrame } from '../lib/frames'
import { t } from '../lib/i18n.svelte'
import { embedTargets } from '../lib/markdown'
import { makeResolver } from '../lib/resolve'

/** The most embedded notes fetched for one open note. */
const MAX_EMBEDS = 24

/** The longest quiet() waits for a note's answer. */
export const QUIET_LIMIT_MS = 3000

export class VaultStore {
  libraries = $state.raw<LibraryInfo[]>([])
  /** The list of libraries has been fetched (none open means the welcome). */
  librariesLoaded = $state(false)
  library = $state('')
  /** Why the library shown last was closed (its folder deleted or moved), '' when not. */
  goneNotice = $state('')
  files = $state.raw<FileEntry[]>([])
  filesLoaded = $state(false)
  /**
   * The file tree's first rows have been on screen (painted), or there was no tree to
   * wait for. The graph makes its first drawing only then: in software WebGL a big
   * drawing holds the window's thread for a second or more.
   */
  treeShown = $state(false)
  /** Vault path of the open note, or null. */
  selected = $state<string | null>(null)
  note = $state.raw<NoteView | null>(null)
  embeds = $state.raw<ReadonlyMap<string, NoteView>>(new Map())
  /** Heading or block the view should scroll to once the note shows. */
  subpath = $state('')
  error = $state<string | null>(null)
  noteError = $state<string | null>(null)
  resolver = $derived(makeResolver(this.files))
  /** The folder of the library shown, '' when none is. */
  vaultDir = $derived(this.libraries.find((l) => l.name === this.library)?.path ?? '')
  noteCount = $derived(this.files.filter((f) => f.is_note).length)
  /** The colour of each entity type of the library, the graph's own (typeColors). */
  typeColors = $derived(typeColors(this.files.filter((f) => f.is_note).map((f) => f.entity_type ?? '')))

  /** Describes the window's panels for the render report (set by the window). */
  describeLayout: () => string = () => ''

  private noteSeq = 0
  private filesSeq = 0
  private reported = new Set<string>()

  constructor(private readonly api: Api) {}

  /** colorOf returns an entity type's colour in this library ("" is untyped). */
  colorOf(type: string): string {
    return this.typeColors.get(type.trim().toLowerCase()) ?? UNTYPED_COLOR
  }

  /** init loads the libraries, picks the default one and its files. */
  async init(initialPath = ''): Promise<void> {
    // The default library's files ('' names it) are asked for beside the list of
    // libraries, not after it: on a big vault being scanned both wait for the scan's
    // walk of the folder, and one after the other put a round trip more before the tree.
    const early = this.api.files('').catch(() => null)
    // And they are shown as soon as they are in, before the list of libraries: on a big
    // vault the window's thread may be busy for a while once the graph's answer is in
    // too (drawing it), and the tree must not wait behind that for a second answer.
    const seq = this.filesSeq
    void early.then((files) => {
      if (!files || seq !== this.filesSeq || this.filesLoaded) return
      this.files = files
      this.filesLoaded = true
    })
    try {
      const libs = await this.api.libraries()
      this.libraries = libs
      this.librariesLoaded = true
      this.library = (libs.find((l) => l.is_default) ?? libs[0])?.name ?? ''
      if (this.library === '') {
        this.filesLoaded = true
        return
      }
      await this.loadFiles(libs.find((l) => l.is_default)?.name === this.library ? early : null)
      if (initialPath && this.files.some((f) => f.path === initialPath)) await this.open(initialPath)
    } catch (e) {
      this.error = message(e)
    }
  }

  /** switchLibrary opens another library and closes the note. */
  async switchLibrary(name: string): Promise<void> {
    if (name === this.library) return
    this.show(name)
    if (name) this.api.activateVault(name).catch((e: unknown) => console.warn('memotree: activateVault', e))
    if (name) await this.loadFiles()
  }

  /** show makes `name` the library shown ('' for none), with no note open. */
  private show(name: string): void {
    this.library = name
    this.selected = null
    this.note = null
    this.embeds = new Map()
    this.noteError = null
    this.error = null
    this.files = []
    this.filesLoaded = name === ''
    this.filesSeq++
  }

  /**
   * applyLibraries follows a libraries:changed event: the list is refetched; a vault
   * just opened is shown; when the one shown was closed, the default is shown, or
   * none (the welcome). It returns the library shown afterwards.
   */
  async applyLibraries(e: LibrariesChange): Promise<string> {
    try {
      this.libraries = await this.api.libraries()
      this.librariesLoaded = true
    } catch (err) {
      this.error = message(err)
      return this.library
    }
    const names = this.libraries.map((l) => l.name)
    if (e.gone && e.closed) this.goneNotice = t('vault.folderGone', { name: e.closed, path: e.path })
    if (e.opened && names.includes(e.opened)) {
      this.goneNotice = ''
      await this.switchLibrary(e.opened)
    } else if (!names.includes(this.library)) {
      const next = (this.libraries.find((l) => l.is_default) ?? this.libraries[0])?.name ?? ''
      this.show(next)
      if (next) await this.loadFiles()
    }
    return this.library
  }

  /**
   * loadFiles fetches the files of the library shown; `early` is an answer already
   * asked for (the default library's, by init), used unless it failed.
   */
  async loadFiles(early: Promise<FileEntry[] | null> | null = null): Promise<void> {
    const seq = ++this.filesSeq
    const lib = this.library
    if (!lib) return
    try {
      const files = (early && (await early)) || (await this.api.files(lib))
      if (seq !== this.filesSeq) return
      this.files = files
      this.error = null
    } catch (e) {
      if (seq === this.filesSeq) this.error = message(e)
    } finally {
      if (seq === this.filesSeq) this.filesLoaded = true
    }
  }

  /** open shows a note, optionally scrolled to a heading or ^block. */
  async open(path: string, subpath = ''): Promise<void> {
    this.subpath = subpath
    if (path === this.selected && this.note?.path === path) return
    this.selected = path
    await this.loadNote()
  }

  /** Notes being loaded or not painted yet, and who waits for none to be (see quiet). */
  private loading = 0
  private quietWaiters: (() => void)[] = []

  /**
   * quiet resolves once no note is being loaded and the frame that shows the last one
   * has been made. Heavy work that draws (a big graph's drawing, a second or more in
   * software WebGL) waits for it: a note the person asked for is painted first.
   */
  quiet(): Promise<void> {
    if (this.loading === 0) return Promise.resolve()
    // A note whose answer never comes holds nothing back for long.
    return new Promise((resolve) => {
      this.quietWaiters.push(resolve)
      setTimeout(resolve, QUIET_LIMIT_MS)
    })
  }

  /** loaded ends a note's load once the frame that shows it has been made. */
  private loaded(): void {
    afterNextFrame(() => {
      if (--this.loading > 0) return
      const waiters = this.quietWaiters
      this.quietWaiters = []
      for (const w of waiters) w()
    })
  }

  /** loadNote (re)fetches the open note and the notes it embeds. */
  async loadNote(): Promise<void> {
    const path = this.selected
    const seq = ++this.noteSeq
    if (path === null) {
      this.note = null
      return
    }
    const lib = this.library
    this.loading++
    try {
      const n = await this.api.note(lib, path)
      const targets = embedTargets(n).slice(0, MAX_EMBEDS)
      const embedded = await Promise.all(targets.map((p) => this.api.note(lib, p).catch(() => null)))
      if (seq !== this.noteSeq) return
      const map = new Map<string, NoteView>()
      for (const e of embedded) if (e) map.set(e.path, e)
      this.note = n
      this.embeds = map
      this.noteError = null
    } catch (e) {
      if (seq !== this.noteSeq) return
      this.note = null
      this.noteError = message(e)
    } finally {
      this.loaded()
    }
  }

  /** applyChange refetches what a vault:changed event may have made stale. */
  async applyChange(e: Pick<VaultChange, 'library' | 'rescan'>): Promise<void> {
    if (e.library !== '' && e.library !== this.library) return
    await Promise.all([this.loadFiles(), this.loadNote()])
    if (this.selected !== null && !this.files.some((f) => f.path === this.selected)) {
      this.noteError = t('vault.gone', { path: this.selected })
      this.note = null
    }
  }

  /**
   * markTreeShown records that the tree's rows are in the page: treeShown turns true
   * once the frame that holds them has been made.
   */
  markTreeShown(): void {
    if (this.treeShown || this.treeShownPending) return
    this.treeShownPending = true
    afterNextFrame(() => (this.treeShown = true))
  }
  private treeShownPending = false

  /** reportRendered tells the backend, once per library, that its tree rendered `count` notes. */
  reportRendered(count: number): void {
    const lib = this.library
    if (!lib || this.reported.has(lib)) return
    this.reported.add(lib)
    this.api.reportRendered({ library: lib, notes: count, layout: this.describeLayout() }).catch((e: unknown) => console.warn('memotree: reportRendered', e))
  }
}

function message(e: unknown): string {
  return e instanceof Error ? e.message : String(e)
}
