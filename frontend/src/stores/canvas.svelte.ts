// The canvas store: what the agent sees of the open library. Talks only to src/api.
import type { Api, CanvasView } from '../api'

/** How often the inspector re-reads the view, which other processes may change. */
export const CANVAS_POLL_MS = 2000

export class CanvasStore {
  view = $state.raw<CanvasView | null>(null)
  error = $state<string | null>(null)
  busy = $state(false)
  private seq = 0

  constructor(private readonly api: Api) {}

  /** load reads a view of a library; a newer call wins over an older one. */
  async load(library: string, view = ''): Promise<void> {
    await this.run(() => this.api.canvas(library, view))
  }

  expand(library: string, id: string, level: string, view = ''): Promise<void> {
    return this.run(() => this.api.canvasExpand(library, view, id, level))
  }

  collapse(library: string, id: string, view = ''): Promise<void> {
    return this.run(() => this.api.canvasCollapse(library, view, id))
  }

  pin(library: string, id: string, pinned: boolean, view = ''): Promise<void> {
    return this.run(() => this.api.canvasPin(library, view, id, pinned))
  }

  private async run(f: () => Promise<CanvasView>): Promise<void> {
    const seq = ++this.seq
    this.busy = true
    try {
      const v = await f()
      if (seq !== this.seq) return
      this.view = v
      this.error = null
    } catch (e) {
      if (seq === this.seq) this.error = e instanceof Error ? e.message : String(e)
    } finally {
      if (seq === this.seq) this.busy = false
    }
  }
}
