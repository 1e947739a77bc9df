// The graph store: the open library's whole graph, and how the person looks at it
// (global or local, depth, search, relation filter; the graph's settings are the
// vault's, in VaultSettingsStore). Talks only to src/api.
import type { Api, GraphData, GraphViewSettings, NoteBefore } from '../api'
import { VaultSettingsStore } from './vaultSettings.svelte'

/** Whole library, or the notes around the open one. */
export type GraphMode = 'global' | 'local'

/** The deepest local graph offered. */
export const MAX_DEPTH = 3

export class GraphStore {
  data = $state.raw<GraphData | null>(null)
  error = $state<string | null>(null)
  mode = $state<GraphMode>('global')
  depth = $state(1)
  query = $state('')
  /** Relation types whose edges are hidden ("links to" and "embeds" included). */
  hiddenRelations = $state.raw<ReadonlySet<string>>(new Set())
  /** Whether the settings panel is open. */
  settingsOpen = $state(false)
  /** How many times the person asked to fit the drawing to the panel (the view follows). */
  fitRequests = $state(0)
  /**
   * The last layout of the global graph, by node id (plain, not reactive: it is large
   * and only read when the view is built again), so reopening the pane does not lay
   * the graph out anew.
   */
  positions: Map<string, { x: number; y: number }> | null = null
  private seq = 0
  private library = ''
  /** The default library's graph, asked for before the library's name is known. */
  private early: Promise<GraphData | null> | null = null
  /** Whether the data is the early answer, shown before the first load. */
  private earlyShown = false

  constructor(
    private readonly api: Api,
    /** The open vault's settings, the graph's among them. */
    readonly settings: VaultSettingsStore = new VaultSettingsStore(api),
  ) {}

  /**
   * How the graph is shown (filters, groups, display, forces), saved per library;
   * null until the backend has answered (the graph is drawn only then).
   */
  get view(): GraphViewSettings | null {
    return this.settings.settings?.graph ?? null
  }

  /** What of the saved or Obsidian's settings could not be read, or saved. */
  get viewWarnings(): string[] {
    const e = this.settings.error
    return e ? [...this.settings.warnings, e] : this.settings.warnings
  }

  /**
   * prefetch asks for the default library's graph at once, before the window knows the
   * library's name: the first load of that library takes this answer.
   */
  prefetch() {
    void this.settings.load('')
    const early = this.api.graph('').catch(() => null)
    this.early = early
    // The answer is shown as soon as it is in, before the window knows the library's
    // name: it is the default library's graph, the library the window opens (see
    // VaultStore.init), and load takes it as it is.
    void early.then((d) => {
      if (!d || this.early !== early || this.seq !== 0) return
      this.early = null
      this.earlyShown = true
      this.library = d.library
      this.data = d
      performance.mark('graph:response')
    })
  }

  /** load fetches the graph of a library; a newer call wins over an older one. */
  async load(library: string): Promise<void> {
    const seq = ++this.seq
    const early = this.early
    this.early = null
    const shown = this.earlyShown
    this.earlyShown = false
    // The first load of the library the early answer was of: it is on screen already.
    if (shown && library === this.library && this.data) return
    try {
      let d = early ? await early : null
      if (d?.library !== library) {
        performance.mark('graph:request')
        d = await this.api.graph(library)
      }
      performance.mark('graph:response')
      if (seq !== this.seq) return
      if (library !== this.library) this.positions = null
      if (library !== this.settings.library) void this.settings.load(library)
      this.library = library
      this.data = d
      this.error = null
    } catch (e) {
      if (seq === this.seq) this.error = e instanceof Error ? e.message : String(e)
    }
  }

  /** clear forgets the graph shown (no library is open). */
  clear() {
    this.seq++
    this.early = null
    this.earlyShown = false
    this.library = ''
    this.data = null
    this.positions = null
    this.error = null
    this.settings.clear()
  }

  /** updateView changes the graph's settings and saves them (once the changes pause). */
  updateView(patch: Partial<GraphViewSettings>) {
    void this.settings.update('graph', patch)
  }

  /** toggleGroup shows or hides the nodes of a colour group (by its query). */
  toggleGroup(query: string) {
    if (!this.view) return
    const hidden = this.view.hidden_groups
    this.updateView({ hidden_groups: hidden.includes(query) ? hidden.filter((q) => q !== query) : [...hidden, query] })
  }

  /** before reads the notes at paths as the last commit has them (a change set's before-state). */
  before(paths: string[]): Promise<NoteBefore[]> {
    return this.api.graphBefore(this.library, paths)
  }

  /** requestFit asks the view to fit the whole drawing in its panel. */
  requestFit() {
    this.fitRequests++
  }

  /** setDepth keeps the depth between 1 and MAX_DEPTH. */
  setDepth(d: number) {
    this.depth = Math.min(MAX_DEPTH, Math.max(1, Math.round(d) || 1))
  }

  /** toggleRelation shows or hides the edges of one relation type. */
  toggleRelation(relation: string, show: boolean) {
    const next = new Set(this.hiddenRelations)
    if (show) next.delete(relation)
    else next.add(relation)
    this.hiddenRelations = next
  }
}
