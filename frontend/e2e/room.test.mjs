// Room to work, measured in a real browser: the toolbar stays on one line at 1024 px
// and wider with a side panel open, and an empty note pane leaves the graph its room.
import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import { useApp } from './harness.mjs'

const tree = '[data-testid="file-tree"]'

/** toolbarRows counts the lines the main toolbar's buttons sit on, and its height. */
function toolbarLayout(page) {
  return page.$eval('.main > .toolbar', (bar) => {
    const tops = [...bar.querySelectorAll('button')].filter((b) => b.getClientRects().length > 0).map((b) => Math.round(b.getBoundingClientRect().top))
    const rows = new Set(tops.map((t) => Math.round(t / 10))).size
    return { rows, buttons: tops.length, height: Math.round(bar.getBoundingClientRect().height), width: Math.round(bar.getBoundingClientRect().width) }
  })
}

const width = (page, sel) => page.$eval(sel, (e) => Math.round(e.getBoundingClientRect().width))

describe('room to work', () => {
  const app = useApp(undefined, { width: 1024, height: 768 })

  test('the toolbar never wraps at 1024 px or wider, with a note and each side panel open', async () => {
    const { page } = app
    const first = await page.$eval(`${tree} [data-path]`, (e) => e.getAttribute('data-path'))
    await page.click(`${tree} [data-path="${first}"]`)
    await page.waitForSelector('[data-testid="note-view"]')
    for (const w of [1024, 1152, 1280, 1440]) {
      await page.setViewportSize({ width: w, height: 800 })
      for (const panel of ['', 'Changes', 'Chat', 'Canvas']) {
        const toggle = panel ? page.getByRole('button', { name: new RegExp(`^${panel}`) }) : null
        if (toggle) await toggle.click()
        if (panel) await page.waitForSelector('#side-pane:not([hidden])')
        const l = await toolbarLayout(page)
        assert.ok(l.buttons >= 7, `${w} px, ${panel || 'no panel'}: ${l.buttons} buttons`)
        assert.equal(l.rows, 1, `${w} px with ${panel || 'no side panel'}: the toolbar (${l.width} px wide) wraps: ${JSON.stringify(l)}`)
        assert.ok(l.height <= 40, `${w} px with ${panel || 'no side panel'}: the toolbar is ${l.height} px tall`)
        if (toggle) await toggle.click() // close it again
      }
    }
    // Every toggle keeps its name for screen readers when only its icon shows.
    await page.setViewportSize({ width: 1024, height: 800 })
    await page.getByRole('button', { name: /^Chat/ }).click()
    const bar = page.locator('.main > .toolbar')
    for (const name of ['Graph', 'Changes', 'Chat', 'Canvas']) {
      assert.equal(await bar.getByRole('button', { name: new RegExp(`^${name}(,|$)`) }).count(), 1, name)
    }
    await page.getByRole('button', { name: /^Chat/ }).click()
  })

  test('at 1440 px an empty note pane leaves the graph its room, and a note takes it back', async () => {
    const { page } = app
    await page.setViewportSize({ width: 1440, height: 900 })
    await page.goto(app.server.url) // no note open
    await page.waitForSelector(`${tree} [data-path]`)
    await page.waitForSelector('#graph-pane')
    const sidebar = await width(page, '#sidebar')
    const side = (await page.locator('#side-pane:not([hidden])').count()) ? await width(page, '#side-pane') : 0
    const graph = await width(page, '#graph-pane')
    const main = await width(page, '.main')
    assert.ok(main <= 380, `the empty note pane is ${main} px wide`)
    assert.ok(graph >= 1440 - sidebar - side - 380 - 20, `the graph is ${graph} px wide beside an empty note pane (sidebar ${sidebar}, side panel ${side})`)
    const first = await page.$eval(`${tree} [data-path]`, (e) => e.getAttribute('data-path'))
    await page.click(`${tree} [data-path="${first}"]`)
    await page.waitForSelector('[data-testid="note-view"]')
    await page.waitForFunction(() => document.querySelector('#graph-pane').getBoundingClientRect().width < 500)
    assert.equal(await width(page, '#graph-pane'), 460)
    assert.ok((await width(page, '.main')) > 600)
  })
})
