// The window's start-up order: the file tree is on screen before the graph's first
// drawing. In software WebGL (no GPU, as here) a big graph's drawing holds the
// window's thread for a second or more, and a tree painted after it waits as long.
// And a note opened while the vault is still read (its links not resolved yet).
import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import { openBrowser, startServer } from './harness.mjs'

describe('the window at start-up', () => {
  let server
  let browser
  let page

  before(async () => {
    server = await startServer()
    browser = await openBrowser()
    page = browser.page
    // When the first row of the tree enters the page, by the page's clock.
    await page.addInitScript(() => {
      const seen = () => document.querySelector('[data-testid="file-tree"] [data-path]')
      new MutationObserver((_, obs) => {
        if (!seen()) return
        window.__treeRowAt = performance.now()
        obs.disconnect()
      }).observe(document, { childList: true, subtree: true })
    })
  })

  after(async () => {
    await browser?.close()
    await server?.stop()
  })

  test('the tree comes first even when the graph answers before the file list', async () => {
    // The file list is let through only once the graph's answer is in the page: the
    // order in which a busy server can answer them.
    const graphIn = page.waitForResponse((r) => r.url().endsWith('/api/call/Graph'), { timeout: 30000 })
    await page.route('**/api/call/Files', async (route) => {
      await graphIn
      await route.continue()
    })
    await page.goto(server.url)
    await page.waitForFunction(() => window.__memotreeGraphState?.drawnAt != null && window.__treeRowAt != null, null, { timeout: 30000 })
    const { treeAt, drawnAt, nodes } = await page.evaluate(() => ({
      treeAt: window.__treeRowAt,
      drawnAt: window.__memotreeGraphState.drawnAt,
      nodes: window.__memotreeGraphState.nodes,
    }))
    assert.ok(nodes > 0, 'the graph drew no node')
    assert.ok(treeAt < drawnAt, `the graph was drawn at ${drawnAt.toFixed(0)} ms, before the tree's first row at ${treeAt.toFixed(0)} ms`)
    assert.deepEqual(browser.errors, [])
  })

  test('a note opened while the vault is read shows at once, its links found from the file list and its backlinks pending', async () => {
    const tree = (p) => `[data-testid="file-tree"] [data-path="${p}"]`
    const note = '[data-testid="note-view"][data-path="places/Bletchley Park.md"]'
    const links = () =>
      page.locator(`${note} a.internal-link`).evaluateAll((as) => as.map((a) => `${a.textContent} -> ${a.dataset.href ?? 'missing'}`).sort())
    // Its full answer first: where each link leads once the vault is read.
    await page.click(tree('places/Bletchley Park.md'))
    await page.waitForSelector(`${note} a.internal-link`)
    await page.waitForSelector('[data-testid="backlinks"] [data-path]')
    const full = await links()
    assert.ok(full.some((l) => l.endsWith('-> people/Alan Turing.md')), `the links: ${full}`)
    await page.click(tree('people/Alan Turing.md'))
    await page.waitForSelector('[data-testid="note-view"][data-path="people/Alan Turing.md"]')

    // The answer a server gives while its first scan runs (uiapi.Note: partial).
    await page.route('**/api/call/Note', async (route) => {
      const res = await route.fetch()
      const body = await res.json()
      await route.fulfill({ response: res, json: { ...body, links: [], backlinks: [], backlinks_total: 0, partial: true } })
    })
    await page.click(tree('places/Bletchley Park.md'))
    await page.waitForSelector(`${note} a.internal-link`)
    assert.deepEqual(await links(), full, 'the links lead elsewhere while the vault is read')
    await page.waitForSelector('[data-testid="backlinks-pending"]')
    assert.equal(await page.locator('[data-testid="backlinks"] [data-path]').count(), 0)
    await page.unroute('**/api/call/Note')
    assert.deepEqual(browser.errors, [])
  })
})
