// The pictures of the README and docs/, made from the real app: `memotree serve` in
// Debian's Chromium, each picture taken after the steps the README describes (its
// *Changes* and *Chat* buttons are found by those names), at the size
// docs/pictures.json gives. make test writes them to e2e/artifacts/, so a README step
// that no longer works fails here; `make screenshots` (MEMOTREE_SCREENSHOTS=docs)
// writes them into docs/. Pixels are never compared: the graph's layout differs a
// little from run to run.
import assert from 'node:assert/strict'
import { execFileSync } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { after, before, describe, test } from 'node:test'
import { startFakeLLM, text, toolCalls } from './fakellm.mjs'
import { artifactsDir, freshHome, frontendDir, openApp, openBrowser, startServe, vaultNotes } from './harness.mjs'

const listed = JSON.parse(fs.readFileSync(path.join(frontendDir, '../docs/pictures.json'), 'utf8')).pictures
const outDir = process.env.MEMOTREE_SCREENSHOTS ? path.resolve(process.env.MEMOTREE_SCREENSHOTS) : artifactsDir
const demoVault = path.resolve(frontendDir, '../demo/vault')
const helpVault = path.resolve(frontendDir, '../../shared/corpora/obsidian-help-en')
const tree = '[data-testid="file-tree"]'
const entry = (p) => `${tree} [data-path="${p.replace(/"/g, '\\"')}"]`

/** size is the size docs/pictures.json gives the picture file. */
function size(file) {
  const p = listed.find((x) => x.file === file)
  assert.ok(p, `${file} is listed in docs/pictures.json`)
  return { width: p.width, height: p.height }
}

/** picture saves the page as file, after two frames (the last drawing shown). */
async function picture(page, file) {
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))))
  fs.mkdirSync(outDir, { recursive: true })
  await page.screenshot({ path: path.join(outDir, file) })
}

/** settled waits until the graph holds n nodes and its layout has stopped. */
async function settled(page, n) {
  await page.waitForFunction((want) => (window.__memotreeGraph?.order ?? 0) >= want, n, { timeout: 60000 })
  await page.waitForFunction(() => window.__memotreeGraphState && !window.__memotreeGraphState.layout, null, { timeout: 120000, polling: 100 })
}

/** gitVault copies the demo vault into a git repository with one commit, made at a fixed time. */
function gitVault() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'memotree-shots-'))
  fs.cpSync(demoVault, dir, { recursive: true })
  fs.writeFileSync(path.join(dir, '.gitignore'), '.memotree/\n')
  const env = { ...process.env, GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null', GIT_AUTHOR_DATE: '2026-11-20T10:00:00Z', GIT_COMMITTER_DATE: '2026-11-20T10:00:00Z' }
  const git = (...args) => execFileSync('git', ['-c', 'user.name=MemoTree Demo', '-c', 'user.email=demo@memotree.invalid', '-c', 'commit.gpgsign=false', ...args], { cwd: dir, env })
  git('init', '-q', '-b', 'main')
  git('add', '-A')
  git('commit', '-q', '-m', 'The demo vault')
  return dir
}

describe('the window and the Changes panel, on the demo vault', () => {
  let server, browser, page, repo

  before(async () => {
    repo = gitVault()
    ;({ server, browser, page } = await openApp({ vault: repo, env: { GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null' } }, size('window.png')))
  })

  after(async () => {
    await browser?.close()
    await server?.stop()
    if (repo) fs.rmSync(repo, { recursive: true, force: true })
  })

  test('window.png: a note open beside the graph', async () => {
    await page.click(entry('people/Ada Lovelace.md'))
    await page.waitForSelector('[data-testid="note-view"][data-path="people/Ada Lovelace.md"]')
    await page.waitForSelector('[data-testid="backlinks"] [data-path]')
    await settled(page, vaultNotes(server.vaultDir).length)
    await picture(page, 'window.png')
    assert.deepEqual(browser.errors, [], 'no uncaught errors in the page')
  })

  test('review.png: two notes edited outside MemoTree, in the toolbar’s Changes panel', async () => {
    for (const [note, line] of [
      ['people/Charles Babbage.md', '\nHe also designed a printer for the Difference Engine.\n'],
      ['people/Ada Lovelace.md', '\nShe called her approach poetical science.\n'],
    ]) {
      fs.appendFileSync(path.join(server.vaultDir, note), line)
    }
    await page.getByRole('button', { name: /^Changes/ }).click()
    const panel = '[data-testid="git-panel"]'
    for (const note of ['people/Charles Babbage.md', 'people/Ada Lovelace.md']) {
      await page.waitForSelector(`${panel} [data-change="${note}"]`, { timeout: 30000 })
    }
    await page.getByRole('button', { name: 'people/Charles Babbage.md, modified: show the diff' }).click()
    await page.locator('[data-testid="git-diff"][data-path="people/Charles Babbage.md"] tr.line.add').first().waitFor()
    await picture(page, 'review.png')
  })
})

describe('the chat panel, against a local OpenAI-compatible server', () => {
  let llm, server, browser, page

  before(async () => {
    llm = await startFakeLLM()
    const config = fs.mkdtempSync(path.join(os.tmpdir(), 'memotree-shots-config-'))
    ;({ server, browser, page } = await openApp(
      { vault: demoVault, env: { OPENAI_BASE_URL: llm.baseURL, MEMOTREE_MODEL: 'qwen3:8b', OPENAI_API_KEY: 'sk-shots', XDG_CONFIG_HOME: config } },
      size('chat.png'),
    ))
  })

  after(async () => {
    await browser?.close()
    await server?.stop()
    await llm?.close()
  })

  test('chat.png: a turn that created a note and related it, one tool card open', async () => {
    await page.getByRole('button', { name: /^Chat/ }).click()
    const input = '#chat-pane [data-testid="chat-input"]'
    await page.waitForSelector(input)
    llm.script(
      toolCalls([
        { id: 'call_1', name: 'create_entity', args: { entity_name: 'people/Konrad Zuse', entity_type: 'person', content: 'Built the Z3, the first working programmable computer.' } },
        { id: 'call_2', name: 'create_relations', args: { relations: [{ from: 'people/Konrad Zuse', to: 'Charles Babbage', type: 'successor of' }] } },
      ]),
      text('**Konrad Zuse** is in the vault now, related to Charles Babbage as *successor of*.'),
    )
    await page.fill(input, 'Create a note on Konrad Zuse and relate it to Charles Babbage')
    await page.press(input, 'Enter')
    await page.waitForSelector('#chat-pane details[data-tool="create_relations"][data-status="success"]', { timeout: 60000 })
    await page.locator('#chat-pane [data-role="assistant"] strong', { hasText: 'Konrad Zuse' }).waitFor({ timeout: 60000 })
    await page.waitForSelector(entry('people/Konrad Zuse.md'))
    await page.click('#chat-pane details[data-tool="create_relations"] summary')
    await picture(page, 'chat.png')
    assert.deepEqual(browser.errors, [], 'no uncaught errors in the page')
  })
})

describe('the welcome, from a first start', () => {
  const home = freshHome()
  let server, browser

  before(async () => {
    const obsidianVault = path.join(home.dir, 'Documents', 'Obsidian Vault')
    fs.mkdirSync(path.join(obsidianVault, '.obsidian'), { recursive: true })
    fs.writeFileSync(path.join(obsidianVault, 'Start here.md'), '# Start here\n')
    const cfg = path.join(home.env.XDG_CONFIG_HOME, 'obsidian')
    fs.mkdirSync(cfg, { recursive: true })
    fs.writeFileSync(path.join(cfg, 'obsidian.json'), JSON.stringify({ vaults: { a1: { path: obsidianVault, ts: 1732500000000, open: true } } }))
    server = await startServe([], home)
    browser = await openBrowser(size('welcome.png'))
  })

  after(async () => {
    await browser?.close()
    await server?.stop()
    fs.rmSync(home.dir, { recursive: true, force: true })
  })

  test('welcome.png: no vault yet; Obsidian’s vaults are offered', async () => {
    await browser.page.goto(server.url)
    await browser.page.waitForSelector('[data-testid="welcome"] [data-testid="obsidian-vaults"]')
    await picture(browser.page, 'welcome.png')
  })
})

describe('the graph of the English Obsidian Help vault, as the main view', { skip: fs.existsSync(helpVault) ? false : `the corpus is not at ${helpVault}` }, () => {
  let server, browser, page

  before(async () => {
    ;({ server, browser, page } = await openApp({ vault: helpVault }, size('graph-help-en.png')))
  })

  after(async () => {
    await browser?.close()
    await server?.stop()
  })

  test('graph-help-en.png: coloured by top-level folder, with its legend, a note beside it', async () => {
    // The tree is windowed, and Home.md below its fold: open it by its address.
    await page.evaluate(() => (location.hash = '#/Home.md'))
    await page.waitForSelector('[data-testid="note-view"][data-path="Home.md"]')
    await page.keyboard.press('Control+Shift+M')
    await page.waitForSelector('main [data-testid="graph-view"]')
    await page.waitForSelector('[data-testid="graph-legend"] li[data-query]')
    await settled(page, 200)
    await picture(page, 'graph-help-en.png')
  })
})
