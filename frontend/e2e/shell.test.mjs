// The window shell in a real browser: the command palette, panels that resize and
// remember their layout, a crashed script's batch finished while the window is open,
// and the window at 200% zoom and by keyboard.
import assert from 'node:assert/strict'
import fs from 'node:fs'
import path from 'node:path'
import { describe, test } from 'node:test'
import { useApp } from './harness.mjs'

const tree = '[data-testid="file-tree"]'
const palette = '[data-testid="command-palette"]'

describe('the command palette', () => {
  const app = useApp()

  test('Ctrl+Shift+P opens it, typing filters, Enter runs the command and the focus comes back', async () => {
    const { page } = app
    await page.waitForSelector('[data-testid="graph-view"]')
    await page.focus(`${tree} [tabindex="0"]`)
    const before = await page.evaluate(() => document.activeElement?.getAttribute('data-row'))
    await page.keyboard.press('Control+Shift+P')
    await page.waitForSelector(palette)
    assert.equal(await page.evaluate(() => document.activeElement?.getAttribute('data-testid')), 'palette-input')
    await page.keyboard.type('hide graph')
    const first = page.locator(`${palette} [role="option"]`).first()
    assert.equal(await first.getAttribute('data-command'), 'view.toggleGraph')
    assert.match(await first.locator('kbd').textContent(), /Ctrl\+G/)
    await page.keyboard.press('Enter')
    await page.waitForSelector(palette, { state: 'detached' })
    await page.waitForSelector('[data-testid="graph-view"]', { state: 'detached' })
    assert.equal(await page.evaluate(() => document.activeElement?.getAttribute('data-row')), before, 'the focus went back to the tree')
    // The same command by its shortcut brings the graph back.
    await page.keyboard.press('Control+g')
    await page.waitForSelector('[data-testid="graph-view"]')
  })

  test('Ctrl+P opens it too; Escape closes it without running anything', async () => {
    const { page } = app
    await page.keyboard.press('Control+p')
    await page.waitForSelector(palette)
    await page.keyboard.type('chat')
    await page.keyboard.press('Escape')
    await page.waitForSelector(palette, { state: 'detached' })
    assert.equal(await page.isVisible('#chat-pane'), false)
  })

  test('a command opens a panel; a command that moves the focus keeps it', async () => {
    const { page } = app
    await page.keyboard.press('Control+Shift+P')
    await page.keyboard.type('chat')
    await page.keyboard.press('Enter')
    await page.waitForSelector('#chat-pane', { state: 'visible' })
    await page.waitForFunction(() => document.activeElement?.getAttribute('data-testid') === 'chat-input')
    // The quick switcher, from the palette, gets the focus in its input.
    await page.keyboard.press('Control+Shift+P')
    await page.keyboard.type('quick switcher')
    await page.keyboard.press('Enter')
    await page.waitForSelector('[data-testid="quick-switcher"]')
    await page.waitForFunction(() => document.activeElement?.getAttribute('data-testid') === 'search-input')
    await page.keyboard.press('Escape')
  })

  test('arrows move the choice; nothing found says so', async () => {
    const { page } = app
    await page.keyboard.press('Control+Shift+P')
    const options = page.locator(`${palette} [role="option"]`)
    assert.ok((await options.count()) >= 10, 'an empty query lists every command')
    await page.keyboard.press('ArrowDown')
    assert.equal(await options.nth(1).getAttribute('aria-selected'), 'true')
    await page.keyboard.type('qqqzzz')
    assert.match(await page.textContent(palette), /No command matches/)
    await page.keyboard.press('Escape')
  })
})

describe('panels resize and remember their layout', () => {
  const app = useApp()

  const width = (page, sel) => page.$eval(sel, (e) => Math.round(e.getBoundingClientRect().width))

  test('dragging the sidebar splitter resizes it, and a reload keeps the width', async () => {
    const { page } = app
    const splitter = page.locator('[data-testid="splitter-sidebar"]')
    assert.equal(await splitter.getAttribute('role'), 'separator')
    const start = await width(page, '#sidebar')
    const box = await splitter.boundingBox()
    await page.mouse.move(box.x + box.width / 2, box.y + 200)
    await page.mouse.down()
    await page.mouse.move(box.x + 60, box.y + 200, { steps: 5 })
    await page.mouse.move(box.x + 120, box.y + 200, { steps: 5 })
    await page.mouse.up()
    const dragged = await width(page, '#sidebar')
    assert.ok(Math.abs(dragged - (start + 120)) <= 2, `dragged from ${start} to ${dragged}, want about ${start + 120}`)
    assert.equal(Number(await splitter.getAttribute('aria-valuenow')), dragged)
    await page.reload()
    await page.waitForSelector(`${tree} [data-path]`)
    assert.equal(await width(page, '#sidebar'), dragged)
  })

  test('the keyboard resizes too: arrows, Shift for big steps, Home for the least', async () => {
    const { page } = app
    // With a note open: an empty note pane leaves the graph all the room it can take.
    const first = await page.$eval(`${tree} [data-path]`, (e) => e.getAttribute('data-path'))
    await page.click(`${tree} [data-path="${first}"]`)
    await page.waitForSelector('[data-testid="note-view"]')
    const splitter = page.locator('[data-testid="splitter-graph"]')
    await splitter.focus()
    const start = Number(await splitter.getAttribute('aria-valuenow'))
    await page.keyboard.press('ArrowLeft') // the graph is right of its splitter: left widens it
    assert.equal(Number(await splitter.getAttribute('aria-valuenow')), start + 16)
    await page.keyboard.press('Shift+ArrowRight')
    assert.equal(Number(await splitter.getAttribute('aria-valuenow')), start + 16 - 64)
    await page.keyboard.press('Home')
    const min = Number(await splitter.getAttribute('aria-valuemin'))
    assert.equal(Number(await splitter.getAttribute('aria-valuenow')), min)
    assert.equal(await width(page, '#graph-pane'), min)
  })

  test('which panels are open is remembered: the graph hidden, the chat shown', async () => {
    const { page } = app
    await page.getByRole('button', { name: 'Graph', exact: true }).click()
    await page.getByRole('button', { name: /^Chat/ }).click()
    await page.waitForSelector('#chat-pane', { state: 'visible' })
    const side = await width(page, '#side-pane')
    await page.reload()
    await page.waitForSelector(`${tree} [data-path]`)
    await page.waitForSelector('#chat-pane', { state: 'visible' })
    assert.equal(await page.locator('[data-testid="graph-view"]').count(), 0)
    assert.equal(await width(page, '#side-pane'), side)
    assert.equal(await page.getAttribute('[data-testid="splitter-side"]', 'aria-valuenow'), String(side))
  })
})

describe('a script a crash cut short', () => {
  const app = useApp()

  test('its batch, decided before the crash, is finished while the window is open, and its note appears', async () => {
    const { page, server } = app
    const dir = server.vaultDir
    // What a script killed while its batch was applied leaves: the new note's content
    // in a temporary file beside it, and the batch's intent naming both. Its process
    // is gone; the library watching the vault finishes the batch, with nobody writing.
    const note = 'made by the script.md'
    const tmp = '.memotree-tmp-' + 'C'.repeat(26)
    fs.writeFileSync(path.join(dir, tmp), 'made by the script\n')
    fs.mkdirSync(path.join(dir, '.memotree'), { recursive: true })
    const intent = path.join(dir, '.memotree', 'intent.json')
    fs.writeFileSync(intent + '.part', JSON.stringify({ steps: [{ temp: tmp, target: note }] }))
    fs.renameSync(intent + '.part', intent)
    await page.waitForSelector(`${tree} [data-path="${note}"]`, { timeout: 15000 })
    assert.equal(fs.readFileSync(path.join(dir, note), 'utf8'), 'made by the script\n')
    assert.equal(fs.existsSync(intent), false, 'the intent is cleared')
    assert.equal(fs.existsSync(path.join(dir, tmp)), false, 'the temporary file became the note')
  })
})

describe('the window at 200% zoom and by keyboard', () => {
  // A 1280×800 window at 200%: 640×400 CSS pixels at two device pixels each.
  const app = useApp(undefined, { width: 640, height: 400, deviceScaleFactor: 2 })

  test('every toolbar button is shown whole, inside the window', async () => {
    const { page } = app
    assert.equal(await page.evaluate(() => window.devicePixelRatio), 2)
    const buttons = await page.$$eval('.toolbar button', (els) =>
      els.map((e) => {
        const r = e.getBoundingClientRect()
        const name = e.getAttribute('aria-label') || e.textContent?.trim() || ''
        const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2)
        return { name, left: r.left, right: r.right, top: r.top, bottom: r.bottom, w: r.width, onTop: e.contains(hit) }
      }),
    )
    assert.ok(buttons.length >= 5, `found ${buttons.length} toolbar buttons`)
    for (const b of buttons) {
      assert.ok(b.w > 0, `${b.name} has no width`)
      assert.ok(b.left >= 0 && b.right <= 640 && b.top >= 0 && b.bottom <= 400, `${b.name} is off-screen: ${JSON.stringify(b)}`)
      assert.ok(b.onTop, `${b.name} is covered by something else`)
    }
    assert.equal(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth), true, 'the page does not scroll sideways')
  })

  test('Tab reaches the tree, the toolbar buttons and the note', async () => {
    const { page } = app
    // Open a note that has a link, so the note holds something to tab to.
    const first = await page.$eval(`${tree} [data-path]`, (e) => e.getAttribute('data-path'))
    await page.click(`${tree} [data-path="${first}"]`)
    await page.waitForSelector(`[data-testid="note-view"][data-path="${first}"]`)
    await page.evaluate(() => document.activeElement instanceof HTMLElement && document.activeElement.blur())
    const seen = new Set()
    for (let i = 0; i < 60 && seen.size < 3; i++) {
      await page.keyboard.press('Tab')
      const where = await page.evaluate(() => {
        const a = document.activeElement
        if (!a) return ''
        if (a.closest('[data-testid="file-tree"]')) return 'tree'
        if (a.closest('.toolbar') && a.tagName === 'BUTTON') return 'toolbar'
        if (a.closest('[data-testid="note-view"], [data-testid="note-editor"], .pane')) return 'note'
        return ''
      })
      if (where) seen.add(where)
    }
    assert.deepEqual([...seen].sort(), ['note', 'toolbar', 'tree'])
  })
})

describe('every icon-only button has a name', () => {
  const app = useApp()

  // Buttons whose text has no letter or digit (×, ⌘, an icon) and no aria-label.
  const unnamed = (page) =>
    page.$$eval('button', (els) =>
      els
        .filter((e) => e.getClientRects().length > 0)
        .filter((e) => !/[\p{L}\p{N}]/u.test(e.textContent ?? '') && !e.getAttribute('aria-label') && !e.getAttribute('aria-labelledby'))
        .map((e) => e.outerHTML.slice(0, 160)),
    )

  test('in the window, with a note open and with each side panel', async () => {
    const { page } = app
    const first = await page.$eval(`${tree} [data-path]`, (e) => e.getAttribute('data-path'))
    await page.click(`${tree} [data-path="${first}"]`)
    await page.waitForSelector('[data-testid="note-view"]')
    const bad = await unnamed(page)
    for (const panel of ['Changes', 'Chat', 'Canvas']) {
      const toggle = page.getByRole('button', { name: new RegExp(`^${panel}`) })
      await toggle.click()
      // The panel is shown (its toggle pressed), not 300 ms later.
      await page.waitForFunction((name) => [...document.querySelectorAll('button[aria-pressed="true"]')].some((b) => b.textContent?.startsWith(name)), panel)
      bad.push(...(await unnamed(page)))
    }
    await page.keyboard.press('Control+Shift+P')
    await page.waitForSelector(palette)
    bad.push(...(await unnamed(page)))
    assert.deepEqual([...new Set(bad)], [])
  })
})
