#!/usr/bin/env node
// The graph benchmark: the global graph of a big vault in headless Chromium against a
// real `memotree serve`. It measures
//   - load: from navigation to the whole graph drawn (every node and every edge on the
//     canvas: a big graph's first drawing takes its edges straight from the payload,
//     see src/lib/graphBulkEdges.ts), read from performance.now() in the page;
//   - complete: from navigation to graphology and sigma holding every edge too (what
//     edge labels, the local graph and the relation filter's counts read);
//   - frames per second while a person pans (mouse drag) and zooms (mouse wheel), by
//     counting requestAnimationFrame callbacks, once the layout has finished;
//   - the layout's figures (e2e/graphFigures.mjs) once it has settled, with the graph
//     as the window's main view in a 1920 × 1080 window (the sidebar closed, the note's
//     column at its narrowest): nodes inside the panel, piled within 8 px of another,
//     and spread over a 20 × 20 grid of it.
//
//   node e2e/graph-bench.mjs --vault DIR [--runs 3] [--label 10k] [--rows FILE] [--piled-target 0.3]
//
// With --rows it appends rows for bench/cmd/table (bench/run.sh). The vault is copied
// to a temporary folder first (startServer), so the cache stays clean.
import fs from 'node:fs'
import os from 'node:os'
import { parseArgs } from 'node:util'
import { graphReady, openBrowser, startServer } from './harness.mjs'
import { settledFigures } from './graphFigures.mjs'

const { values: opts } = parseArgs({
  options: {
    vault: { type: 'string' },
    runs: { type: 'string', default: '3' },
    label: { type: 'string', default: '10k' },
    rows: { type: 'string' },
    'layout-timeout': { type: 'string', default: '60000' },
    'target-ms': { type: 'string', default: '2000' },
    'piled-target': { type: 'string', default: '0.3' },
  },
})
if (!opts.vault) {
  console.error('usage: graph-bench.mjs --vault DIR [--runs N] [--label 10k] [--rows FILE]')
  process.exit(2)
}

const LOAD_TARGET_MS = Number(opts['target-ms'])
const FPS_TARGET = 30

/** Waits for the graph to be drawn whole; returns the page's timings. */
async function loaded(page) {
  await page.waitForFunction(
    () => {
      const s = window.__memotreeGraphState
      const g = window.__memotreeGraphFull
      return s && s.drawnAt !== null && g && g.order > 0 && (s.completeAt === undefined || s.completeAt !== null)
    },
    null,
    { timeout: 60000, polling: 50 },
  )
  return page.evaluate(() => {
    const nav = performance.getEntriesByType('navigation')[0]
    const api = performance.getEntriesByType('resource').find((r) => /\/api\/call\/Graph(\?|$)/.test(r.name))
    const s = window.__memotreeGraphState
    const mark = (name) => Math.round(performance.getEntriesByName(name, 'mark').at(-1)?.startTime ?? NaN)
    return {
      drawnMs: s.drawnAt,
      nodesDrawnMs: s.nodesDrawnAt,
      completeMs: s.completeAt ?? s.drawnAt,
      bulkEdges: s.bulkEdges ?? 0,
      marks: Object.fromEntries(
        ['graph:request', 'graph:worker', 'graph:response', 'graph:nodes-drawn', 'graph:drawn', 'graph:build', 'graph:built', 'graph:complete'].map((m) => [m, mark(m)]),
      ),
      nodes: window.__memotreeGraphFull.order,
      edges: window.__memotreeGraphFull.size,
      domContentLoadedMs: nav ? nav.domContentLoadedEventEnd : null,
      // Read by the worker (src/api/graphFetch.ts), the request is not among the
      // window's resources: from the request to the worker's answer, parsed, instead.
      graphRequestMs: api ? api.responseEnd - api.startTime : mark('graph:worker') - mark('graph:request'),
      graphRequestEndMs: api ? api.responseEnd : mark('graph:worker'),
      graphBytes: api ? api.encodedBodySize || api.transferSize : null,
    }
  })
}

/** Counts animation frames while `drive` runs; returns frames per second. */
async function fps(page, drive) {
  await page.evaluate(() => {
    const s = window.__memotreeSigma
    const st = (window.__benchSigma = { renders: 0, renderMs: 0, processes: 0, at: 0 })
    if (!window.__benchHooked) {
      window.__benchHooked = true
      s.on('beforeRender', () => (window.__benchSigma.at = performance.now()))
      s.on('afterRender', () => {
        window.__benchSigma.renders++
        window.__benchSigma.renderMs += performance.now() - window.__benchSigma.at
      })
      s.on('beforeProcess', () => window.__benchSigma.processes++)
    }
    void st
    window.__benchFrames = 0
    window.__benchCounting = true
    const tick = () => {
      if (!window.__benchCounting) return
      window.__benchFrames++
      requestAnimationFrame(tick)
    }
    requestAnimationFrame(tick)
  })
  const t0 = await page.evaluate(() => performance.now())
  await drive()
  const { frames, t1, sigma } = await page.evaluate(() => {
    window.__benchCounting = false
    return { frames: window.__benchFrames, t1: performance.now(), sigma: { ...window.__benchSigma } }
  })
  console.error(
    `  ${frames} frames in ${(t1 - t0).toFixed(0)} ms; sigma rendered ${sigma.renders} times, ` +
      `${(sigma.renderMs / Math.max(1, sigma.renders)).toFixed(1)} ms each, re-indexed ${sigma.processes} times`,
  )
  return (frames * 1000) / (t1 - t0)
}

/**
 * cameraFps drives sigma's camera from requestAnimationFrame for `ms` (a circle for a
 * pan, in and out by up to 2.8× for a zoom) and counts the frames. Every frame shows the
 * whole graph, edges and labels included; on a big graph it is the last full drawing,
 * moved and scaled by the compositor, drawn again once the camera rests (see
 * src/lib/graphGlide.ts): fullDrawMs measures that drawing.
 */
function cameraFps(page, kind, ms) {
  return page.evaluate(
    ([kind, ms]) =>
      new Promise((resolve) => {
        const s = window.__memotreeSigma
        const cam = s.getCamera()
        const start = cam.getState()
        let frames = 0
        let renders = 0
        const counted = () => renders++
        s.on('afterRender', counted)
        const t0 = performance.now()
        const step = (now) => {
          const t = (now - t0) / 1000
          frames++
          if (kind === 'pan') cam.setState({ x: start.x + 0.15 * Math.cos(t * 2), y: start.y + 0.15 * Math.sin(t * 2) })
          else cam.setState({ ratio: start.ratio * Math.pow(2, Math.sin(t * 2) * 1.5) })
          if (now - t0 < ms) return requestAnimationFrame(step)
          s.off('afterRender', counted)
          cam.setState(start)
          resolve({ fps: (frames * 1000) / (now - t0), renders })
        }
        requestAnimationFrame(step)
      }),
    [kind, ms],
  )
}

/**
 * fullDrawMs asks sigma for one full drawing (every node, edge and label) and returns
 * the time until the window has shown it: two animation frames after sigma's render,
 * since software WebGL rasterises when the frame is committed. The median of three.
 */
async function fullDrawMs(page) {
  return page.evaluate(async () => {
    const s = window.__memotreeSigma
    const times = []
    for (let i = 0; i < 3; i++) {
      const t0 = performance.now()
      await new Promise((resolve) => {
        s.once('afterRender', () => requestAnimationFrame(() => requestAnimationFrame(resolve)))
        s.scheduleRender()
      })
      times.push(performance.now() - t0)
    }
    return times.sort((a, b) => a - b)[1]
  })
}

async function pan(page, box, ms) {
  const cx = box.x + box.width / 2
  const cy = box.y + box.height / 2
  const r = Math.min(box.width, box.height) / 4
  const end = Date.now() + ms
  await page.mouse.move(cx, cy)
  await page.mouse.down()
  for (let i = 0; Date.now() < end; i++) {
    const a = i / 10
    await page.mouse.move(cx + Math.cos(a) * r, cy + Math.sin(a) * r)
  }
  await page.mouse.up()
}

async function zoom(page, box, ms) {
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2)
  const end = Date.now() + ms
  for (let i = 0; Date.now() < end; i++) {
    // In by eight notches, then out by eight, and again.
    await page.mouse.wheel(0, Math.floor(i / 8) % 2 === 0 ? -120 : 120)
    await page.waitForTimeout(30)
  }
}

async function run(server) {
  const browser = await openBrowser()
  const { page } = browser
  try {
    await page.goto(server.url)
    const t = await loaded(page)
    const layoutStart = Date.now()
    await page.waitForFunction(() => window.__memotreeGraphState && !window.__memotreeGraphState.layout, null, {
      timeout: Number(opts['layout-timeout']),
      polling: 200,
    })
    t.layoutWaitMs = Date.now() - layoutStart
    const box = await page.locator('[data-testid="graph-view"] canvas').last().boundingBox()
    if (!box) throw new Error('the graph canvas has no box')
    const cp = await cameraFps(page, 'pan', 3000)
    const cz = await cameraFps(page, 'zoom', 3000)
    t.fullDrawMs = await fullDrawMs(page)
    console.error(`  a full drawing shown in ${t.fullDrawMs.toFixed(0)} ms`)
    t.cameraPanFps = cp.fps
    t.cameraZoomFps = cz.fps
    console.error(`  camera driven: pan ${cp.fps.toFixed(1)} fps (${cp.renders} renders), zoom ${cz.fps.toFixed(1)} fps (${cz.renders} renders)`)
    t.panFps = await fps(page, () => pan(page, box, 3000))
    await page.waitForTimeout(300)
    t.zoomFps = await fps(page, () => zoom(page, box, 3000))
    await page.waitForTimeout(300)
    t.idleFps = await fps(page, () => page.waitForTimeout(1000))
    if (browser.errors.length > 0) throw browser.errors[0]
    return t
  } finally {
    await browser.close()
  }
}

/**
 * figures opens the graph as the main view of a 1920 × 1080 window and reads the
 * layout's figures once it has settled.
 */
async function figures(server) {
  const browser = await openBrowser({ width: 1920, height: 1080 })
  const { page } = browser
  try {
    await page.addInitScript(() => {
      localStorage.setItem('memotree.layout', JSON.stringify({ graphMain: true, showSidebar: false, graphWidth: 220 }))
    })
    await page.goto(server.url)
    await loaded(page)
    const t0 = Date.now()
    const f = await settledFigures(page, Number(opts['layout-timeout']))
    f.settleMs = Date.now() - t0
    if (browser.errors.length > 0) throw browser.errors[0]
    return f
  } finally {
    await browser.close()
  }
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b)
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2
}

const server = await startServer({ vault: opts.vault, timeoutMs: 120000 })
await graphReady(server) // the figure is the window's load, from a server that has read its vault
const results = []
let layout
try {
  for (let i = 0; i < Number(opts.runs); i++) {
    const r = await run(server)
    results.push(r)
    console.error(
      `run ${i + 1}: ${r.nodes} nodes, ${r.edges} edges; nodes drawn at ${r.nodesDrawnMs.toFixed(0)} ms, with edges at ${r.drawnMs.toFixed(0)} ms, ` +
        `in graphology and sigma at ${r.completeMs.toFixed(0)} ms ` +
        `(graph request ${r.graphRequestMs?.toFixed(0)} ms${r.graphBytes ? `, ${(r.graphBytes / 1e6).toFixed(1)} MB` : ' in the worker, parsed'}, done at ${r.graphRequestEndMs?.toFixed(0)} ms); ` +
        `layout settled ${r.layoutWaitMs} ms later; pan ${r.panFps.toFixed(1)} fps, zoom ${r.zoomFps.toFixed(1)} fps, idle ${r.idleFps.toFixed(1)} fps; ` +
        `marks ${JSON.stringify(r.marks)}; load average ${os.loadavg().map((x) => x.toFixed(1)).join(' ')}`,
    )
  }
  layout = await figures(server)
  console.error(
    `layout, main view ${layout.width}×${layout.height}: ${(layout.inside * 100).toFixed(1)}% inside, ${(layout.piled * 100).toFixed(1)}% piled, ` +
      `spread over ${(layout.spread * 100).toFixed(1)}% of the grid, settled ${layout.settleMs} ms after the graph was drawn`,
  )
} finally {
  await server.stop()
}

const summary = {
  nodes: results[0].nodes,
  edges: results[0].edges,
  runs: results.length,
  loadMs: Math.round(median(results.map((r) => r.drawnMs))),
  nodesMs: Math.round(median(results.map((r) => r.nodesDrawnMs))),
  completeMs: Math.round(median(results.map((r) => r.completeMs))),
  loadAverage: os.loadavg(),
  graphRequestMs: Math.round(median(results.map((r) => r.graphRequestMs ?? NaN))),
  panFps: Math.round(median(results.map((r) => r.panFps)) * 10) / 10,
  cameraPanFps: Math.round(median(results.map((r) => r.cameraPanFps)) * 10) / 10,
  cameraZoomFps: Math.round(median(results.map((r) => r.cameraZoomFps)) * 10) / 10,
  zoomFps: Math.round(median(results.map((r) => r.zoomFps)) * 10) / 10,
  fullDrawMs: Math.round(median(results.map((r) => r.fullDrawMs))),
  layout,
  runsRaw: results,
}
console.log(JSON.stringify(summary, null, 2))
console.error(
  `graph, ${summary.nodes} nodes / ${summary.edges} edges: nodes drawn in ${summary.nodesMs} ms, with every edge in ${summary.loadMs} ms (target < ${LOAD_TARGET_MS}), ` +
    `every edge in graphology and sigma at ${summary.completeMs} ms, ` +
    `camera-driven pan ${summary.cameraPanFps} fps, zoom ${summary.cameraZoomFps} fps; mouse pan ${summary.panFps} fps, wheel zoom ${summary.zoomFps} fps (target ≥ ${FPS_TARGET}); ` +
    `a full drawing once the camera rests ${summary.fullDrawMs} ms; median of ${summary.runs}`,
)

if (opts.rows) {
  const l = opts.label
  const rows = [
    `value\tgraph view: navigation to every node drawn, ${summary.nodes} nodes (headless Chromium)\t${l}\t${summary.nodesMs}\ttarget\t${LOAD_TARGET_MS}\tms\tvalue<=${LOAD_TARGET_MS}`,
    `value\tgraph view: navigation to the whole graph drawn, ${summary.nodes} nodes, ${summary.edges} edges (headless Chromium)\t${l}\t${summary.loadMs}\ttarget\t${LOAD_TARGET_MS}\tms`,
    `value\tgraph view: frames per second, camera panned from requestAnimationFrame, every edge drawn (above 1× is better)\t${l}\t${summary.cameraPanFps}\ttarget\t${FPS_TARGET}\tfps`,
    `value\tgraph view: frames per second, camera zoomed from requestAnimationFrame, every edge drawn (above 1× is better)\t${l}\t${summary.cameraZoomFps}\ttarget\t${FPS_TARGET}\tfps`,
    `value\tgraph view: frames per second while a mouse drags (above 1× is better)\t${l}\t${summary.panFps}\ttarget\t${FPS_TARGET}\tfps`,
    `value\tgraph view: frames per second while a mouse wheel zooms (above 1× is better)\t${l}\t${summary.zoomFps}\ttarget\t${FPS_TARGET}\tfps`,
    `value\tgraph view: one full drawing (every node, edge and label), shown once the camera rests (lower is better)\t${l}\t${summary.fullDrawMs}\tbudget\t1000\tms`,
  ]
  const pct = (v) => Math.round(v * 1000) / 10
  rows.push(
    `value\tgraph layout, main view ${layout.width}×${layout.height} px: nodes inside the panel (higher is better)\t${l}\t${pct(layout.inside)}\ttarget\t95\t%`,
    `value\tgraph layout: nodes within 8 px of another (lower is better)\t${l}\t${pct(layout.piled)}\ttarget\t${pct(Number(opts['piled-target']))}\t%`,
    `value\tgraph layout: cells of a 20×20 grid of the panel holding a node (higher is better)\t${l}\t${pct(layout.spread)}\ttarget\t15\t%`,
    `value\tgraph layout: settled after the graph was drawn (lower is better)\t${l}\t${layout.settleMs}\tbudget\t60000\tms`,
  )
  rows.push(`note\tGraph view, ${l}: the whole graph is drawn when every node and edge is on the canvas; a big graph's first drawing takes its edges straight from the payload, and graphology and sigma hold every edge (edge labels, local graph, relation counts) at ${summary.completeMs} ms (median).`)
  rows.push(`note\tGraph view, ${l}: measured with a load average of ${os.loadavg()[0].toFixed(1)} on ${os.cpus().length} CPUs; software WebGL (SwiftShader); frames counted with requestAnimationFrame, after the layout has stopped, while the camera is moved from requestAnimationFrame and while a mouse drags and wheels over the canvas; on a big graph the frames during a move show the last full drawing moved by the compositor, drawn again once the camera rests (the full-drawing row).`)
  fs.appendFileSync(opts.rows, rows.join('\n') + '\n')
}
