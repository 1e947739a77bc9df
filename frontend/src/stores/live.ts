// Live updates: vault:changed events, debounced, refetch the files, the open note and
// the graph.
import type { Api } from '../api'
import { debounce } from '../lib/debounce'
import type { GraphStore } from './graph.svelte'
import type { VaultStore } from './vault.svelte'

/** How long a burst of events may last before one refetch. */
export const LIVE_DEBOUNCE_MS = 120

/** connectLive subscribes the stores to vault changes; returns the unsubscribe. */
export function connectLive(api: Api, vault: VaultStore, graph: GraphStore): () => void {
  let touched = new Set<string>()
  const flush = debounce(() => {
    const libs = touched
    touched = new Set()
    if (!libs.has('') && !libs.has(vault.library)) return
    // The note and the tree first: the graph's relayout is heavier and can wait.
    const lib = vault.library
    void vault.applyChange({ library: lib, rescan: libs.has('') }).then(() => graph.load(lib))
  }, LIVE_DEBOUNCE_MS)
  const off = api.on('vault:changed', (e) => {
    touched.add(e.library ?? '')
    flush()
  })
  // While a library's first scan runs, its files come from the folder without their
  // types, and a note opened comes without its links resolved (the tree and the note
  // show at once): once the scan ends, they are asked again.
  const offScan = api.on('task:progress', (p) => {
    if (!(p.kind === 'scan' && p.final && p.library === vault.library)) return
    void vault.loadFiles()
    if (vault.note?.partial) void vault.loadNote()
  })
  return () => {
    flush.cancel()
    off()
    offScan()
  }
}
