// One layout at a time for the graph view: a new one stops the one running, and the
// test hooks (graphHooks' GraphState) say whether one runs, how many updates it sent
// and how the last one ended.
import { startLayout, type LayoutOptions, type RunningLayout } from './graphLayout'
import type { GraphState } from './graphHooks'
import type { ModelGraph } from './graphModel'
import { layoutPostEvery } from './graphSigma'

/** LayoutRunner runs the graph view's layouts, one at a time. */
export class LayoutRunner {
  private running: RunningLayout | null = null

  /** gate holds back a layout's positions until the window is quiet. */
  constructor(
    private readonly hooks: GraphState,
    private readonly gate: () => Promise<void>,
  ) {}

  /** Whether a layout is running. */
  get active(): boolean {
    return this.running !== null
  }

  /** stop stops the running layout, if any. */
  stop() {
    this.running?.stop()
    this.running = null
    this.hooks.layout = false
  }

  /**
   * run lays g out for at most ms, stopping the layout running; ondone is called once
   * it has ended (converged, out of time or failed), when it no longer counts as
   * running. hooks.layout stays true until then: ondone says when the result is
   * settled (on screen, the camera fitted).
   */
  run(g: ModelGraph, ms: number, how: Pick<LayoutOptions, 'aspect' | 'fresh' | 'forces'>, ondone: () => void) {
    this.stop()
    this.hooks.layout = true
    const opts = { ...how, gate: this.gate, received: () => this.hooks.layoutUpdates++ }
    this.running = startLayout(g, ms, layoutPostEvery(g, ms), opts, (error) => {
      this.running = null
      this.hooks.layoutError = error ?? null
      ondone()
    })
  }
}
