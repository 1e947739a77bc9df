// A change set shown as a diff over the library's graph: the notes as they were
// before it, the diff, and the graph with its ghosts (the notes and links it removed).
import type { ChangeSet } from '../api'
import type { GraphStore } from '../stores/graph.svelte'
import { changeSetLabel } from './changesets'
import { graphDiff, withGhosts, type GraphDiff } from './graphDiff'
import type { ModelGraph } from './graphModel'

/** A diff ready to show. */
export interface ShownDiff {
  diff: GraphDiff
  /** The graph with the diff's ghosts. */
  graph: ModelGraph
  /** The change set's name, for the panel. */
  label: string
}

/**
 * diffOver computes set's diff over g, with the notes' earlier text asked of the
 * store (a failure is the store's error; the diff then has no earlier text). It
 * returns null if stale() says, once the store has answered, that the diff is no
 * longer wanted.
 */
export async function diffOver(store: GraphStore, g: ModelGraph, set: ChangeSet, stale: () => boolean): Promise<ShownDiff | null> {
  const changes = set.changes.filter((c) => c.path.toLowerCase().endsWith('.md') || (c.from ?? '').toLowerCase().endsWith('.md'))
  let before: Awaited<ReturnType<GraphStore['before']>> = []
  try {
    before = await store.before(changes.map((c) => c.from ?? c.path))
  } catch (e) {
    store.error = e instanceof Error ? e.message : String(e)
  }
  if (stale()) return null
  const diff = graphDiff(g, changes, before)
  return { diff, graph: withGhosts(g, diff), label: changeSetLabel(set) }
}
