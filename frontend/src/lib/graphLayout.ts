// Runs the graph's layout (ForceAtlas2) in a web worker and applies what it posts back.
import { applyLayout, LAYOUT_NODE_STRIDE, layoutArrays, type ModelGraph } from './graphModel'

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
  settings: LayoutSettings
  /** How long to run, in milliseconds. */
  ms: number
  /** How often to post positions back, in milliseconds. */
  postEvery: number
}

/** What the worker posts back. */
export interface LayoutUpdate {
  nodes: Float32Array
  iterations: number
  done: boolean
}

/** layoutSettings picks ForceAtlas2's settings for a graph of `order` nodes. */
export function layoutSettings(order: number): LayoutSettings {
  return {
    linLogMode: false,
    outboundAttractionDistribution: false,
    adjustSizes: false,
    edgeWeightInfluence: 1,
    barnesHutTheta: 0.6,
    barnesHutOptimize: order > 2000,
    strongGravityMode: false,
    scalingRatio: 20,
    gravity: 0.5,
    slowDown: order > 2000 ? 2 + Math.log(order) : 4,
  }
}

/** A running layout: stop() ends it; the graph keeps the positions reached. */
export interface RunningLayout {
  stop(): void
}

/**
 * startLayout lays `g` out in a worker for about `ms` milliseconds. Positions come back
 * every `postEvery` ms (and at the end) and are written to the graph in one update;
 * `ondone` is called with the number of iterations once the time is up.
 */
export function startLayout(g: ModelGraph, ms: number, postEvery: number, ondone?: (iterations: number) => void): RunningLayout {
  const worker = new Worker(new URL('./graphLayout.worker.ts', import.meta.url), { type: 'module' })
  let live = true
  const { nodes, edges } = layoutArrays(g)
  worker.onmessage = (ev: MessageEvent<LayoutUpdate>) => {
    if (!live) return
    // The graph may have been replaced or changed shape meanwhile: ignore stale work.
    if (ev.data.nodes.length !== g.order * LAYOUT_NODE_STRIDE) return
    applyLayout(g, ev.data.nodes)
    if (ev.data.done) {
      live = false
      worker.terminate()
      ondone?.(ev.data.iterations)
    }
  }
  const req: LayoutRequest = { nodes, edges, settings: layoutSettings(g.order), ms, postEvery }
  worker.postMessage(req, [nodes.buffer, edges.buffer])
  return {
    stop() {
      if (!live) return
      live = false
      worker.terminate()
    },
  }
}
