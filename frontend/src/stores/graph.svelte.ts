// The graph store: the open library's whole graph. Talks only to src/api.
import type { Api, GraphData } from '../api'

export class GraphStore {
  data = $state.raw<GraphData | null>(null)
  error = $state<string | null>(null)
  private seq = 0

  constructor(private readonly api: Api) {}

  /** load fetches the graph of a library; a newer call wins over an older one. */
  async load(library: string): Promise<void> {
    const seq = ++this.seq
    try {
      const d = await this.api.graph(library)
      if (seq !== this.seq) return
      this.data = d
      this.error = null
    } catch (e) {
      if (seq === this.seq) this.error = e instanceof Error ? e.message : String(e)
    }
  }
}
