// The first window in a real browser against a real `memotree serve`.
import assert from 'node:assert/strict'
import fs from 'node:fs'
import path from 'node:path'
import { after, before, describe, test } from 'node:test'
import { artifactsDir, findLinkingNote, openApp, paintedPixels, vaultNotes } from './harness.mjs'

const tree = '[data-testid="file-tree"]'
const noteView = '[data-testid="note-view"]'
const entry = (p) => `${tree} [data-path="${p.replace(/"/g, '\\"')}"]`

describe('the window', () => {
  /** @type {Awaited<ReturnType<typeof openApp>>['server']} */
  let server
  /** @type {Awaited<ReturnType<typeof openApp>>['browser']} */
  let browser
  let page

  before(async () => {
    ;({ server, browser, page } = await openApp())
  })

  after(async () => {
    await browser?.close()
    await server?.stop()
  })

  test('the tree lists every note of the vault', async () => {
    const want = vaultNotes(server.vaultDir)
    const got = await page.$$eval(`${tree} [data-path]`, (els) => els.map((e) => e.getAttribute('data-path')))
    assert.deepEqual([...got].sort(), want)
    assert.equal(await page.getAttribute(tree, 'role'), 'tree')
  })

  test('clicking a note renders it: headings and wikilinks are elements', async () => {
    const n = findLinkingNote(server.vaultDir)
    await page.click(entry(n.path))
    await page.waitForSelector(`${noteView}[data-path="${n.path}"]`)
    const heading = page.locator(`${noteView} .markdown :is(h1,h2,h3)`, { hasText: n.heading }).first()
    assert.equal(await heading.isVisible(), true)
    const link = page.locator(`${noteView} a.internal-link[data-href="${n.targetPath}"]`).first()
    assert.equal(await link.isVisible(), true)
    const text = await page.textContent(noteView)
    assert.ok(!text.includes(`[[${n.linkText}`), 'wikilinks are not shown as raw text')
    assert.equal(await page.getAttribute(entry(n.path), 'aria-selected'), 'true')
  })

  test('clicking a wikilink opens its target', async () => {
    const n = findLinkingNote(server.vaultDir)
    await page.click(entry(n.path))
    await page.waitForSelector(`${noteView}[data-path="${n.path}"]`)
    await page.locator(`${noteView} a.internal-link[data-href="${n.targetPath}"]`).first().click()
    await page.waitForSelector(`${noteView}[data-path="${n.targetPath}"]`)
    // The target lists the source among its backlinks.
    await page.waitForSelector(`[data-testid="backlinks"] [data-path="${n.path}"]`)
  })

  test('the tree works from the keyboard', async () => {
    await page.focus(`${tree} [tabindex="0"]`)
    await page.keyboard.press('Home')
    await page.keyboard.press('End')
    const last = await page.evaluate(() => document.activeElement?.getAttribute('data-path') ?? document.activeElement?.getAttribute('data-folder'))
    assert.ok(last, 'End focuses the last row')
    if (await page.evaluate(() => document.activeElement?.hasAttribute('data-path'))) {
      await page.keyboard.press('Enter')
      await page.waitForSelector(`${noteView}[data-path="${last}"]`)
    }
  })

  test('the graph is drawn, with a node per note, and a screenshot is saved', async () => {
    const graph = page.locator('[data-testid="graph-view"]')
    await graph.locator('canvas').first().waitFor()
    await page.waitForFunction((n) => (window.__memotreeGraph?.order ?? 0) >= n, vaultNotes(server.vaultDir).length)
    // The layout runs for a second or two, longer on a busy machine: wait for its end,
    // then for the drawing it scheduled.
    await page.waitForFunction(() => window.__memotreeGraphState && !window.__memotreeGraphState.layout, null, { timeout: 60000, polling: 100 })
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))))
    const png = await graph.screenshot()
    assert.ok((await paintedPixels(page, png)) > 500, 'the graph canvas is not blank')
    fs.mkdirSync(artifactsDir, { recursive: true })
    await page.screenshot({ path: path.join(artifactsDir, 'window.png') })
    assert.deepEqual(browser.errors, [], 'no uncaught errors in the page')
  })

  test('clicking a node in the graph opens its note', async () => {
    const current = await page.getAttribute(noteView, 'data-path')
    // A note node other than the open one, where it is drawn now (the layout has stopped).
    const spot = await page.evaluate((open) => {
      const g = window.__memotreeGraph
      const s = window.__memotreeSigma
      if (!g || !s) return null
      const ids = g.filterNodes((id, a) => id !== open && !a.unresolved)
      // Prefer a node with no other node close by, so the click is not ambiguous.
      const pts = g.nodes().map((id) => ({ id, ...s.framedGraphToViewport(s.getNodeDisplayData(id)) }))
      const lone = (p) => Math.min(...pts.filter((q) => q.id !== p.id).map((q) => Math.hypot(q.x - p.x, q.y - p.y)))
      const best = pts.filter((p) => ids.includes(p.id)).sort((a, b) => lone(b) - lone(a))[0]
      return best ?? null
    }, current)
    assert.ok(spot, 'the graph exposes a clickable node')
    const box = await page.locator('[data-testid="graph-view"]').boundingBox()
    await page.mouse.click(box.x + spot.x, box.y + spot.y)
    await page.waitForSelector(`${noteView}[data-path="${spot.id}"]`, { timeout: 15000 })
  })

  test('edits on disk show up live', async () => {
    const n = findLinkingNote(server.vaultDir)
    await page.click(entry(n.path))
    await page.waitForSelector(`${noteView}[data-path="${n.path}"]`)
    const marker = `Edited on disk ${Date.now()}`
    fs.writeFileSync(path.join(server.vaultDir, n.path), `# ${marker}\n\nNew body with [[${n.linkText}]].\n`)
    await page.waitForFunction((m) => document.querySelector('[data-testid="note-view"]')?.textContent?.includes(m), marker, { timeout: 15000 })

    const order = await page.evaluate(() => window.__memotreeGraph?.order ?? 0)
    const created = 'Fresh note 新笔记.md'
    fs.writeFileSync(path.join(server.vaultDir, created), '# Fresh\n\nCreated while the window was open.\n')
    await page.waitForSelector(entry(created), { timeout: 15000 })
    // The graph follows too: the new note is a node.
    await page.waitForFunction(
      ([before, id]) => (window.__memotreeGraph?.order ?? 0) > before && window.__memotreeGraph?.hasNode(id),
      [order, created], { timeout: 15000 })
  })

  test('a request without the token is refused', async () => {
    // The page loads (it holds no vault data); the API answers only the Bearer token.
    const page = await fetch(`${server.origin}/`)
    assert.equal(page.status, 200)
    assert.equal(page.headers.get('set-cookie'), null)
    const token = new URL(server.url).searchParams.get('token')
    for (const headers of [{}, { Authorization: token }, { Authorization: 'Bearer wrong' }]) {
      const call = await fetch(`${server.origin}/api/call/Libraries`, { method: 'POST', body: '[]', headers })
      assert.equal(call.status, 401, JSON.stringify(headers))
    }
    const query = await fetch(`${server.origin}/api/call/Libraries?token=${token}`, { method: 'POST', body: '[]' })
    assert.equal(query.status, 401)
  })
})
