// The vault switcher as a new user meets it, in a real browser against a real
// `memotree serve` started with no library, in a home folder of its own: the welcome,
// Obsidian's vaults, a folder opened by its path, the vaults opened again at the next
// start, switching, closing, bad paths, and a vault folder deleted while open.
import assert from 'node:assert/strict'
import crypto from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import { after, before, describe, test } from 'node:test'
import { artifactsDir, basicVault, freshHome, openBrowser, startServe } from './harness.mjs'

const tree = '[data-testid="file-tree"]'
const row = (p) => `${tree} [data-path="${p}"]`

/** makeVault copies the basic fixture to dir, with one note only it has. */
function makeVault(dir, only, extra = {}) {
  fs.cpSync(basicVault, dir, { recursive: true })
  fs.writeFileSync(path.join(dir, only), `# ${only.slice(0, -3)}\n\nOnly here.\n`)
  for (const [name, content] of Object.entries(extra)) {
    fs.mkdirSync(path.dirname(path.join(dir, name)), { recursive: true })
    fs.writeFileSync(path.join(dir, name), content)
  }
}

/** listing lists every file and folder under dir (relative), for "nothing was written". */
function listing(dir) {
  return fs.readdirSync(dir, { recursive: true }).map(String).sort()
}

/** digest hashes every file under dir, names and bytes. */
function digest(dir) {
  const h = crypto.createHash('sha256')
  for (const f of listing(dir)) {
    const p = path.join(dir, f)
    h.update(f)
    if (fs.statSync(p).isFile()) h.update(fs.readFileSync(p))
  }
  return h.digest('hex')
}

describe('the vault switcher, from a fresh home folder', () => {
  const home = freshHome()
  const obsidianVault = path.join(home.dir, 'Documents', 'Obsidian Vault')
  const notes = path.join(home.dir, 'Notes')
  const workNotes = path.join(home.dir, 'work', 'Notes')
  let server
  let browser
  let page
  let obsidianBefore

  before(async () => {
    makeVault(obsidianVault, 'Only-in-Obsidian.md', {
      '.obsidian/app.json': '{"useMarkdownLinks": false, "newLinkFormat": "shortest"}\n',
      '.obsidian/graph.json': '{"colorGroups": []}\n',
    })
    makeVault(notes, 'Only-in-Notes.md')
    makeVault(workNotes, 'Only-at-work.md')
    obsidianBefore = digest(path.join(obsidianVault, '.obsidian'))
    const cfg = path.join(home.env.XDG_CONFIG_HOME, 'obsidian')
    fs.mkdirSync(cfg, { recursive: true })
    fs.writeFileSync(path.join(cfg, 'obsidian.json'), JSON.stringify({ vaults: { abc123: { path: obsidianVault, ts: 1732500000000, open: true } } }))
    server = await startServe([], home)
    browser = await openBrowser({ width: 1280, height: 800 })
    page = browser.page
  })

  after(async () => {
    await browser?.close()
    await server?.stop()
    fs.rmSync(home.dir, { recursive: true, force: true })
  })

  test('with no vault the window opens on the welcome, listing Obsidian’s vaults', async () => {
    await page.goto(server.url)
    await page.waitForSelector('[data-testid="welcome"]')
    const listed = await page.textContent('[data-testid="obsidian-vaults"]')
    assert.match(listed, /Obsidian Vault/)
    assert.ok(listed.includes(obsidianVault), listed)
    assert.equal(await page.locator(tree).count(), 0)
    fs.mkdirSync(artifactsDir, { recursive: true })
    await page.screenshot({ path: path.join(artifactsDir, 'welcome.png') })
  })

  test('bad paths are refused with a reason, and open nothing', async () => {
    for (const [bad, says] of [
      [path.join(notes, 'Home.md'), /not a folder/],
      [path.join(home.dir, 'nowhere'), /no such folder/],
      ['Notes', /full path/],
      [path.join(obsidianVault, 'people'), /inside the vault/],
    ]) {
      await page.fill('[data-testid="open-vault-path"]', bad)
      await page.click('[data-testid="open-vault-submit"]')
      await page.waitForSelector('[data-testid="open-vault-error"]')
      assert.match(await page.textContent('[data-testid="open-vault-error"]'), says, bad)
    }
    assert.equal(await page.locator('[data-testid="welcome"]').count(), 1)
  })

  test('a typed path opens that folder in the tree, writing nothing in it', async () => {
    const before = listing(notes)
    await page.fill('[data-testid="open-vault-path"]', notes)
    await page.click('[data-testid="open-vault-submit"]')
    await page.waitForSelector(row('Only-in-Notes.md'))
    assert.equal(await page.locator('[data-testid="welcome"]').count(), 0)
    await page.click(row('Only-in-Notes.md'))
    await page.waitForSelector('[data-testid="open-in-obsidian"]')
    const href = await page.getAttribute('[data-testid="open-in-obsidian"]', 'href')
    assert.equal(href, `obsidian://open?path=${encodeURIComponent(path.join(notes, 'Only-in-Notes.md'))}`)
    // A browser has no file manager to show the note in.
    assert.equal(await page.locator('[data-testid="show-in-folder"]').count(), 0)
    // Searching builds the index; none of it lands in the folder.
    await page.keyboard.press('Control+Shift+F')
    await page.fill('[data-testid="search-input"]', 'Only here')
    await page.waitForSelector('[data-testid="search-panel"] [data-testid="search-result"][data-path="Only-in-Notes.md"]', { timeout: 15000 })
    await page.keyboard.press('Escape')
    assert.deepEqual(listing(notes), before)
    assert.ok(!fs.existsSync(path.join(notes, '.memotree')) && !fs.existsSync(path.join(notes, '.gitignore')))
  })

  test('an Obsidian vault opens from the switcher, and a second folder named Notes gets a name of its own', async () => {
    await page.click('[data-testid="vault-switcher"]')
    await page.click('[data-testid="obsidian-vaults"] button:has-text("Obsidian Vault")')
    await page.waitForSelector(row('Only-in-Obsidian.md'))
    await page.click('[data-testid="vault-switcher"]')
    await page.fill('[data-testid="open-vault-path"]', workNotes)
    await page.click('[data-testid="open-vault-submit"]')
    await page.waitForSelector(row('Only-at-work.md'))
    await page.click('[data-testid="vault-switcher"]')
    await page.waitForSelector('[data-testid="open-vaults"] li[data-library="Notes-2"]')
    const names = await page.$$eval('[data-testid="open-vaults"] li', (lis) => lis.map((li) => li.getAttribute('data-library')))
    assert.deepEqual(names, ['Notes', 'Obsidian-Vault', 'Notes-2'])
    await page.keyboard.press('Escape') // closes the dialog
    await page.waitForSelector('[data-testid="vaults"]', { state: 'detached' })
  })

  test('a restart with the same home opens the vaults again, the one shown last first, without the welcome', async () => {
    await server.stop()
    server = await startServe([], home)
    await page.goto(server.url)
    await page.waitForSelector(row('Only-at-work.md'))
    assert.equal(await page.locator('[data-testid="welcome"]').count(), 0)
    await page.click('[data-testid="vault-switcher"]')
    const names = await page.$$eval('[data-testid="open-vaults"] li', (lis) => lis.map((li) => li.getAttribute('data-library')))
    assert.equal(names.length, 3)
    assert.equal(names[0], 'Notes') // work/Notes, shown last, is the default now
  })

  test('switching and closing vaults; closing the last brings the welcome back', async () => {
    // Switch to the Obsidian vault.
    await page.click('[data-testid="open-vaults"] li[data-library="Obsidian-Vault"] button.vault')
    await page.waitForSelector(row('Only-in-Obsidian.md'))
    // Close it: the window shows another.
    await page.click('[data-testid="vault-switcher"]')
    await page.click('[data-testid="open-vaults"] li[data-library="Obsidian-Vault"] [data-testid="close-vault"]')
    await page.waitForFunction(() => !document.querySelector('[data-testid="open-vaults"] li[data-library="Obsidian-Vault"]'))
    await page.click('[data-testid="vaults"] button[aria-label="Close"]')
    await page.waitForSelector(`${row('Only-at-work.md')}, ${row('Only-in-Notes.md')}`)
    // Close the rest from the command palette.
    for (let i = 0; i < 2; i++) {
      await page.keyboard.press('Control+Shift+P')
      await page.keyboard.type('Close this vault')
      await page.keyboard.press('Enter')
      if (i === 0) await page.waitForFunction(() => document.querySelectorAll('select.library option').length === 0)
    }
    await page.waitForSelector('[data-testid="welcome"]')
    // The closed vaults are offered among the recent ones.
    const recent = await page.textContent('[data-testid="recent-vaults"]')
    assert.ok(recent.includes(obsidianVault) && recent.includes(notes), recent)
    // Nothing of Obsidian's was ever written.
    assert.equal(digest(path.join(obsidianVault, '.obsidian')), obsidianBefore)
    // The README's picture of the welcome, with the test's home folder shown as a
    // person's would be.
    await page.evaluate((dir) => {
      const walk = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT)
      for (let n = walk.nextNode(); n; n = walk.nextNode()) n.textContent = n.textContent.replaceAll(dir, '/home/ada')
    }, home.dir)
    await page.screenshot({ path: path.join(artifactsDir, 'welcome-recent.png') })
  })

  test('a vault folder deleted while open is closed, and the window says so', async () => {
    const doomed = path.join(home.dir, 'Doomed')
    makeVault(doomed, 'Only-in-Doomed.md')
    await page.fill('[data-testid="open-vault-path"]', doomed)
    await page.click('[data-testid="open-vault-submit"]')
    await page.waitForSelector(row('Only-in-Doomed.md'))
    fs.rmSync(doomed, { recursive: true, force: true })
    await page.waitForSelector('[data-testid="welcome"] [data-testid="vault-gone"]', { timeout: 15000 })
    assert.match(await page.textContent('[data-testid="vault-gone"]'), /Doomed/)
    assert.equal(await page.locator(tree).count(), 0)
  })

  test('a vault folder deleted while another is open gives way to it, and the window says so', async () => {
    const doomed = path.join(home.dir, 'Doomed-too')
    makeVault(doomed, 'Only-in-Doomed-too.md')
    await page.fill('[data-testid="open-vault-path"]', notes)
    await page.click('[data-testid="open-vault-submit"]')
    await page.waitForSelector(row('Only-in-Notes.md'))
    await page.click('[data-testid="vault-switcher"]')
    await page.fill('[data-testid="open-vault-path"]', doomed)
    await page.click('[data-testid="open-vault-submit"]')
    await page.waitForSelector(row('Only-in-Doomed-too.md'))
    fs.rmSync(doomed, { recursive: true, force: true })
    await page.waitForSelector('[data-testid="vault-gone"]', { timeout: 15000 })
    assert.match(await page.textContent('[data-testid="vault-gone"]'), /Doomed-too/)
    await page.waitForSelector(row('Only-in-Notes.md'))
    assert.equal(await page.locator(row('Only-in-Doomed-too.md')).count(), 0, 'no stale tree of the vault gone')
    assert.equal(await page.locator('select.library').count(), 0, 'one vault left to choose from')
    assert.equal(await page.textContent('span.library'), 'Notes')
  })
})

describe('a folder named at the start that cannot be opened', () => {
  const home = freshHome()
  const kept = path.join(home.dir, 'Kept')
  const missing = path.join(home.dir, 'Gone', 'Notes')
  let server
  let browser

  before(async () => {
    makeVault(kept, 'Only-in-Kept.md')
    browser = await openBrowser()
  })

  after(async () => {
    await browser?.close()
    await server?.stop()
    fs.rmSync(home.dir, { recursive: true, force: true })
  })

  test('with no vault open, the welcome says why', async () => {
    const { page } = browser
    server = await startServe([missing], home)
    await page.goto(server.url)
    const said = page.locator('[data-testid="welcome"] [role="alert"]')
    await said.waitFor()
    assert.match(await said.textContent(), /no such folder/)
    assert.ok((await said.textContent()).includes(missing))
    await server.stop()
  })

  test('beside the vaults opened again, the window says why in its notice bar', async () => {
    const { page } = browser
    server = await startServe([kept], home)
    await page.goto(server.url)
    await page.waitForSelector(row('Only-in-Kept.md'))
    await server.stop()
    server = await startServe([missing], home)
    await page.goto(server.url)
    await page.waitForSelector(row('Only-in-Kept.md'))
    const said = page.locator('[data-testid="app-notice"]')
    await said.waitFor()
    assert.match(await said.textContent(), /no such folder/)
    assert.ok((await said.textContent()).includes(missing))
    assert.equal(fs.existsSync(path.dirname(missing)), false, 'nothing was created where the folder was named')
  })
})

describe('the welcome with a broken obsidian.json', () => {
  const home = freshHome()
  let server
  let browser

  before(async () => {
    const cfg = path.join(home.env.XDG_CONFIG_HOME, 'obsidian')
    fs.mkdirSync(cfg, { recursive: true })
    fs.writeFileSync(path.join(cfg, 'obsidian.json'), '{"vaults": {"x": ')
    server = await startServe([], home)
    browser = await openBrowser()
  })

  after(async () => {
    await browser?.close()
    await server?.stop()
    fs.rmSync(home.dir, { recursive: true, force: true })
  })

  test('lists no Obsidian vault and still opens the demo', async () => {
    const { page } = browser
    await page.goto(server.url)
    await page.waitForSelector('[data-testid="welcome"]')
    assert.match(await page.textContent('[data-testid="obsidian-vaults"]'), /not on this computer/)
    await page.click('[data-testid="open-demo"]')
    await page.waitForSelector(`${tree} [data-path]`, { timeout: 20000 })
  })
})

describe('the demo vault, opened from the welcome', () => {
  const home = freshHome()
  let server
  let browser

  before(async () => {
    server = await startServe([], home)
    browser = await openBrowser({ width: 1440, height: 900 })
  })

  after(async () => {
    await browser?.close()
    await server?.stop()
    fs.rmSync(home.dir, { recursive: true, force: true })
  })

  test('is a repository with history and a change waiting: the review panel, the history and the diff work at once', async () => {
    const { page } = browser
    await page.goto(server.url)
    await page.click('[data-testid="open-demo"]')
    await page.waitForSelector(`${tree} [data-path="Welcome.md"]`, { timeout: 20000 })
    await page.click('[data-testid="toggle-git"]')
    const panel = '[data-testid="git-panel"]'
    await page.waitForSelector(`${panel} [data-change="people/Konrad Zuse.md"][data-state="untracked"]`)
    await page.waitForSelector(`${panel} [data-change="projects/Open Questions.md"][data-state="modified"]`)
    // A note's history: two versions by the demo's author.
    if ((await page.locator(row('people/Ada Lovelace.md')).count()) === 0) await page.click(`${tree} [data-folder="people"]`)
    await page.waitForSelector(row('people/Ada Lovelace.md'))
    await page.click(row('people/Ada Lovelace.md'))
    await page.waitForSelector('[data-testid="note-history"] [data-commit]')
    await page.waitForFunction(() => document.querySelectorAll('[data-testid="note-history"] [data-commit]').length === 2)
    // The diff of the pending edit.
    await page.getByRole('button', { name: 'projects/Open Questions.md, modified: show the diff' }).click()
    const diff = page.locator('[data-testid="git-diff"][data-path="projects/Open Questions.md"]')
    await diff.waitFor()
    assert.ok((await diff.locator('tr.line.add').allTextContents()).some((t) => t.includes('Konrad Zuse now has a note')))
    // The palette offers commit, push and pull here: the demo is a repository.
    await page.keyboard.press('Control+Shift+P')
    await page.keyboard.type('Commit')
    await page.waitForSelector('[data-testid="command-palette"] [role="option"]:has-text("Commit")')
    await page.keyboard.press('Escape')
  })
})

describe('a folder that is not a repository', () => {
  const home = freshHome()
  const plain = path.join(home.dir, 'Plain')
  let server
  let browser

  before(async () => {
    makeVault(plain, 'Only-in-Plain.md')
    server = await startServe([plain], home)
    browser = await openBrowser()
  })

  after(async () => {
    await browser?.close()
    await server?.stop()
    fs.rmSync(home.dir, { recursive: true, force: true })
  })

  test('keeps the offer to initialise one, and the palette offers no commit, push or pull', async () => {
    const { page } = browser
    await page.goto(server.url)
    await page.waitForSelector(row('Only-in-Plain.md'))
    await page.click('[data-testid="toggle-git"]')
    await page.waitForSelector('[data-testid="git-panel"] button:has-text("Initialise")')
    await page.keyboard.press('Control+Shift+P')
    await page.keyboard.type('Commit')
    await page.waitForSelector('[data-testid="command-palette"]')
    const offered = await page.$$eval('[data-testid="command-palette"] [role="option"]', (os) => os.map((o) => o.textContent ?? ''))
    assert.ok(!offered.some((t) => /Commit|Push|Pull/.test(t)), offered.join(' | '))
    await page.keyboard.press('Escape')
    for (const word of ['Push', 'Pull']) {
      await page.keyboard.press('Control+Shift+P')
      await page.keyboard.type(word)
      const opts = await page.$$eval('[data-testid="command-palette"] [role="option"]', (os) => os.map((o) => o.textContent ?? ''))
      assert.ok(!opts.some((t) => t.includes(word)), opts.join(' | '))
      await page.keyboard.press('Escape')
    }
    assert.ok(!fs.existsSync(path.join(plain, '.git')) && !fs.existsSync(path.join(plain, '.memotree')))
  })
})
