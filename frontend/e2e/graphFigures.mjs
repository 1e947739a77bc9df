// The layout figures of the graph view, read in the page from the renderer's node
// positions (sigma's viewport coordinates): how many nodes are inside the panel, how
// many sit within PILE_PX of another, and over how many cells of a GRID × GRID grid of
// the panel they spread. The end-to-end test of the layout (graph-layout.test.mjs) and
// the benchmark (graph-bench.mjs) read them the same way.

/** A node this close (CSS pixels) to another is piled on it. */
export const PILE_PX = 8
/** The panel is cut into GRID × GRID cells to measure how far the nodes spread. */
export const GRID = 20

/**
 * layoutFigures returns {nodes, inside, piled, spread, width, height}: fractions of the
 * nodes shown (inside the panel, piled) and of the grid's cells (spread), from the
 * positions sigma draws the nodes at now.
 * @param {import('playwright-core').Page} page
 */
export async function layoutFigures(page) {
  // What sigma drew last: a camera moved a moment ago is drawn at the next frame.
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))))
  return page.evaluate(
    ([pile, grid]) => {
      const s = window.__memotreeSigma
      const g = window.__memotreeGraph
      const { width, height } = s.getDimensions()
      const pts = []
      g.forEachNode((id) => {
        const d = s.getNodeDisplayData(id)
        if (!d || d.hidden) return
        pts.push(s.framedGraphToViewport(d))
      })
      const n = pts.length
      if (n === 0) return { nodes: 0, inside: 0, piled: 0, spread: 0, width, height }
      let inside = 0
      const cells = new Set()
      for (const p of pts) {
        if (p.x < 0 || p.y < 0 || p.x > width || p.y > height) continue
        inside++
        cells.add(Math.min(grid - 1, Math.floor((p.x / width) * grid)) * grid + Math.min(grid - 1, Math.floor((p.y / height) * grid)))
      }
      // Neighbours within `pile` pixels, through a hash of pile-sized buckets.
      const bucket = new Map()
      const key = (x, y) => `${x},${y}`
      pts.forEach((p, i) => {
        const k = key(Math.floor(p.x / pile), Math.floor(p.y / pile))
        const b = bucket.get(k)
        if (b) b.push(i)
        else bucket.set(k, [i])
      })
      let piled = 0
      pts.forEach((p, i) => {
        const bx = Math.floor(p.x / pile)
        const by = Math.floor(p.y / pile)
        for (let dx = -1; dx <= 1; dx++)
          for (let dy = -1; dy <= 1; dy++)
            for (const j of bucket.get(key(bx + dx, by + dy)) ?? []) {
              if (j === i) continue
              const q = pts[j]
              if (Math.hypot(q.x - p.x, q.y - p.y) < pile) {
                piled++
                return
              }
            }
      })
      return { nodes: n, inside: inside / n, piled: piled / n, spread: cells.size / (grid * grid), width, height }
    },
    [PILE_PX, GRID],
  )
}

/**
 * settledFigures waits for the layout to stop and the camera to rest, then reads the
 * figures.
 * @param {import('playwright-core').Page} page
 */
export async function settledFigures(page, timeout = 60000) {
  await page.waitForFunction(() => window.__memotreeGraphState && window.__memotreeGraphState.drawnAt !== null && !window.__memotreeGraphState.layout, null, { timeout, polling: 100 })
  // Let a camera animation (a fit once the layout stops) end.
  await page.waitForFunction(() => !window.__memotreeSigma.getCamera().isAnimated(), null, { timeout: 10000 })
  return layoutFigures(page)
}
