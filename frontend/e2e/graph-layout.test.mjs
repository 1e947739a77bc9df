// The graph a person can read, on real vaults: the two Obsidian Help vaults (about
// 290 nodes with their unresolved links, no entity types), copied to a temporary
// folder, in a real browser against a real `memotree serve`. Once the layout has
// settled, from the renderer's node positions: at least 95% of the nodes inside the
// panel, at most 15% piled within 8 px of another, spread over at least 15% of a
// 20 × 20 grid of the panel. Then Fit brings a zoomed and panned drawing back, the
// view fits again when its pane is resized, and hovering a node highlights its
// neighbours and fades the rest.
import assert from 'node:assert/strict'
import fs from 'node:fs'
import path from 'node:path'
import { describe, test } from 'node:test'
import { frontendDir, useApp } from './harness.mjs'
import { layoutFigures, settledFigures } from './graphFigures.mjs'

const corpora = path.resolve(frontendDir, '../../shared/corpora')
const view = '[data-testid="graph-view"]'

/** The figures every settled drawing must reach. */
function assertReads(f, what) {
  const show = `${what}: ${JSON.stringify(f)}`
  assert.ok(f.nodes > 0, `nodes drawn (${show})`)
  assert.ok(f.inside >= 0.95, `at least 95% of the nodes inside the panel (${show})`)
  assert.ok(f.piled <= 0.15, `at most 15% of the nodes piled within 8 px of another (${show})`)
  assert.ok(f.spread >= 0.15, `the nodes spread over at least 15% of the panel's grid (${show})`)
}

for (const name of ['obsidian-help-en', 'obsidian-help-zh']) {
  const vault = path.join(corpora, name)
  const absent = fs.existsSync(vault) ? false : `the corpus is not at ${vault}`
  describe(`the graph of ${name}`, { skip: absent }, () => {
    const app = useApp({ vault, timeoutMs: 60000 })

    test('once settled, the drawing fills the panel without piling nodes up', async () => {
      const { page } = app
      await page.waitForFunction(() => (window.__memotreeGraphFull?.order ?? 0) > 250, null, { timeout: 30000 })
      const f = await settledFigures(page)
      assertReads(f, name)
      const fits = await page.evaluate(() => window.__memotreeGraphState.fits)
      assert.ok(fits >= 1, 'the camera was fitted once the layout settled')
    })

    test('labels never overprint one another, and the open note’s label is drawn', async () => {
      const { page } = app
      // Open the note with the most links, by its node.
      const hub = await page.evaluate(() => {
        const g = window.__memotreeGraphFull
        return g.filterNodes((_id, a) => !a.unresolved).sort((a, b) => g.degree(b) - g.degree(a))[0]
      })
      await page.evaluate((p) => (location.hash = `#/${encodeURIComponent(p)}`), hub)
      await page.waitForSelector(`[data-testid="note-view"][data-path="${hub.replace(/"/g, '\\"')}"]`)
      await page.waitForFunction((id) => (window.__memotreeGraphLabels?.placed ?? []).some((p) => p.key === id), hub)
      const { placed, panel, overlays } = await page.evaluate(() => {
        const canvas = document.querySelector('[data-testid="graph-view"] .canvas').getBoundingClientRect()
        const overlays = [...document.querySelectorAll('[data-testid="graph-view"] [data-testid="graph-toolbar"], [data-testid="graph-view"] [data-testid="graph-legend"]')]
          .map((e) => e.getBoundingClientRect())
          .map((r) => ({ x: r.left - canvas.left, y: r.top - canvas.top, w: r.width, h: r.height }))
        return { placed: window.__memotreeGraphLabels.placed.map((p) => ({ key: p.key, box: p.box })), panel: { w: canvas.width, h: canvas.height }, overlays }
      })
      assert.ok(placed.length >= 3, `labels are drawn: ${placed.length}`)
      const overlap = (a, b) => a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h
      for (let i = 0; i < placed.length; i++)
        for (let j = i + 1; j < placed.length; j++)
          assert.ok(!overlap(placed[i].box, placed[j].box), `${placed[i].key} and ${placed[j].key} overprint`)
      // Every label is whole: inside the panel, not under its toolbar or legend.
      assert.equal(overlays.length, 2, 'the toolbar and the legend are found')
      for (const p of placed) {
        const b = p.box
        assert.ok(b.x >= 0 && b.y >= 0 && b.x + b.w <= panel.w + 0.5 && b.y + b.h <= panel.h + 0.5, `${p.key}'s label is cut by the panel's edge: ${JSON.stringify(b)} in ${JSON.stringify(panel)}`)
        for (const o of overlays) assert.ok(!overlap(b, o), `${p.key}'s label is under ${JSON.stringify(o)}`)
      }
    })

    test('Fit brings a zoomed and panned drawing back into the panel', async () => {
      const { page } = app
      await page.evaluate(() => window.__memotreeSigma.getCamera().setState({ x: 0.9, y: 0.1, ratio: 0.15 }))
      const lost = await layoutFigures(page)
      assert.ok(lost.inside < 0.5, `the camera moved away: ${JSON.stringify(lost)}`)
      await page.click(`${view} [data-testid="graph-fit"]`)
      assertReads(await settledFigures(page), `${name}, after Fit`)
      // The command's shortcut does the same.
      await page.evaluate(() => window.__memotreeSigma.getCamera().setState({ x: 0.1, y: 0.8, ratio: 0.2 }))
      await page.locator(`${view} .canvas`).click({ position: { x: 5, y: 60 } }).catch(() => {})
      await page.keyboard.press('Control+Shift+H')
      assertReads(await settledFigures(page), `${name}, after Ctrl+Shift+H`)
    })

    test('the view fits again when its pane is resized', async () => {
      const { page } = app
      const size = () => page.evaluate(() => {
        const s = window.__memotreeSigma
        const c = document.querySelector('[data-testid="graph-view"] .canvas')
        return { sigma: s.getDimensions(), pane: { width: c.clientWidth, height: c.clientHeight } }
      })
      const before = await size()
      // The chat panel takes room from the graph; closing it gives the room back.
      await page.keyboard.press('Control+Shift+L')
      await page.waitForFunction((w) => document.querySelector('[data-testid="graph-view"] .canvas').clientWidth < w, before.pane.width)
      await page.keyboard.press('Control+Shift+L')
      await page.waitForFunction((w) => document.querySelector('[data-testid="graph-view"] .canvas').clientWidth === w, before.pane.width)
      await page.waitForFunction(() => {
        const s = window.__memotreeSigma.getDimensions()
        const c = document.querySelector('[data-testid="graph-view"] .canvas')
        return s.width === c.clientWidth && s.height === c.clientHeight
      })
      const after = await size()
      assert.deepEqual(after.sigma, after.pane, 'sigma draws at the pane’s size')
      assertReads(await settledFigures(page), `${name}, after the pane was resized`)

      // The local graph too (it stayed squeezed in the narrow pane once).
      await page.click('[data-testid="graph-mode-local"]')
      await page.waitForFunction(() => window.__memotreeGraphState.mode === 'local' && window.__memotreeGraph.order > 1)
      await page.keyboard.press('Control+Shift+L')
      await page.waitForFunction((w) => document.querySelector('[data-testid="graph-view"] .canvas').clientWidth < w, before.pane.width)
      await page.keyboard.press('Control+Shift+L')
      await page.waitForFunction((w) => {
        const s = window.__memotreeSigma.getDimensions()
        const c = document.querySelector('[data-testid="graph-view"] .canvas')
        return c.clientWidth === w && s.width === w && s.height === c.clientHeight
      }, before.pane.width)
      const local = await settledFigures(page)
      assert.ok(local.inside >= 0.95 && local.width === before.pane.width, `the local graph fills the pane again: ${JSON.stringify(local)}`)
      await page.click('[data-testid="graph-mode-global"]')
      await page.waitForFunction(() => window.__memotreeGraphState.mode === 'global')
    })

    test('notes written while the layout runs are laid out, and the drawing still reads', async () => {
      const { page, server } = app
      const hub = await page.evaluate(() => {
        const g = window.__memotreeGraphFull
        return g.getNodeAttribute(g.filterNodes((_id, a) => a.kind === 'note').sort((a, b) => g.degree(b) - g.degree(a))[0], 'label')
      })
      const stamp = Date.now()
      fs.writeFileSync(path.join(server.vaultDir, `Layout first ${stamp}.md`), `See [[${hub}]].\n`)
      await page.waitForFunction((id) => window.__memotreeGraphFull.hasNode(id) && window.__memotreeGraphState.layout, `Layout first ${stamp}.md`, { timeout: 15000 })
      // A second note while that layout runs.
      fs.writeFileSync(path.join(server.vaultDir, `Layout second ${stamp}.md`), `See [[Layout first ${stamp}]] and [[${hub}]].\n`)
      await page.waitForFunction((id) => window.__memotreeGraphFull.hasNode(id), `Layout second ${stamp}.md`, { timeout: 15000 })
      assertReads(await settledFigures(page), `${name}, after two notes came during a layout`)
      const state = await page.evaluate(() => ({ error: window.__memotreeGraphState.layoutError }))
      assert.equal(state.error, null)
    })

    test('hovering a node highlights its neighbours and fades the rest', async () => {
      const { page } = app
      const target = await page.evaluate(() => {
        const s = window.__memotreeSigma
        const g = window.__memotreeGraph
        const { width, height } = s.getDimensions()
        const box = document.querySelector('[data-testid="graph-view"] .canvas').getBoundingClientRect()
        // Nothing (the legend, the toolbar) lies over the node.
        const free = (p) => document.elementFromPoint(box.x + p.x, box.y + p.y)?.classList.contains('sigma-mouse')
        // A note with a few neighbours, drawn well inside the panel, far from others.
        const pts = g.mapNodes((id) => ({ id, ...s.framedGraphToViewport(s.getNodeDisplayData(id)) }))
        const room = (p) => Math.min(...pts.filter((q) => q.id !== p.id).map((q) => Math.hypot(q.x - p.x, q.y - p.y)))
        return pts
          .filter((p) => g.degree(p.id) >= 2 && g.degree(p.id) <= 20 && p.x > 40 && p.y > 60 && p.x < width - 40 && p.y < height - 60 && free(p))
          .sort((a, b) => room(b) - room(a))[0]
      })
      assert.ok(target, 'a node to hover')
      const box = await page.locator(`${view} .canvas`).boundingBox()
      await page.mouse.move(box.x + target.x, box.y + target.y)
      await page.waitForFunction((id) => window.__memotreeSigma.getNodeDisplayData(id)?.highlighted === true, target.id)
      const looks = await page.evaluate((id) => {
        const s = window.__memotreeSigma
        const g = window.__memotreeGraph
        const faded = getComputedStyle(document.documentElement).getPropertyValue('--border').trim()
        const out = { neighbours: 0, neighboursFaded: 0, others: 0, othersFaded: 0, edgesShown: 0, otherEdgesShown: 0 }
        g.forEachNode((n) => {
          if (n === id) return
          const f = s.getNodeDisplayData(n).color === faded
          if (g.areNeighbors(n, id)) (out.neighbours++, f && out.neighboursFaded++)
          else (out.others++, f && out.othersFaded++)
        })
        g.forEachEdge((e, _a, src, dst) => {
          const shown = !s.getEdgeDisplayData(e).hidden
          if (src === id || dst === id) shown && out.edgesShown++
          else shown && out.otherEdgesShown++
        })
        return out
      }, target.id)
      assert.ok(looks.neighbours >= 2, JSON.stringify(looks))
      assert.equal(looks.neighboursFaded, 0, `no neighbour is faded: ${JSON.stringify(looks)}`)
      assert.equal(looks.othersFaded, looks.others, `every other node is faded: ${JSON.stringify(looks)}`)
      assert.ok(looks.edgesShown > 0 && looks.otherEdgesShown === 0, `only the node's edges are drawn: ${JSON.stringify(looks)}`)
      await page.mouse.move(box.x + 2, box.y + box.height - 2)
    })
  })
}

describe('the graph as the main view', () => {
  const app = useApp()

  test('takes the centre of the window with the note beside it, and goes back', async () => {
    const { page } = app
    await page.waitForFunction(() => (window.__memotreeGraphFull?.order ?? 0) > 0)
    // With a note open: an empty note pane would leave the side graph the room the
    // main view takes.
    const first = await page.evaluate(() => window.__memotreeGraphFull.filterNodes((_id, a) => a.kind === 'note')[0])
    await page.evaluate((p) => (location.hash = `#/${encodeURIComponent(p)}`), first)
    await page.waitForSelector('[data-testid="note-view"]')
    await page.waitForFunction(() => document.querySelector('[data-testid="graph-view"] .canvas')?.clientWidth < 500)
    const side = await page.evaluate(() => document.querySelector('[data-testid="graph-view"] .canvas').clientWidth)
    await page.keyboard.press('Control+Shift+M')
    await page.waitForSelector('#graph-pane.note-column [data-testid="note-pane"], #graph-pane.note-column', { timeout: 15000 })
    await page.waitForFunction((w) => (document.querySelector('main [data-testid="graph-view"] .canvas')?.clientWidth ?? 0) > w, side)
    // The demo's 38 nodes cannot cover 15% of 400 cells: inside and not piled.
    const f = await settledFigures(page)
    assert.ok(f.inside >= 0.95 && f.piled <= 0.15 && f.width > side, `the demo vault, as the main view: ${JSON.stringify(f)}`)
    // A note opened from the graph opens beside it.
    const note = await page.evaluate(() => window.__memotreeGraphFull.filterNodes((_id, a) => a.kind === 'note')[0])
    await page.evaluate((p) => (location.hash = `#/${encodeURIComponent(p)}`), note)
    await page.waitForSelector(`#graph-pane [data-testid="note-view"][data-path="${note.replace(/"/g, '\\"')}"]`)
    await page.click('[data-testid="graph-main"]')
    await page.waitForSelector('#graph-pane [data-testid="graph-view"]')
    assert.equal(await page.locator('main [data-testid="graph-view"]').count(), 0)
  })
})
