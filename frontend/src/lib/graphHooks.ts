// What the graph view leaves on window for the end-to-end tests and the benchmarks
// (e2e/graph*.test.mjs, graph-bench.mjs): the graphs on screen, sigma, its labels, the
// diff shown, and the timings of GraphState. Harmless in production.
import type Sigma from 'sigma'
import type { GraphDiff } from './graphDiff'
import type { LabelLayer } from './graphLabels'
import type { EdgeAttrs, ModelGraph, NodeAttrs } from './graphModel'

/** What the end-to-end tests and the benchmark read (harmless in production). */
export interface GraphState {
  mode: string
  /** performance.now() when the library's graph was first drawn whole. */
  drawnAt: number | null
  /** performance.now() when its nodes were first drawn. */
  nodesDrawnAt: number | null
  /**
   * performance.now() when the library's graph first held every edge in graphology
   * and sigma (on a big graph, after drawnAt: the first drawing's edges come straight
   * from the payload).
   */
  completeAt: number | null
  /** Lines drawn straight from the payload in the last drawing (0 once sigma has the edges). */
  bulkEdges: number
  /** Whether a layout is running. */
  layout: boolean
  /** The last layout's error, if it failed. */
  layoutError: string | null
  /** How many times the camera was fitted to the drawing. */
  fits: number
  /** How many position updates layouts have sent (applied or waiting for quiet). */
  layoutUpdates: number
  nodes: number
  edges: number
}

/** graphHooks is where the view leaves what the tests read, on window. */
export function graphHooks() {
  return window as {
    __memotreeGraph?: ModelGraph
    __memotreeGraphFull?: ModelGraph
    __memotreeSigma?: Sigma<NodeAttrs, EdgeAttrs>
    __memotreeGraphState?: GraphState
    __memotreeGraphLabels?: LabelLayer<NodeAttrs, EdgeAttrs>
    __memotreeGraphDiff?: object | null
    /** While true, a big graph's bulk edges stay on screen (graphology gets no edges). */
    __memotreeHoldGraphEdges?: boolean
  }
}

/** newGraphState is the state of a view that has drawn nothing yet. */
export function newGraphState(): GraphState {
  return {
    mode: 'global',
    drawnAt: null,
    nodesDrawnAt: null,
    completeAt: null,
    bulkEdges: 0,
    layout: false,
    layoutError: null,
    fits: 0,
    layoutUpdates: 0,
    nodes: 0,
    edges: 0,
  }
}

/** diffHook is what the tests read of a change set shown as a diff. */
export function diffHook(set: string, diff: GraphDiff): object {
  return {
    set,
    addedNodes: [...diff.addedNodes],
    changedNodes: [...diff.changedNodes],
    removedNodes: [...diff.removedNodes],
    addedEdges: [...diff.addedEdges],
    removedEdges: diff.removedEdges,
  }
}
