// The file tree at scale: a generated vault of 50,000 notes in a real browser. Only the
// rows in view are in the DOM, the end of the list is reachable, the keyboard works,
// and a scripted scroll is timed (the figure is printed, not asserted: timings on a
// shared machine are not a pass/fail matter).
import assert from 'node:assert/strict'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { after, before, describe, test } from 'node:test'
import { openApp } from './harness.mjs'

const FOLDERS = 100
const PER_FOLDER = 500
const NOTES = FOLDERS * PER_FOLDER
const tree = '[data-testid="file-tree"]'
const pad = (n, w) => String(n).padStart(w, '0')

/** generate writes NOTES small notes in FOLDERS folders, each linking to the next. */
function generate(dir) {
  for (let f = 0; f < FOLDERS; f++) {
    const folder = path.join(dir, `d${pad(f, 3)}`)
    fs.mkdirSync(folder, { recursive: true })
    for (let n = 0; n < PER_FOLDER; n++) {
      const next = `n${pad(f, 3)}-${pad((n + 1) % PER_FOLDER, 3)}`
      fs.writeFileSync(path.join(folder, `n${pad(f, 3)}-${pad(n, 3)}.md`), `---\nentity type: note\n---\nNote ${f}/${n}, next [[${next}]].\n`)
    }
  }
}

/**
 * watchScanProgress runs in the page before the app: it records the scan progress
 * the status bar shows (window.scanSeen: the largest total and done seen) and every
 * kind of task it shows (window.tasksSeen).
 */
function watchScanProgress() {
  window.scanSeen = { total: 0, done: 0, shown: 0 }
  window.tasksSeen = new Set()
  new MutationObserver(() => {
    for (const e of document.querySelectorAll('[data-testid="status-bar"] [data-task]')) window.tasksSeen.add(e.getAttribute('data-task'))
    for (const bar of document.querySelectorAll('[data-testid="status-bar"] [data-task="scan"] progress')) {
      window.scanSeen.shown++
      window.scanSeen.total = Math.max(window.scanSeen.total, Number(bar.getAttribute('max')))
      window.scanSeen.done = Math.max(window.scanSeen.done, Number(bar.getAttribute('value')))
    }
  }).observe(document, { subtree: true, childList: true, attributes: true })
}

describe('a vault of 50,000 notes', () => {
  let app
  let dir
  before(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'memotree-50k-'))
    const t0 = performance.now()
    generate(dir)
    console.log(`# generated ${NOTES} notes in ${Math.round(performance.now() - t0)} ms`)
    // The graph of 50k notes is another issue's matter: start with it hidden.
    // The window must open while the scan runs. Whether it gets there first is a race
    // the window can lose on a loaded machine (a warm cache reads 50k notes in about a
    // second): up to three fresh starts, each on a vault as it was generated. A window
    // that waited for the scan would never see it, and the first test fails then.
    for (let attempt = 1; attempt <= 3; attempt++) {
      app = await openApp(
        { vault: dir, inPlace: true, timeoutMs: 180000 },
        { storage: { 'memotree.layout': JSON.stringify({ showGraph: false }) }, init: watchScanProgress, treeTimeoutMs: 120000 },
      )
      const seen = await app.page.evaluate(() => window.scanSeen.shown)
      if (seen > 0 || attempt === 3) break
      console.log(`# start ${attempt}: the scan ended before the window connected; starting again`)
      await app.browser.close()
      await app.server.stop()
      fs.rmSync(path.join(dir, '.memotree'), { recursive: true, force: true })
    }
  })
  after(async () => {
    await app?.browser.close()
    await app?.server.stop()
    if (dir) fs.rmSync(dir, { recursive: true, force: true })
  })

  const domRows = (page) => page.$$eval(`${tree} [role="treeitem"]`, (els) => els.length)

  test('the window opens before the vault is read, and the status bar shows the scan', async () => {
    const seen = await app.page.evaluate(() => window.scanSeen)
    console.log(`# the status bar showed the scan: ${JSON.stringify(seen)}`)
    assert.ok(seen.shown > 0, 'the status bar never showed the scan')
    assert.equal(seen.total, NOTES, `the scan's total: ${JSON.stringify(seen)}`)
    // Once the tree is there, the scan is over and its progress goes away.
    await app.page.waitForSelector('[data-testid="status-bar"] [data-task="scan"]', { state: 'detached', timeout: 30000 })
  })

  test('once the vault is read, its search index is built in the background and shown, then the task goes away', async () => {
    const { page } = app
    // The build starts after the scan, which the window saw: it cannot have been missed.
    await page.waitForFunction(() => window.tasksSeen.has('search-index'), null, { timeout: 120000 })
    await page.waitForSelector('[data-testid="status-bar"] [data-task="search-index"]', { state: 'detached', timeout: 120000 })
    // The first search then answers from the index built.
    await page.keyboard.press('Control+Shift+F')
    await page.keyboard.type('n007-042')
    await page.waitForSelector('[data-testid="search-result"]')
    assert.equal(await page.locator('[data-testid="status-bar"] [data-task="search-index"]').count(), 0)
    await page.keyboard.press('Escape')
  })

  test('the DOM holds a window of rows, not the list', async () => {
    const { page } = app
    assert.equal(Number(await page.getAttribute(tree, 'data-rows')), NOTES + FOLDERS)
    const n = await domRows(page)
    assert.ok(n > 10 && n <= 300, `${n} rows in the DOM`)
    // The scroll height is that of the whole list.
    const h = await page.$eval(tree, (e) => e.scrollHeight)
    assert.ok(h >= (NOTES + FOLDERS) * 20, `scroll height ${h}`)
  })

  test('scrolling to the end shows the last entry', async () => {
    const { page } = app
    await page.$eval(tree, (e) => (e.scrollTop = e.scrollHeight))
    const last = `d${pad(FOLDERS - 1, 3)}/n${pad(FOLDERS - 1, 3)}-${pad(PER_FOLDER - 1, 3)}.md`
    const row = page.locator(`${tree} [data-path="${last}"]`)
    await row.waitFor()
    const box = await row.boundingBox()
    const view = await page.$eval(tree, (e) => e.getBoundingClientRect().toJSON())
    assert.ok(box.y >= view.top - 1 && box.y + box.height <= view.bottom + 1, `the last row is in view: ${JSON.stringify({ box, view })}`)
    assert.ok((await domRows(page)) <= 300)
  })

  test('Home and End move through the whole list from the keyboard', async () => {
    const { page } = app
    await page.focus(`${tree} [tabindex="0"]`)
    await page.keyboard.press('Home')
    await page.waitForFunction(() => document.activeElement?.getAttribute('data-row') === '0')
    assert.equal(await page.$eval(tree, (e) => e.scrollTop), 0)
    await page.keyboard.press('End')
    await page.waitForFunction((n) => document.activeElement?.getAttribute('data-row') === String(n - 1), NOTES + FOLDERS)
    await page.keyboard.press('ArrowUp')
    await page.waitForFunction((n) => document.activeElement?.getAttribute('data-row') === String(n - 2), NOTES + FOLDERS)
    // Collapsing the last folder from one of its notes: Left goes to the folder, Left shuts it.
    await page.keyboard.press('ArrowLeft')
    await page.keyboard.press('ArrowLeft')
    await page.waitForFunction(
      (rows) => document.querySelector('[data-testid="file-tree"]')?.getAttribute('data-rows') === String(rows),
      NOTES + FOLDERS - PER_FOLDER,
    )
    assert.equal(await page.evaluate(() => document.activeElement?.getAttribute('aria-expanded')), 'false')
    await page.keyboard.press('ArrowRight')
    await page.waitForFunction((rows) => document.querySelector('[data-testid="file-tree"]')?.getAttribute('data-rows') === String(rows), NOTES + FOLDERS)
  })

  test('opening a note from the quick switcher reveals it in the tree', async () => {
    const { page } = app
    await page.$eval(tree, (e) => (e.scrollTop = 0))
    const target = `d050/n050-250.md`
    await page.keyboard.press('Control+o')
    await page.keyboard.type('n050-250')
    await page.waitForSelector(`[data-testid="quick-switcher"] li[data-path="${target}"]`)
    await page.keyboard.press('Enter')
    const row = page.locator(`${tree} [data-path="${target}"][aria-selected="true"]`)
    await row.waitFor()
    const box = await row.boundingBox()
    const view = await page.$eval(tree, (e) => e.getBoundingClientRect().toJSON())
    assert.ok(box.y >= view.top && box.y + box.height <= view.bottom, 'the open note is scrolled into view')
  })

  test('a scripted scroll through the list (timed)', async () => {
    const { page } = app
    // The browser's own accounting of where the time went (script, style, layout).
    const cdp = await page.context().newCDPSession(page)
    await cdp.send('Performance.enable')
    const metrics = async () => Object.fromEntries((await cdp.send('Performance.getMetrics')).metrics.map((m) => [m.name, m.value]))
    // Two scripts: a steady scroll of 120 px a frame (a wheel or a trackpad), and jumps
    // through the whole list (every frame draws rows that were not there before).
    const run = async (steps, stride) => {
      const m0 = await metrics()
      const r = await page.evaluate(
        async ({ steps, stride }) => {
          const el = document.querySelector('[data-testid="file-tree"]')
          el.scrollTop = 0
          await new Promise((res) => requestAnimationFrame(res))
          const step = stride > 0 ? stride : Math.floor((el.scrollHeight - el.clientHeight) / steps)
          let maxRows = 0
          let worst = 0
          const t0 = performance.now()
          let prev = t0
          for (let i = 1; i <= steps; i++) {
            el.scrollTop = i * step
            await new Promise((res) => requestAnimationFrame(res))
            const now = performance.now()
            worst = Math.max(worst, now - prev)
            prev = now
            maxRows = Math.max(maxRows, el.querySelectorAll('[role="treeitem"]').length)
          }
          const total = performance.now() - t0
          // Rows are drawn where the list is scrolled to.
          const top = el.scrollTop
          const shown = [...el.querySelectorAll('[role="treeitem"]')].some((e) => Math.abs(e.offsetTop - top) < 30)
          return { steps, step, total, perFrame: total / steps, worst, maxRows, shown }
        },
        { steps, stride },
      )
      const m1 = await metrics()
      const per = (k) => (((m1[k] ?? 0) - (m0[k] ?? 0)) * 1000) / r.steps
      console.log(
        `# tree scroll, ${NOTES} notes, ${r.step} px a frame: ${r.steps} frames in ${r.total.toFixed(0)} ms, ${r.perFrame.toFixed(1)} ms a frame (${(1000 / r.perFrame).toFixed(0)} fps), worst ${r.worst.toFixed(1)} ms; script ${per('ScriptDuration').toFixed(2)} ms, style ${per('RecalcStyleDuration').toFixed(2)} ms, layout ${per('LayoutDuration').toFixed(2)} ms a frame; at most ${r.maxRows} rows in the DOM (load average ${os.loadavg()[0].toFixed(1)} on ${os.cpus().length} cores)`,
      )
      return r
    }
    for (const r of [await run(200, 120), await run(200, 0)]) {
      assert.ok(r.maxRows <= 300, `${r.maxRows} rows in the DOM while scrolling`)
      assert.ok(r.shown, 'rows are drawn where the list is scrolled to')
    }
  })
})
