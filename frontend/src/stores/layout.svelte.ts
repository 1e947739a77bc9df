// The layout store: panel sizes and open panels, state of this window (not a setting
// of the person or the vault), restored from the browser at start (lib/windowState.ts)
// and saved on every change (a resize saves once, when the drag ends).
import { DEFAULT_LAYOUT, parseLayout, type Layout, type SidePanel } from '../lib/layout'
import { browserStorage, readItem, WINDOW_KEYS, writeItem, type WindowStorage } from '../lib/windowState'

export class LayoutStore {
  sidebarWidth = $state(DEFAULT_LAYOUT.sidebarWidth)
  graphWidth = $state(DEFAULT_LAYOUT.graphWidth)
  graphHeight = $state(DEFAULT_LAYOUT.graphHeight)
  sideWidth = $state(DEFAULT_LAYOUT.sideWidth)
  showSidebar = $state(DEFAULT_LAYOUT.showSidebar)
  showGraph = $state(DEFAULT_LAYOUT.showGraph)
  graphMain = $state(DEFAULT_LAYOUT.graphMain)
  side = $state<SidePanel>(DEFAULT_LAYOUT.side)

  constructor(private readonly storage: WindowStorage | undefined = browserStorage()) {
    Object.assign(this, parseLayout(readItem(WINDOW_KEYS.layout, storage)))
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
    writeItem(WINDOW_KEYS.layout, JSON.stringify(this.snapshot()), this.storage)
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
