// A big graph in a real browser: while the camera moves, the last drawing is moved by
// the compositor (no sigma render), to exactly where the moved camera puts the graph;
// once the camera rests the graph is drawn again and the layers are back in place; a
// node clicked after a pan opens its note. The vault (1,200 notes, 7,200 links: more
// than the 5,000 edges above which the view glides) is written by the test. Every step
// waits for the state it needs (the layout ended, the camera at rest, the graph drawn
// again), never for a time: on a busy machine a drawing can take seconds.
import assert from 'node:assert/strict'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { after, before, describe, test } from 'node:test'
import { openApp } from './harness.mjs'

const NOTES = 1200
const LINKS = 6

/** Resolves after two animation frames: a drawing sigma scheduled before has run. */
const twoFrames = () => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))

/**
 * Waits until the camera rests and the graph was drawn again after a move: sigma's
 * layers are back in place and at least one drawing was counted in window.__renders.
 */
async function redrawn(page) {
  await page.waitForFunction(
    () => {
      const layer = document.querySelector('[data-testid="graph-view"] canvas.sigma-nodes')
      return window.__renders > 0 && layer && layer.style.transform === '' && !window.__memotreeSigma.getCamera().isAnimated()
    },
    null,
    { timeout: 60000, polling: 50 },
  )
}

/** countDrawings records, from now on, when sigma draws (window.__drawnAt). */
async function countDrawings(page) {
  await page.evaluate(() => {
    window.__drawnAt = []
    window.__memotreeSigma.on('afterRender', () => window.__drawnAt.push(performance.now()))
  })
}

/**
 * assertNotePaintedFirst waits for a drawing counted by countDrawings and checks that
 * the page's first note title (Element Timing) was painted before it: in software
 * WebGL a big graph's drawing holds the frame it is in for a second or more, and the
 * note must not be in that frame.
 */
async function assertNotePaintedFirst(page) {
  await page.waitForFunction(() => window.__drawnAt.length > 0, null, { timeout: 60000 })
  const { painted, drawn } = await page.evaluate(async () => ({
    painted: await new Promise((resolve) =>
      new PerformanceObserver((list, obs) => {
        const e = list.getEntries().find((x) => x.identifier === 'note-title')
        if (!e) return
        obs.disconnect()
        resolve(e.renderTime)
      }).observe({ type: 'element', buffered: true }),
    ),
    drawn: window.__drawnAt[0],
  }))
  assert.ok(painted < drawn, `the graph was drawn at ${drawn.toFixed(0)} ms, before the note was painted at ${painted.toFixed(0)} ms`)
}

/** Writes NOTES notes, each linking to LINKS others picked by a fixed rule. */
function writeVault() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'memotree-glide-'))
  for (let i = 0; i < NOTES; i++) {
    const links = []
    for (let k = 1; k <= LINKS; k++) links.push(`[[note ${(i * 7 + k * k * 13 + k) % NOTES}]]`)
    fs.writeFileSync(path.join(dir, `note ${i}.md`), `# Note ${i}\n\nSee ${links.join(', ')}.\n`)
  }
  return dir
}

/**
 * useBigGraph opens the app on a vault of its own (writeVault) before the tests of the
 * enclosing describe, once its graph is drawn whole and laid out, and closes both
 * after them. The returned object's page is set once `before` has run.
 */
function useBigGraph() {
  const app = { page: null }
  let vault
  let server
  let browser
  before(async () => {
    vault = writeVault()
    ;({ server, browser, page: app.page } = await openApp({ vault, timeoutMs: 60000 }, { treeTimeoutMs: 30000 }))
    await app.page.waitForFunction(() => (window.__memotreeGraphFull?.size ?? 0) > 5000 && window.__memotreeGraphState.drawnAt !== null, null, { timeout: 30000 })
    await app.page.waitForFunction(() => !window.__memotreeGraphState.layout, null, { timeout: 60000 })
    // The drawing after the layout (scheduled when it ended) has run.
    await app.page.evaluate(twoFrames)
  })
  after(async () => {
    await browser?.close()
    await server?.stop()
    if (vault) fs.rmSync(vault, { recursive: true, force: true })
  })
  return app
}

describe('a big graph glides', () => {
  const app = useBigGraph()
  let page

  before(async () => {
    page = app.page
    await page.evaluate(() => {
      window.__renders = 0
      window.__memotreeSigma.on('afterRender', () => window.__renders++)
    })
  })

  test('a camera move shifts the last drawing where the camera puts the graph, then draws again', async () => {
    const r = await page.evaluate(async () => {
      const s = window.__memotreeSigma
      const cam = s.getCamera()
      let renders = 0
      const count = () => renders++
      s.on('afterRender', count)
      // A node drawn on screen now, where the moved camera should put it.
      const node = window.__memotreeGraph.nodes()[0]
      const attrs = s.getNodeDisplayData(node)
      const before = s.framedGraphToViewport(attrs)
      const start = cam.getState()
      cam.setState({ x: start.x + 0.05, y: start.y - 0.03, ratio: start.ratio * 0.8 })
      const want = s.framedGraphToViewport(attrs, { cameraState: cam.getState() })
      await new Promise((r) => requestAnimationFrame(() => r()))
      const layer = document.querySelector('[data-testid="graph-view"] canvas.sigma-nodes')
      const mouse = document.querySelector('[data-testid="graph-view"] canvas.sigma-mouse')
      const m = new DOMMatrix(getComputedStyle(layer).transform)
      const moved = m.transformPoint(new DOMPoint(before.x, before.y))
      const during = { renders, mouseTransform: getComputedStyle(mouse).transform }
      // The camera rests: the graph is drawn again and the layers go back in place.
      for (const end = Date.now() + 60000; Date.now() < end && (renders === 0 || layer.style.transform !== ''); ) {
        await new Promise((r) => requestAnimationFrame(r))
      }
      s.off('afterRender', count)
      const afterwards = { renders, transform: layer.style.transform }
      cam.setState(start)
      return { want, moved: { x: moved.x, y: moved.y }, during, afterwards }
    })
    assert.equal(r.during.renders, 0, 'sigma did not draw while the camera moved')
    assert.equal(r.during.mouseTransform, 'none', 'the mouse layer stays in place')
    assert.ok(Math.abs(r.moved.x - r.want.x) < 0.5 && Math.abs(r.moved.y - r.want.y) < 0.5, `drawn at ${JSON.stringify(r.moved)}, camera puts it at ${JSON.stringify(r.want)}`)
    assert.ok(r.afterwards.renders >= 1, 'the graph was drawn again once the camera rested')
    assert.equal(r.afterwards.transform, '', 'the layers are back in place')
  })

  test('a node clicked after a pan opens its note', async () => {
    const box = await page.locator('[data-testid="graph-view"] canvas.sigma-mouse').boundingBox()
    assert.ok(box)
    // Pan with the mouse, let the graph be drawn again, then click a node.
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2)
    await page.evaluate(() => (window.__renders = 0))
    await page.mouse.down()
    await page.mouse.move(box.x + box.width / 2 + 40, box.y + box.height / 2 + 25, { steps: 5 })
    await page.mouse.up()
    await redrawn(page)
    const target = await page.evaluate(() => {
      const s = window.__memotreeSigma
      const g = window.__memotreeGraph
      const { width, height } = s.getDimensions()
      for (const id of g.nodes()) {
        if (g.getNodeAttribute(id, 'unresolved')) continue
        const p = s.framedGraphToViewport(s.getNodeDisplayData(id))
        if (p.x > 40 && p.y > 60 && p.x < width - 40 && p.y < height - 60 && s.getNodeAtPosition(p) === id) return { id, ...p }
      }
      return null
    })
    assert.ok(target, 'a node can be clicked')
    // Where the canvas is now: the window's layout may have moved since the pan began
    // (the status bar showing or ending a task).
    const now = await page.locator('[data-testid="graph-view"] canvas.sigma-mouse').boundingBox()
    assert.ok(now)
    await page.mouse.click(now.x + target.x, now.y + target.y)
    await page.waitForSelector(`[data-testid="note-view"][data-path="${target.id}"]`, { timeout: 60000 })
  })
})

describe('a note opened beside a big graph', () => {
  const app = useBigGraph()
  let page

  before(() => {
    page = app.page
  })

  test('a note opened beside the busy graph is painted before the graph is drawn again', async () => {
    // In software WebGL each drawing of a big graph holds the frame it is in for a
    // second or more: the note must not be in it (the graph, narrowed by the note and
    // with the note highlighted, is drawn after it).
    await countDrawings(page)
    await page.click('[data-testid="file-tree"] [data-path="note 5.md"]')
    await page.waitForSelector('[data-testid="note-view"][data-path="note 5.md"]', { timeout: 60000 })
    // The graph is drawn again: highlighted, and fitted to its new size.
    await assertNotePaintedFirst(page)
  })
})

describe('a layout beside a note on its way', () => {
  const app = useBigGraph()
  let page

  before(() => {
    page = app.page
  })

  test('moves the graph only once the note the person opened is painted', async () => {
    // The graph laid out and at rest, each of its drawings counted from now on.
    await page.waitForFunction(() => !window.__memotreeGraphState.layout, null, { timeout: 60000 })
    await countDrawings(page)
    const where = () => page.evaluate(() => ['note 1', 'note 2', 'note 3'].map((n) => window.__memotreeGraph.getNodeAttributes(`${n}.md`)).map((a) => [a.x, a.y]))
    // The note's answer is held, as a busy server's would be.
    let release = () => {}
    const held = new Promise((r) => (release = r))
    let asked = () => {}
    const noteAsked = new Promise((r) => (asked = r))
    await page.route('**/api/call/Note', async (route) => {
      asked()
      await held
      await route.continue()
    })
    await page.click('[data-testid="file-tree"] [data-path="note 9.md"]')
    await noteAsked
    // A change of forces lays the graph out again; its updates come in while the note
    // is on its way, and wait.
    const before = await where()
    const updates = await page.evaluate(() => window.__memotreeGraphState.layoutUpdates)
    await page.click('[data-testid="graph-view"] [data-testid="graph-settings-toggle"]')
    await page.evaluate(() => {
      const el = document.querySelector('[data-testid="graph-force-repel"]')
      el.value = String(Number(el.value) + 2)
      el.dispatchEvent(new Event('change', { bubbles: true }))
    })
    await page.waitForFunction((n) => window.__memotreeGraphState.layoutUpdates >= n + 2, updates, { timeout: 60000 })
    assert.deepEqual(await where(), before, 'the layout moved the graph while the note was on its way')
    release()
    await page.waitForSelector('[data-testid="note-view"][data-path="note 9.md"]', { timeout: 60000 })
    await page.unroute('**/api/call/Note')
    // Then the layout's updates go through, each drawn after the note's paint.
    await page.waitForFunction((b) => JSON.stringify(['note 1', 'note 2', 'note 3'].map((n) => window.__memotreeGraph.getNodeAttributes(`${n}.md`)).map((a) => [a.x, a.y])) !== b, JSON.stringify(before), { timeout: 60000 })
    await assertNotePaintedFirst(page)
  })
})
