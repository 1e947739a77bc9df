// Runs the graph's layout (graphLayoutEngine: ForceAtlas2 per component, spaced and
// packed) in a web worker and applies what it posts back.
import { applyLayout, LAYOUT_NODE_STRIDE, layoutArrays, type ModelGraph } from './graphModel'
import type { Forces } from './graphLayoutEngine'

/** The settings ForceAtlas2's iteration takes. */
export interface LayoutSettings {
  linLogMode: boolean
  outboundAttractionDistribution: boolean
  adjustSizes: boolean
  edgeWeightInfluence: number
  scalingRatio: number
  strongGravityMode: boolean
  gravity: number
  slowDown: number
  barnesHutOptimize: boolean
  barnesHutTheta: number
}

/** What the window sends the worker. */
export interface LayoutRequest {
  nodes: Float32Array
  edges: Float32Array
  /** The panel's width over its height. */
  aspect: number
  /** No node had a position yet: the drawing is turned to the panel. */
  fresh: boolean
  forces: Forces
  /** The longest the layout may run, in milliseconds (it stops sooner once converged). */
  ms: number
  /** How often to post positions back, in milliseconds. */
  postEvery: number
}

/** What the worker posts back. */
export interface LayoutUpdate {
  nodes: Float32Array
  done: boolean
  /** An error of the layout, in words (the positions are then those it started from). */
  error?: string
}

/** A running layout: stop() ends it; the graph keeps the positions reached. */
export interface RunningLayout {
  stop(): void
}

/** How a layout is run: the panel's shape, whether it is fresh, the forces. */
export interface LayoutOptions {
  aspect: number
  fresh: boolean
  forces: Forces
  /** Positions wait for it before they are written (and drawn): see VaultStore.quiet. */
  gate?: () => Promise<void>
  /** Called as each update comes in, before the gate. */
  received?: () => void
}

/**
 * startLayout lays `g` out in a worker for at most `ms` milliseconds. Positions come
 * back every `postEvery` ms (and at the end) and are written to the graph in one
 * update; `ondone` is called once the layout is done.
 */
export function startLayout(g: ModelGraph, ms: number, postEvery: number, opts: LayoutOptions, ondone?: (error?: string) => void): RunningLayout {
  const worker = new Worker(new URL('./graphLayout.worker.ts', import.meta.url), { type: 'module' })
  let live = true
  const { nodes, edges } = layoutArrays(g)
  const finish = (error?: string) => {
    live = false
    worker.terminate()
    ondone?.(error)
  }
  const apply = (data: LayoutUpdate) => {
    if (!live) return
    // The graph may have been replaced or changed shape meanwhile: ignore stale work.
    if (data.nodes.length === g.order * LAYOUT_NODE_STRIDE) applyLayout(g, data.nodes)
    if (data.done) finish(data.error)
  }
  // Updates are applied in order, each once the gate lets it through; one that fails
  // ends the layout with its error (as a failing worker does), not the chain silently.
  let last = Promise.resolve()
  worker.onmessage = (ev: MessageEvent<LayoutUpdate>) => {
    if (live) opts.received?.()
    if (!opts.gate) return apply(ev.data)
    const gate = opts.gate
    last = last
      .then(gate)
      .then(() => apply(ev.data))
      .catch((e: unknown) => {
        if (live) finish(e instanceof Error ? e.message : String(e))
      })
  }
  worker.onerror = (ev) => {
    if (live) finish(ev.message || 'the layout failed')
  }
  const req: LayoutRequest = { nodes, edges, aspect: opts.aspect, fresh: opts.fresh, forces: opts.forces, ms, postEvery }
  worker.postMessage(req, [nodes.buffer, edges.buffer])
  return {
    stop() {
      if (!live) return
      live = false
      worker.terminate()
    },
  }
}
