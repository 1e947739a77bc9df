// The window's start-up order: the file tree is on screen before the graph's first
// drawing. In software WebGL (no GPU, as here) a big graph's drawing holds the
// window's thread for a second or more, and a tree painted after it waits as long.
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
})
