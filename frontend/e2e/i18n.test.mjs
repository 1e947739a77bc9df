// Language and look, as a person changes them: the settings switch the window between
// English and Simplified Chinese and between light and dark, the choice survives a
// reload, and a Chinese system gets Chinese without asking.
import assert from 'node:assert/strict'
import fs from 'node:fs'
import path from 'node:path'
import { after, before, describe, test } from 'node:test'
import { artifactsDir, openApp, vaultNotes } from './harness.mjs'

const settings = '[data-testid="settings"]'

/** The words of the toolbar's toggles (graph, changes, chat, canvas). */
async function toolbarWords(page) {
  return page.$$eval('main > .toolbar button.toggle', (els) => els.map((e) => e.textContent?.trim() ?? ''))
}

async function openSettings(page, how = 'gear') {
  if (how === 'gear') await page.click('[data-testid="open-settings"]')
  else await page.keyboard.press('Control+Comma')
  await page.waitForSelector(`${settings}[open]`)
}

async function closeSettings(page) {
  await page.keyboard.press('Escape')
  await page.waitForSelector(`${settings}:not([open])`, { state: 'attached' })
}

const lang = (page) => page.evaluate(() => document.documentElement.lang)
const background = (page) => page.evaluate(() => getComputedStyle(document.body).backgroundColor)

describe('language and look', () => {
  let server
  let browser
  let page

  before(async () => {
    ;({ server, browser, page } = await openApp())
  })

  after(async () => {
    await browser?.close()
    await server?.stop()
  })

  test('an English system gets English', async () => {
    assert.equal(await lang(page), 'en')
    assert.ok((await toolbarWords(page)).includes('Graph'), 'the toolbar speaks English')
  })

  test('the settings switch the window to 简体中文; a reload keeps it; English comes back', async () => {
    await openSettings(page, 'gear')
    await page.check(`${settings} input[name="language"][value="zh"]`)
    await page.waitForFunction(() => document.documentElement.lang === 'zh-CN')
    // The dialog itself redraws in Chinese.
    assert.equal((await page.textContent(`${settings} h2`))?.trim(), '设置')
    await closeSettings(page)

    const words = await toolbarWords(page)
    for (const w of ['关系图谱', '更改', '对话', '画布']) assert.ok(words.some((x) => x.startsWith(w)), `toolbar has ${w}: ${words}`)
    assert.equal(await page.getAttribute('aside.sidebar', 'aria-label'), '库')
    assert.equal(await page.getAttribute('[data-testid="open-settings"]', 'aria-label'), '设置')
    // The panels too: the source-control drawer.
    await page.click('[data-testid="toggle-git"]')
    await page.waitForSelector('[data-testid="git-panel"][aria-label="版本控制"]')
    assert.equal((await page.textContent('[data-testid="git-panel"] h2'))?.trim(), '版本控制')
    await page.click('[data-testid="toggle-git"]')

    await page.reload()
    await page.waitForSelector('[data-testid="file-tree"] [data-path]')
    assert.equal(await lang(page), 'zh-CN')
    assert.ok((await toolbarWords(page)).includes('关系图谱'), 'still Chinese after a reload')

    await openSettings(page, 'keyboard')
    assert.equal(await page.isChecked(`${settings} input[name="language"][value="zh"]`), true)
    await page.check(`${settings} input[name="language"][value="auto"]`)
    await page.waitForFunction(() => document.documentElement.lang === 'en')
    await closeSettings(page)
    assert.ok((await toolbarWords(page)).includes('Graph'), 'following the English system again')
    assert.equal(await page.evaluate(() => localStorage.getItem('memotree.locale')), null)
  })

  test('Dark darkens the page and tells the graph; Follow the system follows it', async () => {
    await page.evaluate(() => {
      window.__themeEvents = []
      window.addEventListener('memotree:themechange', (e) => window.__themeEvents.push(e.detail))
    })
    const light = await background(page)
    assert.equal(light, 'rgb(255, 255, 255)')

    await openSettings(page)
    await page.check(`${settings} input[name="theme"][value="dark"]`)
    await page.waitForFunction(() => document.documentElement.dataset.theme === 'dark')
    const dark = await background(page)
    assert.notEqual(dark, light)
    assert.equal(dark, 'rgb(30, 31, 34)')
    assert.deepEqual(await page.evaluate(() => window.__themeEvents), ['dark'])

    // Remembered across a reload.
    await page.reload()
    await page.waitForSelector('[data-testid="file-tree"] [data-path]')
    assert.equal(await background(page), dark)

    // Following the system: the emulated system turns dark, then light.
    await openSettings(page)
    await page.check(`${settings} input[name="theme"][value="auto"]`)
    await page.waitForFunction(() => document.documentElement.dataset.theme === 'light')
    await page.emulateMedia({ colorScheme: 'dark' })
    await page.waitForFunction(() => document.documentElement.dataset.theme === 'dark')
    assert.equal(await background(page), dark)
    await page.emulateMedia({ colorScheme: 'light' })
    await page.waitForFunction(() => document.documentElement.dataset.theme === 'light')
    assert.equal(await background(page), light)
    await closeSettings(page)
  })

  test('the settings hold the model endpoint and the canvas budget', async () => {
    // Opened by the window event a command palette would send.
    await page.evaluate(() => window.dispatchEvent(new Event('memotree:open-settings')))
    await page.waitForSelector(`${settings}[open]`)
    const form = page.locator(settings).getByRole('form', { name: 'Model endpoint settings' })
    await form.waitFor()
    await page.locator(`${settings} [data-testid="settings-canvas"] input[type="number"]`).waitFor()
    assert.ok(Number(await page.inputValue(`${settings} [data-testid="settings-canvas"] input[type="number"]`)) > 0)
    await closeSettings(page)
    assert.deepEqual(browser.errors, [], 'no uncaught errors in the page')
  })

  test('the settings keep a git access token for one host, private to the person, never shown again', async () => {
    const token = 'ghp_e2eSecretToken9f3b'
    const git = `${settings} [data-testid="settings-git"]`
    await openSettings(page)
    // Plain HTTP to another machine is refused, with the reason.
    await page.fill(`${git} input[name="url"]`, 'http://git.example.com/me/notes.git')
    await page.check(`${git} input[name="allow_http"]`)
    await page.fill(`${git} input[type="password"]`, token)
    await page.click(`${git} button[type="submit"]`)
    await page.waitForSelector(`${git} [role="alert"]`)
    assert.match(await page.textContent(`${git} [role="alert"]`), /plain HTTP/)
    const file = path.join(server.configDir, 'memotree', 'git.toml')
    assert.ok(!fs.existsSync(file) || !fs.readFileSync(file, 'utf8').includes(token), 'a refused token was saved')

    await page.fill(`${git} input[name="url"]`, 'https://git.example.com/me/notes.git')
    await page.fill(`${git} input[type="password"]`, token)
    await page.click(`${git} button[type="submit"]`)
    await page.waitForSelector(`${git} [role="status"]`)
    assert.match(await page.textContent(`${git} [role="status"]`), /git\.toml/)
    assert.equal(fs.statSync(file).mode & 0o777, 0o600, 'the token file is readable by its owner alone')
    const saved = fs.readFileSync(file, 'utf8')
    assert.match(saved, new RegExp(token))
    assert.match(saved, /host = "git\.example\.com"/)
    // The field is emptied; the window shows the host and the last four characters only.
    assert.equal(await page.inputValue(`${git} input[type="password"]`), '')
    const entry = `${git} [data-testid="git-credentials"] li[data-url="https://git.example.com"]`
    assert.match((await page.textContent(entry)) ?? '', /…9f3b/)
    await closeSettings(page)
    await openSettings(page) // asked again from the backend
    assert.match((await page.textContent(entry)) ?? '', /…9f3b/)
    assert.ok(!(await page.content()).includes(token), 'the token is nowhere in the page')
    // Forgotten from the list.
    await page.click(`${entry} button`)
    await page.waitForSelector(entry, { state: 'detached' })
    assert.ok(!fs.readFileSync(file, 'utf8').includes(token), 'the forgotten token is still in the file')
    await closeSettings(page)
    assert.deepEqual(browser.errors, [], 'no uncaught errors in the page')
  })
})

describe('a Chinese system', () => {
  let server
  let browser
  let page

  before(async () => {
    ;({ server, browser, page } = await openApp({}, { locale: 'zh-CN' }))
  })

  after(async () => {
    await browser?.close()
    await server?.stop()
  })

  test('gets Chinese by default, and a screenshot for the README', async () => {
    assert.equal(await page.evaluate(() => navigator.language), 'zh-CN')
    assert.equal(await lang(page), 'zh-CN')
    assert.ok((await toolbarWords(page)).includes('关系图谱'))
    assert.match((await page.textContent('.pane')) ?? '', /在文件树中选择一条笔记/)

    // Open a note with backlinks and let the graph settle, then take the picture.
    const notes = vaultNotes(server.vaultDir)
    const note = notes.find((n) => /[\u4e00-\u9fff]/.test(n)) ?? notes[0]
    await page.click(`[data-testid="file-tree"] [data-path="${note}"]`)
    await page.waitForSelector(`[data-testid="note-view"][data-path="${note}"]`)
    assert.equal((await page.textContent('[data-testid="backlinks"] h2'))?.trim().startsWith('反向链接'), true)
    await page.waitForFunction((n) => (window.__memotreeGraph?.order ?? 0) >= n, notes.length)
    await page.waitForFunction(() => window.__memotreeGraphState && !window.__memotreeGraphState.layout, null, { timeout: 60000, polling: 100 })
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))))
    // docs/window-zh.png with `make screenshots` (MEMOTREE_SCREENSHOTS=docs), else an artifact.
    const shots = process.env.MEMOTREE_SCREENSHOTS ? path.resolve(process.env.MEMOTREE_SCREENSHOTS) : artifactsDir
    fs.mkdirSync(shots, { recursive: true })
    await page.screenshot({ path: path.join(shots, 'window-zh.png') })
    assert.ok(fs.statSync(path.join(shots, 'window-zh.png')).size > 10000)
    assert.deepEqual(browser.errors, [], 'no uncaught errors in the page')
  })
})
