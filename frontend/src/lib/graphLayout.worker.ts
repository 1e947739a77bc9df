// The layout worker: runs the layout engine (graphLayoutEngine) on the flat arrays of
// graphModel.layoutArrays, off the window's thread, until it converges or its time is
// up, and posts the drawing back now and then (often for a small graph, so it settles
// visibly; rarely for a big one, since every update makes the renderer re-index the
// whole graph).
import { LayoutEngine } from './graphLayoutEngine'
import type { LayoutRequest, LayoutUpdate } from './graphLayout'

self.onmessage = (ev: MessageEvent<LayoutRequest>) => {
  const { nodes, edges, aspect, fresh, forces, ms, postEvery } = ev.data
  const post = (msg: LayoutUpdate) => (self as unknown as Worker).postMessage(msg, [msg.nodes.buffer])
  try {
    const engine = new LayoutEngine({ nodes, edges, aspect, fresh, forces })
    const start = performance.now()
    for (;;) {
      const left = ms - (performance.now() - start)
      const converged = engine.run(Math.max(0, Math.min(postEvery, left)))
      const done = converged || performance.now() - start >= ms
      post({ nodes: engine.positions(done), done })
      if (done) return
    }
  } catch (e) {
    post({ nodes: nodes.slice(), done: true, error: e instanceof Error ? e.message : String(e) })
  }
}
