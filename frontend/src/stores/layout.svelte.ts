// The layout store: panel sizes and open panels, restored from localStorage at start
// and saved on every change (a resize saves once, when the drag ends).
import { DEFAULT_LAYOUT, parseLayout, type Layout, type SidePanel } from '../lib/layout'

/** Where the layout is kept. */
export const LAYOUT_KEY = 'memotree.layout'

/** The small part of the Storage interface the store uses. */
export interface LayoutStorage {
  getItem(key: string): string | null
  setItem(key: string, value: string): void
}

function defaultStorage(): LayoutStorage | undefined {
  try {
    return globalThis.localStorage
  } catch {
    return undefined // storage refused (private mode): the layout lasts for this window
  }
}

export class LayoutStore {
  sidebarWidth = $state(DEFAULT_LAYOUT.sidebarWidth)
  graphWidth = $state(DEFAULT_LAYOUT.graphWidth)
  graphHeight = $state(DEFAULT_LAYOUT.graphHeight)
  sideWidth = $state(DEFAULT_LAYOUT.sideWidth)
  showSidebar = $state(DEFAULT_LAYOUT.showSidebar)
  showGraph = $state(DEFAULT_LAYOUT.showGraph)
  graphMain = $state(DEFAULT_LAYOUT.graphMain)
  side = $state<SidePanel>(DEFAULT_LAYOUT.side)

  constructor(private readonly storage: LayoutStorage | undefined = defaultStorage()) {
    let text: string | null = null
    try {
      text = storage?.getItem(LAYOUT_KEY) ?? null
    } catch {
      text = null
    }
    Object.assign(this, parseLayout(text))
  }

  /** snapshot returns the layout as stored. */
  snapshot(): Layout {
    return {
      sidebarWidth: this.sidebarWidth,
      graphWidth: this.graphWidth,
      graphHeight: this.graphHeight,
      sideWidth: this.sideWidth,
      showSidebar: this.showSidebar,
      showGraph: this.showGraph,
      graphMain: this.graphMain,
      side: this.side,
    }
  }

  /** save writes the layout to storage. */
  save(): void {
    try {
      this.storage?.setItem(LAYOUT_KEY, JSON.stringify(this.snapshot()))
    } catch {
      // Quota or private mode: the layout is kept for this window only.
    }
  }

  /** describe names the panels open: "sidebar graph side=git". */
  describe(): string {
    return [this.showSidebar ? 'sidebar' : '', this.showGraph ? 'graph' : '', this.side ? `side=${this.side}` : ''].filter(Boolean).join(' ')
  }

  /** toggleSide opens a right-hand panel, closing the others, or closes it if open. */
  toggleSide(which: Exclude<SidePanel, ''>): void {
    this.side = this.side === which ? '' : which
    this.save()
  }

  /** openSide opens a right-hand panel (closing the others). */
  openSide(which: SidePanel): void {
    this.side = which
    this.save()
  }

  toggleGraph(): void {
    this.showGraph = !this.showGraph
    this.save()
  }

  /** toggleGraphMain puts the graph in the centre of the window (the note beside it), or back. */
  toggleGraphMain(): void {
    this.graphMain = !this.graphMain
    if (this.graphMain) this.showGraph = true
    this.save()
  }

  toggleSidebar(): void {
    this.showSidebar = !this.showSidebar
    this.save()
  }

  /** reset restores the default sizes, keeping which panels are open. */
  resetSizes(): void {
    this.sidebarWidth = DEFAULT_LAYOUT.sidebarWidth
    this.graphWidth = DEFAULT_LAYOUT.graphWidth
    this.graphHeight = DEFAULT_LAYOUT.graphHeight
    this.sideWidth = DEFAULT_LAYOUT.sideWidth
    this.save()
  }
}
