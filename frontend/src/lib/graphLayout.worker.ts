// The layout worker: runs ForceAtlas2 on the flat arrays of graphModel.layoutArrays
// for a time budget, off the window's thread, and posts the positions back now and then
// (often for a small graph, so it settles visibly; rarely for a big one, since every
// update makes the renderer re-index the whole graph).
import iterate from 'graphology-layout-forceatlas2/iterate'
import type { LayoutRequest, LayoutUpdate } from './graphLayout'

self.onmessage = (ev: MessageEvent<LayoutRequest>) => {
  const { nodes, edges, settings, ms, postEvery } = ev.data
  const start = performance.now()
  let last = start
  let iterations = 0
  for (;;) {
    iterate(settings, nodes, edges)
    iterations++
    const now = performance.now()
    const done = now - start >= ms
    if (done || now - last >= postEvery) {
      last = now
      const msg: LayoutUpdate = { nodes: nodes.slice(), iterations, done }
      ;(self as unknown as Worker).postMessage(msg, [msg.nodes.buffer])
    }
    if (done) return
  }
}
