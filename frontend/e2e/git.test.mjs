// The source-control panel in a real browser against a real `memotree serve` on a vault
// that is a real git repository, checked with the real git command line.
import assert from 'node:assert/strict'
import { execFileSync } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { after, before, describe, test } from 'node:test'
import { artifactsDir, basicVault, openApp, waitFor } from './harness.mjs'

const panel = '[data-testid="git-panel"]'
const change = (p) => `${panel} [data-change="${p.replace(/"/g, '\\"')}"]`

/** git runs the git command in dir with a fixed identity and no user configuration. */
function git(dir, ...args) {
  return execFileSync(
    'git',
    ['-c', 'user.name=E2E', '-c', 'user.email=e2e@example.com', '-c', 'commit.gpgsign=false', '-c', 'core.quotepath=off', ...args],
    { cwd: dir, encoding: 'utf8', env: { ...process.env, GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null' } },
  )
}

describe('the source-control panel', () => {
  /** @type {Awaited<ReturnType<typeof openApp>>['server']} */
  let server
  /** @type {Awaited<ReturnType<typeof openApp>>['browser']} */
  let browser
  let page
  let repo // the fixture committed by git, which the server copies (.git included)

  before(async () => {
    repo = fs.mkdtempSync(path.join(os.tmpdir(), 'memotree-e2e-git-'))
    fs.cpSync(basicVault, repo, { recursive: true })
    fs.writeFileSync(path.join(repo, '.gitignore'), '.memotree/\n')
    git(repo, 'init', '-q', '-b', 'main')
    git(repo, 'add', '-A')
    git(repo, 'commit', '-q', '-m', 'The fixture')
    // No git identity anywhere: the first commit asks for one (see below).
    ;({ server, browser, page } = await openApp({ vault: repo, env: { GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null' } }))
  })

  after(async () => {
    await browser?.close()
    await server?.stop()
    if (repo) fs.rmSync(repo, { recursive: true, force: true })
  })

  test('the panel opens from the toolbar with nothing pending', async () => {
    await page.getByRole('button', { name: /^Changes/ }).click()
    await page.waitForSelector(panel)
    assert.equal(await page.getAttribute('[data-testid="toggle-git"]', 'aria-pressed'), 'true')
    await page.waitForSelector(`${panel} >> text=No pending changes`)
    assert.equal(await page.locator(`${panel} [data-change]`).count(), 0)
  })

  test('an edit on disk appears, marked in the tree and the graph, with its diff', async () => {
    const line = `A line typed in another editor ${Date.now()}`
    fs.appendFileSync(path.join(server.vaultDir, 'Home.md'), `\n${line}\n`)
    await page.waitForSelector(change('Home.md'), { timeout: 15000 })
    // Made outside MemoTree: the "Outside edits" change set.
    assert.equal(await page.getAttribute(`${panel} [data-changeset="external"] [data-change="Home.md"]`, 'data-state'), 'modified')
    await page.waitForSelector('[data-testid="file-tree"] [data-path="Home.md"][data-pending="modified"]')
    const marked = await page.evaluate(() => {
      const s = window.__memotreeSigma
      const want = getComputedStyle(document.documentElement).getPropertyValue('--pending').trim()
      return s ? s.getNodeDisplayData('Home.md')?.color === want : null
    })
    assert.equal(marked, true, 'the graph draws Home.md in the pending colour')

    await page.getByRole('button', { name: 'Home.md, modified: show the diff' }).click()
    const diff = page.locator('[data-testid="git-diff"][data-path="Home.md"]')
    await diff.waitFor()
    const added = await diff.locator('tr.line.add').allTextContents()
    assert.ok(added.some((t) => t.includes(line)), `the diff's added lines hold the new line: ${JSON.stringify(added)}`)
  })

  test('a note written through the tools forms its own change set', async () => {
    // `memotree call` beside the running server, as an MCP client or a script would.
    const bin = path.resolve(import.meta.dirname, '..', process.env.MEMOTREE_BIN ?? '../build/bin/memotree-headless')
    execFileSync(bin, ['call', '--library', `demo=${server.vaultDir}`, 'create_entity', JSON.stringify({ entity_name: 'ideas/From the tools', content: 'Written by a tool.' })])
    const row = `${panel} [data-changeset="cli"] [data-change="ideas/From the tools.md"]`
    await page.waitForSelector(row, { timeout: 15000 })
    assert.equal(await page.getAttribute(row, 'data-state'), 'untracked')
    assert.ok((await page.textContent(`${panel} [data-changeset="cli"]`)).includes('Command line'))
    // Throw it away again (a file never committed is deleted, after the confirmation).
    await page.getByRole('button', { name: 'Discard the changes of ideas/From the tools.md' }).click()
    await page.click('[data-testid="confirm-discard-confirm"]')
    await page.waitForSelector(row, { state: 'detached', timeout: 15000 })
    assert.equal(fs.existsSync(path.join(server.vaultDir, 'ideas/From the tools.md')), false)
  })

  test('a word changed inside a line is highlighted on its own', async () => {
    const file = path.join(server.vaultDir, 'people/Charles Babbage.md')
    const text = fs.readFileSync(file, 'utf8')
    // A line of prose (the body's: a front matter line is shown as its property).
    const body = text.slice(text.indexOf('\n---\n') + 5)
    const words = body.match(/^[^\n#-][^\n]*\b([A-Za-z]{4,})\b[^\n]*$/m)
    assert.ok(words, 'Charles Babbage.md has a line with a word to change')
    const edited = text.replace(words[0], words[0].replace(words[1], 'Zwischenwort'))
    fs.writeFileSync(file, edited)
    await page.waitForSelector(change('people/Charles Babbage.md'))
    // The folder holding it says so, for a collapsed tree and for screen readers.
    await page.waitForSelector('[data-testid="file-tree"] [data-folder="people"][aria-label="people, holds pending changes"]')
    await page.getByRole('button', { name: 'people/Charles Babbage.md, modified: show the diff' }).click()
    const diff = page.locator('[data-testid="git-diff"][data-path="people/Charles Babbage.md"]')
    await diff.waitFor()
    assert.deepEqual(await diff.locator('tr.line.add mark.word').allTextContents(), ['Zwischenwort'])
    assert.deepEqual(await diff.locator('tr.line.del mark.word').allTextContents(), [words[1]])
    // The README's picture of the review panel: two outside edits, one diff open.
    fs.mkdirSync(artifactsDir, { recursive: true })
    await page.screenshot({ path: path.join(artifactsDir, 'review.png') })
  })

  test('committing the chosen note with a message: git log has it, the rest stays pending', async () => {
    const head = git(server.vaultDir, 'rev-parse', 'HEAD')
    await page.getByRole('checkbox', { name: 'Select Home.md' }).check()
    await page.fill('[data-testid="commit-message"]', 'Note a line typed elsewhere')
    await page.click('[data-testid="commit-button"]')
    // No name and email configured: git would refuse, and so does the panel, which asks
    // for them, saves them in the repository and commits in one step.
    const form = page.locator('[data-testid="git-identity"]')
    await form.waitFor({ state: 'visible', timeout: 15000 })
    assert.equal(git(server.vaultDir, 'rev-parse', 'HEAD'), head, 'nothing committed without an identity')
    assert.ok(await page.isVisible(change('Home.md')), 'the change is still pending')
    await page.fill('[data-testid="identity-name"]', 'Ada Lovelace')
    await page.fill('[data-testid="identity-email"]', 'ada@example.com')
    await page.click('[data-testid="identity-save"]')
    await page.waitForSelector(change('Home.md'), { state: 'detached', timeout: 15000 })
    await form.waitFor({ state: 'detached' })
    assert.equal(git(server.vaultDir, 'config', '--local', 'user.email'), 'ada@example.com\n')
    assert.equal(git(server.vaultDir, 'log', '-1', '--format=%an <%ae>'), 'Ada Lovelace <ada@example.com>\n')
    assert.equal(git(server.vaultDir, 'log', '-1', '--format=%s'), 'Note a line typed elsewhere\n')
    assert.equal(git(server.vaultDir, 'show', '--name-only', '--format=', 'HEAD'), 'Home.md\n')
    assert.match(git(server.vaultDir, 'log', '-1', '--format=%(trailers:only,unfold)'), /^MemoTree-Actor: external$/m)
    const porcelain = git(server.vaultDir, 'status', '--porcelain', '-z').split('\0').filter(Boolean)
    assert.ok(porcelain.includes(' M people/Charles Babbage.md'), porcelain.join('\n'))
    assert.ok(!porcelain.some((l) => l.endsWith('Home.md')), porcelain.join('\n'))
    git(server.vaultDir, 'fsck', '--strict', '--no-progress')
  })

  test('a note moved to another folder and edited is one change, diffed and committed as a rename', async () => {
    const from = 'ideas/差分机.md'
    const to = 'archive/差分机 (old).md'
    const line = `A line added after the move ${Date.now()}`
    const text = fs.readFileSync(path.join(server.vaultDir, from), 'utf8')
    fs.mkdirSync(path.join(server.vaultDir, 'archive'), { recursive: true })
    fs.writeFileSync(path.join(server.vaultDir, to), `${text}\n${line}\n`)
    fs.rmSync(path.join(server.vaultDir, from))
    // The new file may be listed as untracked for a moment, until the removal is seen.
    await page.waitForSelector(`${change(to)}[data-state="renamed"]`, { timeout: 15000 })
    assert.ok((await page.textContent(change(to))).includes(`from ${from}`), 'the row names the old path')
    assert.equal(await page.locator(change(from)).count(), 0, 'the old path is not a deletion of its own')
    // The diff is against the old path: only the new lines are added.
    await page.getByRole('button', { name: `${to}, renamed: show the diff` }).click()
    const diff = page.locator(`[data-testid="git-diff"][data-path="${to}"]`)
    await diff.waitFor()
    const added = await diff.locator('tr.line.add').allTextContents()
    assert.ok(added.some((t) => t.includes(line)), JSON.stringify(added))
    assert.ok(added.length <= 2 && (await diff.locator('tr.line.del').count()) === 0, `the diff of a move: ${JSON.stringify(added)}`)
    await page.getByRole('checkbox', { name: `Select ${to}` }).check()
    await page.fill('[data-testid="commit-message"]', 'Archive the difference engine')
    // A tag with a description: an annotated tag, as `git tag -a` makes one.
    assert.equal(await page.locator('[data-testid="tag-description"]').count(), 0, 'no description field without a tag')
    await page.getByRole('textbox', { name: 'Tag for the commit (optional)' }).fill('archived')
    await page.fill('[data-testid="tag-description"]', 'The engine, archived')
    await page.click('[data-testid="commit-button"]')
    await page.waitForSelector(change(to), { state: 'detached', timeout: 15000 })
    assert.equal(git(server.vaultDir, 'cat-file', '-t', 'archived').trim(), 'tag')
    assert.equal(git(server.vaultDir, 'tag', '-l', '--format=%(contents)', 'archived').trim(), 'The engine, archived')
    assert.equal(git(server.vaultDir, 'rev-parse', 'archived^{commit}'), git(server.vaultDir, 'rev-parse', 'HEAD'))
    const show = git(server.vaultDir, 'show', '--name-status', '-M', '--format=', 'HEAD')
    assert.match(show, new RegExp(`^R\\d{3}\t${from}\t${to.replace(/[()]/g, '\\$&')}\n$`), show)
    const porcelain = git(server.vaultDir, 'status', '--porcelain')
    assert.ok(!porcelain.includes('差分机'), porcelain)
  })

  test('discarding asks first, then restores the note on disk', async () => {
    const rel = 'people/Ada Lovelace.md'
    const file = path.join(server.vaultDir, rel)
    const committed = fs.readFileSync(file, 'utf8')
    fs.writeFileSync(file, '# Scribbled over\n')
    await page.waitForSelector(change(rel))
    await page.getByRole('button', { name: `Discard the changes of ${rel}` }).click()
    const dialog = page.locator('[data-testid="confirm-discard"]')
    await dialog.waitFor({ state: 'visible' })
    assert.match(await dialog.textContent(), /restored as last committed/)
    // Escape cancels: nothing changes.
    await page.keyboard.press('Escape')
    await dialog.waitFor({ state: 'hidden' })
    assert.equal(fs.readFileSync(file, 'utf8'), '# Scribbled over\n')

    await page.getByRole('button', { name: `Discard the changes of ${rel}` }).click()
    await dialog.waitFor({ state: 'visible' })
    await page.click('[data-testid="confirm-discard-confirm"]')
    await waitFor(() => fs.readFileSync(file, 'utf8') === committed, 'the note restored on disk')
    await page.waitForSelector(change(rel), { state: 'detached', timeout: 15000 })
    const porcelain = git(server.vaultDir, 'status', '--porcelain')
    assert.ok(!porcelain.includes('Ada Lovelace'), porcelain)
  })

  test('the history of a note lists its commits and restores an old version', async () => {
    await page.getByRole('button', { name: 'people/Charles Babbage.md, modified: show the diff' }).click()
    const history = page.locator('[data-testid="note-history"]')
    await history.waitFor()
    await page.waitForSelector('[data-testid="note-history"] [data-commit]')
    assert.equal(await history.locator('[data-commit]').count(), 1)
    await history.getByRole('button', { name: /^View/ }).first().click()
    await page.waitForSelector('[data-testid="revision-preview"]')
    const file = path.join(server.vaultDir, 'people/Charles Babbage.md')
    const old = git(server.vaultDir, 'show', 'HEAD:people/Charles Babbage.md')
    assert.equal(await page.textContent('[data-testid="revision-preview"] pre'), old)
    await history.locator('[data-testid="restore"]').first().click()
    await history.locator('[data-testid="restore-confirm"]').click()
    await waitFor(() => fs.readFileSync(file, 'utf8') === old, 'the old version restored on disk')
    await page.waitForSelector(change('people/Charles Babbage.md'), { state: 'detached', timeout: 15000 })
  })

  test('pull brings in a commit made on another machine; push sends ours (a bare remote over file://)', async () => {
    const remote = path.join(repo, '..', `${path.basename(repo)}-remote.git`)
    const other = path.join(repo, '..', `${path.basename(repo)}-other`)
    try {
      git(server.vaultDir, 'add', '-A')
      git(server.vaultDir, 'commit', '-q', '--allow-empty', '-m', 'Before syncing')
      git(path.dirname(remote), 'clone', '-q', '--bare', server.vaultDir, remote)
      git(server.vaultDir, 'remote', 'add', 'origin', `file://${remote}`)
      git(server.vaultDir, 'fetch', '-q', 'origin')
      git(server.vaultDir, 'branch', '-q', '--set-upstream-to=origin/main')
      await page.getByRole('button', { name: 'Refresh the changes' }).click()
      await page.waitForSelector('[data-testid="pull"]')

      git(path.dirname(other), 'clone', '-q', `file://${remote}`, other)
      const line = `From the other machine ${Date.now()}`
      fs.appendFileSync(path.join(other, 'Home.md'), `\n${line}\n`)
      git(other, 'commit', '-q', '-am', 'Other machine')
      git(other, 'push', '-q', 'origin', 'main')

      await page.click('[data-testid="pull"]')
      await page.waitForSelector('[data-testid="git-notice"] >> text=Pulled the remote', { timeout: 30000 })
      assert.ok(fs.readFileSync(path.join(server.vaultDir, 'Home.md'), 'utf8').includes(line))
      assert.equal(git(server.vaultDir, 'rev-parse', 'HEAD'), git(other, 'rev-parse', 'HEAD'))

      fs.appendFileSync(path.join(server.vaultDir, 'ideas/Binary.md'), '\nPushed from the panel.\n')
      await page.waitForSelector(change('ideas/Binary.md'))
      await page.getByRole('checkbox', { name: 'Select ideas/Binary.md' }).check()
      await page.fill('[data-testid="commit-message"]', 'Push me')
      await page.click('[data-testid="commit-button"]')
      await page.waitForSelector(change('ideas/Binary.md'), { state: 'detached' })
      await page.click('[data-testid="push"]')
      await page.waitForSelector('[data-testid="git-notice"] >> text=Pushed main to origin', { timeout: 30000 })
      assert.equal(git(remote, 'log', '-1', '--format=%s', 'main'), 'Push me\n')
      git(remote, 'fsck', '--strict', '--no-progress')
    } finally {
      fs.rmSync(remote, { recursive: true, force: true })
      fs.rmSync(other, { recursive: true, force: true })
    }
    fs.mkdirSync(artifactsDir, { recursive: true })
    await page.screenshot({ path: path.join(artifactsDir, 'git-panel.png') })
    assert.deepEqual(browser.errors, [], 'no uncaught errors in the page')
  })
})
