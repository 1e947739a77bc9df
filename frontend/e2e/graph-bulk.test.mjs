// A big graph's first drawing in a real browser: the graph is read and parsed by the
// worker (src/api/graphFetch.ts), and every edge is on the canvas at once, drawn
// straight from the payload (src/lib/graphBulkEdges.ts), before graphology and sigma
// hold the edges. The test holds that first drawing on screen (the window's
// __memotreeHoldGraphEdges hook) to look at it: every edge of the payload drawn, the
// relation filter and the search box applied to it, then graphology and sigma taking
// over with every edge. The vault (2,400 notes, about 24,000 edges: more than the
// 20,000 above which the view draws this way) is written by the test.
import assert from 'node:assert/strict'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { after, before, describe, test } from 'node:test'
import { openBrowser, startServer } from './harness.mjs'

const NOTES = 2400
const LINKS = 9

/** Writes NOTES notes, each linking to LINKS others and knowing one, by a fixed rule. */
function writeVault() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'memotree-bulk-'))
  for (let i = 0; i < NOTES; i++) {
    const links = []
    for (let k = 1; k <= LINKS; k++) links.push(`[[note ${(i * 7 + k * k * 13 + k) % NOTES}]]`)
    const front = [
      '---',
      `entity type: ${i % 2 ? 'person' : 'concept'}`,
      'relations:',
      '  - relation type: knows',
      `    relation to: "[[note ${(i * 11 + 5) % NOTES}]]"`,
      '---',
    ].join('\n')
    fs.writeFileSync(path.join(dir, `note ${i}.md`), `${front}\n\n# Note ${i}\n\nSee ${links.join(', ')}.\n`)
  }
  return dir
}

describe('a big graph is drawn whole at once', () => {
  let vault
  let server
  let browser
  let page
  /** The payload as the server sends it, read by the test itself. */
  let payload

  before(async () => {
    vault = writeVault()
    server = await startServer({ vault, timeoutMs: 60000 })
    browser = await openBrowser()
    page = browser.page
    await page.addInitScript(() => {
      window.__memotreeHoldGraphEdges = true
    })
    await page.goto(server.url)
    await page.waitForFunction(() => window.__memotreeGraphState?.drawnAt != null, null, { timeout: 30000 })
    payload = await page.evaluate(async () => {
      // With the tab's session, as the page's own calls send it (src/api/http.ts).
      const auth = `Bearer ${sessionStorage.getItem('memotree.session')}`
      const res = await fetch('/api/call/Graph', { method: 'POST', headers: { Authorization: auth }, body: '[""]' })
      return res.json()
    })
  })

  after(async () => {
    await browser?.close()
    await server?.stop()
    if (vault) fs.rmSync(vault, { recursive: true, force: true })
  })

  const state = () => page.evaluate(() => ({ ...window.__memotreeGraphState }))
  /** Counts the pixels of the graph's canvas in an edge colour of the theme (edges are drawn opaque, unsmoothed). */
  const edgePixels = async () => {
    const png = await page.locator('[data-testid="graph-view"] .canvas').screenshot()
    return page.evaluate(async (b64) => {
      const css = getComputedStyle(document.documentElement)
      const c = document.createElement('canvas')
      const ctx = c.getContext('2d', { willReadFrequently: true })
      const rgb = (color) => {
        ctx.fillStyle = color
        ctx.fillRect(0, 0, 1, 1)
        return [...ctx.getImageData(0, 0, 1, 1).data.slice(0, 3)]
      }
      const want = ['--graph-edge', '--graph-edge-typed'].map((v) => rgb(css.getPropertyValue(v).trim()))
      const img = new Image()
      img.src = `data:image/png;base64,${b64}`
      await img.decode()
      c.width = img.width
      c.height = img.height
      ctx.drawImage(img, 0, 0)
      const d = ctx.getImageData(0, 0, c.width, c.height).data
      let n = 0
      for (let i = 0; i < d.length; i += 4) {
        if (want.some((w) => Math.abs(d[i] - w[0]) + Math.abs(d[i + 1] - w[1]) + Math.abs(d[i + 2] - w[2]) <= 6)) n++
      }
      return n
    }, png.toString('base64'))
  }
  /** Waits until the bulk lines drawn are `n`. */
  const bulkIs = (n) => page.waitForFunction((n) => window.__memotreeGraphState.bulkEdges === n, n, { timeout: 30000 })

  test('the graph came through the worker, not the window', async () => {
    const r = await page.evaluate(() => ({
      viaWorker: performance.getEntriesByName('graph:worker', 'mark').length,
      // The worker's fetch is not among the window's resources (the test's own came after).
      windowFetches: performance.getEntriesByType('resource').filter((e) => /\/api\/call\/Graph(\?|$)/.test(e.name)).length,
    }))
    assert.equal(r.viaWorker, 1, 'the graph was read by the worker')
    assert.equal(r.windowFetches, 1, 'only the test itself fetched the graph in the window')
  })

  test('the first drawing has every node and every edge of the payload, before graphology has the edges', async () => {
    const edges = payload.edges.length / 3
    assert.ok(edges > 20000, `the vault makes a big graph (${edges} edges)`)
    const s = await state()
    assert.notEqual(s.drawnAt, null)
    assert.equal(s.completeAt, null, 'graphology and sigma do not have the edges yet')
    assert.equal(s.bulkEdges, edges, 'every edge of the payload is drawn')
    assert.equal(s.edges, edges)
    const g = await page.evaluate(() => ({ order: window.__memotreeGraph.order, size: window.__memotreeGraph.size }))
    assert.deepEqual(g, { order: payload.nodes.length, size: 0 })
    // The relation filter lists the payload's relations with their counts already.
    await page.click('[data-testid="graph-settings-toggle"]')
    const counts = await page.$$eval('[data-testid="graph-filters"] input[data-relation]', (els) =>
      els.map((e) => [e.dataset.relation, Number(e.closest('label').querySelector('.n').textContent)]),
    )
    const want = new Map()
    for (let i = 2; i < payload.edges.length; i += 3) {
      const r = payload.relations[payload.edges[i]]
      want.set(r, (want.get(r) ?? 0) + 1)
    }
    assert.deepEqual(new Map(counts), want)
  })

  test('the relation filter and the search box apply to the first drawing', async () => {
    // Zoomed in, so that edges show between the nodes.
    // Zoomed in and drawn again: a big graph glides, and draws once the camera rests.
    await page.evaluate(() => {
      window.__renders = 0
      window.__memotreeSigma.on('afterRender', () => window.__renders++)
      window.__memotreeSigma.getCamera().setState({ x: 0.5, y: 0.5, ratio: 0.25, angle: 0 })
    })
    await page.waitForFunction(
      () => window.__renders > 0 && document.querySelector('[data-testid="graph-view"] canvas.sigma-nodes')?.style.transform === '',
      null,
      { timeout: 60000, polling: 50 },
    )
    const withEdges = await edgePixels()
    const knows = payload.relations.indexOf('knows')
    const typed = payload.edges.filter((_v, i) => i % 3 === 2).filter((r) => r === knows).length
    await page.locator('[data-testid="graph-filters"] input[data-relation="links to"]').uncheck()
    await bulkIs(typed)
    await page.locator('[data-testid="graph-filters"] input[data-relation="knows"]').uncheck()
    await bulkIs(0)
    const withoutEdges = await edgePixels()
    assert.ok(withEdges > 2000 && withEdges > withoutEdges * 4, `edges paint the canvas (${withEdges} pixels in edge colours with them, ${withoutEdges} without)`)
    await page.locator('[data-testid="graph-filters"] input[data-relation="links to"]').check()
    await page.locator('[data-testid="graph-filters"] input[data-relation="knows"]').check()
    await bulkIs(payload.edges.length / 3)
    await page.click('[data-testid="graph-settings-toggle"]')
    await page.evaluate(() => window.__memotreeSigma.getCamera().setState({ x: 0.5, y: 0.5, ratio: 1, angle: 0 }))

    // A search keeps the edges that touch a match.
    const query = 'note 123'
    const hit = new Set(payload.labels.flatMap((l, i) => (l.toLowerCase().includes(query) ? [i] : [])))
    assert.ok(hit.size > 0)
    let touching = 0
    for (let i = 0; i < payload.edges.length; i += 3) if (hit.has(payload.edges[i]) || hit.has(payload.edges[i + 1])) touching++
    await page.fill('[data-testid="graph-search"]', query)
    await bulkIs(touching)
    await page.fill('[data-testid="graph-search"]', '')
    await bulkIs(payload.edges.length / 3)
  })

  test('graphology and sigma then take every edge over', async () => {
    await page.evaluate(() => {
      window.__memotreeHoldGraphEdges = false
    })
    await page.waitForFunction(() => window.__memotreeGraphState.completeAt !== null, null, { timeout: 30000 })
    await bulkIs(0)
    const r = await page.evaluate(() => {
      const g = window.__memotreeGraphFull
      const s = window.__memotreeSigma
      const e = g.edges()
      return {
        size: g.size,
        shown: window.__memotreeGraph === g,
        drawnBySigma: e.filter((k) => s.getEdgeDisplayData(k) !== undefined).length,
      }
    })
    const edges = payload.edges.length / 3
    assert.deepEqual(r, { size: edges, shown: true, drawnBySigma: edges })
    assert.deepEqual(browser.errors, [])
  })
})
