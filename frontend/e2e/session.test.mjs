// The serve token stays with memotree serve: the page trades the printed address's
// token for a session of its tab (kept in sessionStorage, sent as a header), takes it
// out of the address bar, and sets no cookie, so another server on 127.0.0.1 (cookies
// are not separated by port) receives no MemoTree credential. A reload keeps working;
// a tab without the token says how to get in.
import { after, before, describe, test } from 'node:test'
import assert from 'node:assert/strict'
import fs from 'node:fs'
import http from 'node:http'
import path from 'node:path'
import { openApp } from './harness.mjs'

describe('the serve token', () => {
  let app
  let other
  const seen = []

  before(async () => {
    // Another local server, on another port: it records everything it is sent.
    other = http.createServer((req, res) => {
      seen.push({ url: req.url, headers: req.headers })
      res.setHeader('Content-Type', 'text/html')
      res.end('<html><body>another server</body></html>')
    })
    await new Promise((resolve) => other.listen(0, '127.0.0.1', resolve))
    app = await openApp()
  })

  after(async () => {
    await app?.browser.close()
    await app?.server.stop()
    other?.close()
  })

  test('no cookie, no token in the address bar, nothing for another local server', async () => {
    const { page, browser, server } = app
    const token = new URL(server.url).searchParams.get('token')
    assert.ok(token)
    assert.ok(!page.url().includes(token), `the address bar still holds the token: ${page.url()}`)
    assert.ok(!page.url().includes('token='), page.url())
    assert.deepEqual(await browser.context.cookies(), [], 'the page set a cookie')
    const session = await page.evaluate(() => sessionStorage.getItem('memotree.session'))
    assert.ok(session && session !== token, 'the tab holds a session of its own, not the printed token')
    assert.ok(!(await page.evaluate(() => JSON.stringify({ ...localStorage }))).includes(token), 'the token is in localStorage')

    // The same browser visits another server on 127.0.0.1, and the page fetches from it.
    const port = other.address().port
    const tab = await browser.context.newPage()
    await tab.goto(`http://127.0.0.1:${port}/visit`)
    await page.evaluate((p) => fetch(`http://127.0.0.1:${p}/from-the-page`, { mode: 'no-cors' }).catch(() => {}), port)
    await tab.close()
    assert.ok(seen.length >= 2, `the other server saw ${seen.length} requests`)
    const leaked = seen.filter((r) => JSON.stringify(r).includes(token) || JSON.stringify(r).includes(session) || /memotree/i.test(r.headers.cookie ?? ''))
    assert.deepEqual(leaked, [], 'another local server received a MemoTree credential')
    for (const r of seen) assert.equal(r.headers.cookie, undefined, `the other server got a cookie: ${r.headers.cookie}`)
  })

  test('a reload keeps working: the tree, the graph and the live events', async () => {
    const { page, server } = app
    await page.reload()
    await page.waitForSelector('[data-testid="file-tree"] [data-path]', { timeout: 30000 })
    await page.waitForFunction(() => (window.__memotreeGraph?.order ?? 0) > 0, null, { timeout: 20000 })
    const created = 'After the reload.md'
    fs.writeFileSync(path.join(server.vaultDir, created), '# After\n\nwritten after the reload\n')
    await page.waitForSelector(`[data-testid="file-tree"] [data-path="${created}"]`, { timeout: 30000 })
    assert.ok(!page.url().includes('token='), page.url())
    assert.deepEqual(app.browser.errors, [], 'no uncaught errors in the page')
  })

  test('a tab without the token says how to get in', async () => {
    const { browser, server } = app
    const tab = await browser.context.newPage()
    await tab.goto(server.origin + '/')
    const msg = await tab.waitForSelector('[data-testid="session-problem"]', { timeout: 30000 })
    assert.match(await msg.textContent(), /memotree serve/)
    await tab.goto(`${server.origin}/?token=not-the-token`)
    await tab.waitForFunction(() => /wrong token/.test(document.querySelector('[data-testid="session-problem"]')?.textContent ?? ''), null, { timeout: 30000 })
    assert.ok(!tab.url().includes('not-the-token'), tab.url())
    await tab.close()
  })
})
