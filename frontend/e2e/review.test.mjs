// Reviewing an agent's change hunk by hunk, telling it why, and the blame of a note:
// a real browser against a real `memotree serve` on a real git repository, the agent a
// local OpenAI-compatible server (fakellm.mjs), checked with the real git command line.
import assert from 'node:assert/strict'
import { execFileSync } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { after, before, describe, test } from 'node:test'
import { startFakeLLM, text, toolCalls } from './fakellm.mjs'
import { artifactsDir, basicVault, openApp, waitFor } from './harness.mjs'

// The pictures of docs/ this file makes (docs/pictures.json): into docs/ with `make
// screenshots` (MEMOTREE_SCREENSHOTS=docs), else into the artifacts.
const shotsDir = process.env.MEMOTREE_SCREENSHOTS ? path.resolve(process.env.MEMOTREE_SCREENSHOTS) : artifactsDir

const panel = '[data-testid="git-panel"]'
const chatPane = '#chat-pane'
const input = `${chatPane} [data-testid="chat-input"]`
const draftDiff = '[data-testid="git-diff"][data-path="ideas/Draft.md"]'
const hunk = (n) => `${draftDiff} [data-testid="hunk"][data-hunk="${n}"]`

/** git runs the git command in dir with a fixed identity and no user configuration. */
function git(dir, ...args) {
  return execFileSync('git', ['-c', 'user.name=E2E', '-c', 'user.email=e2e@example.com', '-c', 'commit.gpgsign=false', '-c', 'core.quotepath=off', ...args], {
    cwd: dir,
    encoding: 'utf8',
    env: { ...process.env, GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null' },
  })
}

/** The draft as committed: front matter, a title and forty sentences. */
const sentence = (n) => `Sentence ${n} of the draft.`
const draft = ['---', 'entity type: draft', 'status: open', '---', '', '# Draft', '', ...Array.from({ length: 40 }, (_, i) => sentence(i + 1))].join('\n') + '\n'
const rewritten = (n) => `Sentence ${n} of the draft, as the agent rewrote it.`

/** gitHunks returns the hunks of `git diff` of one file (headers without function context). */
function gitHunks(dir, file) {
  const hunks = []
  for (const l of git(dir, 'diff', '-U3', '--no-color', '--', file).split(/(?<=\n)/)) {
    if (l.startsWith('@@')) hunks.push(l.slice(0, l.lastIndexOf('@@') + 2) + '\n')
    else if (hunks.length > 0) hunks[hunks.length - 1] += l
  }
  return hunks
}

describe('reviewing an agent change hunk by hunk, and the blame', () => {
  let llm, server, browser, page, repo

  before(async () => {
    llm = await startFakeLLM()
    repo = fs.mkdtempSync(path.join(os.tmpdir(), 'memotree-e2e-review-'))
    fs.cpSync(basicVault, repo, { recursive: true })
    fs.writeFileSync(path.join(repo, '.gitignore'), '.memotree/\n')
    fs.writeFileSync(path.join(repo, 'ideas', 'Draft.md'), draft)
    git(repo, 'init', '-q', '-b', 'main')
    git(repo, 'config', 'user.name', 'Ada Lovelace')
    git(repo, 'config', 'user.email', 'ada@example.com')
    git(repo, 'add', '-A')
    git(repo, 'commit', '-q', '-m', 'The fixture')
    const config = fs.mkdtempSync(path.join(fs.realpathSync('/tmp'), 'memotree-e2e-config-'))
    ;({ server, browser, page } = await openApp({
      vault: repo,
      env: { OPENAI_BASE_URL: llm.baseURL, MEMOTREE_MODEL: 'fake-model', OPENAI_API_KEY: 'sk-e2e', XDG_CONFIG_HOME: config, GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null' },
    }))
  })

  after(async () => {
    await browser?.close()
    await server?.stop()
    await llm?.close()
    if (repo) fs.rmSync(repo, { recursive: true, force: true })
  })

  /** ask sends a prompt in the chat and waits for the agent's closing words. */
  async function ask(prompt, closing) {
    if (await page.locator(chatPane).isHidden()) await page.getByRole('button', { name: /^Chat/ }).click()
    await page.fill(input, prompt)
    await page.press(input, 'Enter')
    await page.locator(`${chatPane} [data-role="assistant"]`, { hasText: closing }).waitFor({ timeout: 30000 })
  }

  async function openChanges() {
    if (await page.locator(panel).isHidden()) await page.getByRole('button', { name: /^Changes/ }).click()
    await page.waitForSelector(panel)
  }

  test('an agent turn rewrites the draft: its diff has a hunk per change, the front matter shown as properties', async () => {
    llm.script(
      toolCalls([
        { id: 'c1', name: 'update_entity', args: { entity_name: 'ideas/Draft', entity_type: 'essay' } },
        { id: 'c2', name: 'edit_entity', args: { entity_name: 'ideas/Draft', old_content: sentence(10), new_content: rewritten(10) } },
        { id: 'c3', name: 'edit_entity', args: { entity_name: 'ideas/Draft', old_content: sentence(25), new_content: rewritten(25) } },
        { id: 'c4', name: 'edit_entity', args: { entity_name: 'ideas/Draft', old_content: sentence(40), new_content: rewritten(40) } },
      ]),
      text('I rewrote three sentences and made the draft an essay.'),
    )
    await ask('Rework the draft.', 'I rewrote three sentences')
    await openChanges()
    const row = `${panel} [data-changeset^="agent@"] [data-change="ideas/Draft.md"]`
    await page.waitForSelector(row, { timeout: 15000 })
    await page.getByRole('button', { name: 'ideas/Draft.md, modified: show the diff' }).click()
    await page.waitForSelector(hunk(4))
    assert.equal(await page.locator(`${draftDiff} [data-testid="hunk"]`).count(), 4)
    // The front matter's hunk names the property that changed, not YAML lines.
    const prop = page.locator(`${hunk(1)} [data-testid="hunk-property"][data-key="entity type"]`)
    assert.match(await prop.textContent(), /draft\s*→\s*essay/)
    assert.equal(await page.locator(`${hunk(1)} tr.line`).count(), 0)
    // Prose: the changed words within the line are marked.
    assert.deepEqual(await page.locator(`${hunk(3)} tr.line.add mark.word`).allTextContents(), [', as the agent rewrote it'])
  })

  test('Keep folds a hunk as reviewed; Undo puts back that hunk only and offers to tell the agent why', async () => {
    const file = path.join(server.vaultDir, 'ideas', 'Draft.md')
    const agentText = fs.readFileSync(file, 'utf8')
    const before = gitHunks(server.vaultDir, 'ideas/Draft.md')
    assert.equal(before.length, 4)

    await page.click(`${hunk(2)} [data-testid="hunk-keep"]`)
    await page.waitForSelector(`${hunk(2)}[data-kept="true"]`)
    assert.equal(await page.locator(`${hunk(2)} tr.line`).count(), 0, 'a kept hunk folds away')
    assert.equal(fs.readFileSync(file, 'utf8'), agentText, 'Keep writes nothing')

    await page.click(`${hunk(3)} [data-testid="hunk-undo"]`)
    await waitFor(() => fs.readFileSync(file, 'utf8') === agentText.replace(rewritten(25), sentence(25)), 'hunk 3 undone on disk')
    const after = gitHunks(server.vaultDir, 'ideas/Draft.md')
    assert.deepEqual(after, [before[0], before[1], before[3]], 'git diff shows the other hunks exactly as before')
    await page.waitForSelector(hunk(3)) // the last hunk, numbered again
    await page.waitForSelector(`${draftDiff} [data-testid="hunk"]:nth-child(4)`, { state: 'detached' })
    assert.equal(await page.getAttribute(`${hunk(2)}`, 'data-kept'), 'true', 'the kept hunk stays kept')
    // The rest stays pending, in the agent's change set.
    await page.waitForSelector(`${panel} [data-changeset^="agent@"] [data-change="ideas/Draft.md"]`)

    const feedback = page.locator('[data-testid="undo-feedback"]')
    await feedback.waitFor()
    fs.mkdirSync(shotsDir, { recursive: true })
    await page.locator(panel).screenshot({ path: path.join(shotsDir, 'review-hunks.png') })
    llm.script(text('Understood: sentence 25 stays as it was.'))
    await page.fill('[data-testid="feedback-text"]', 'Sentence 25 was right as it was.')
    await page.click('[data-testid="feedback-send"]')
    await feedback.waitFor({ state: 'detached' })
    await waitFor(() => llm.requests.some((r) => JSON.stringify(r.messages).includes('Sentence 25 was right')), 'the feedback reaching the model')
    const sent = llm.requests.at(-1).messages.filter((m) => m.role === 'user').at(-1).content
    assert.match(sent, /I undid this change of yours to ideas\/Draft\.md/)
    assert.match(sent, /```diff\n@@ -\d+,7 \+\d+,7 @@\n/, 'the hunk is quoted as a diff')
    assert.ok(sent.includes(`-${sentence(25)}\n+${rewritten(25)}\n`), sent)
    assert.match(sent, /Why: Sentence 25 was right as it was\./)
    await page.locator(`${chatPane} [data-role="assistant"]`, { hasText: 'sentence 25 stays' }).waitFor({ state: 'attached', timeout: 30000 })
  })

  test('Keep all ticks every change of a set; Undo all throws the set away after asking', async () => {
    llm.script(
      toolCalls([
        { id: 'k1', name: 'edit_entity', args: { entity_name: 'Home', old_content: 'Entry point of the small e2e fixture.', new_content: 'Where to start.' } },
        { id: 'k2', name: 'create_entity', args: { entity_name: 'ideas/Aside', content: 'A thought on the side.' } },
      ]),
      text('Edited Home and added an aside.'),
    )
    await ask('Tidy up Home.', 'Edited Home and added an aside')
    await openChanges()
    const set = page.locator(`${panel} [data-changeset^="agent@"]`, { has: page.locator('[data-change="ideas/Aside.md"]') })
    await set.waitFor({ timeout: 15000 })
    await set.locator('[data-testid="keep-all"]').click()
    await set.locator('[data-change="Home.md"][data-reviewed="true"]').waitFor()
    await set.locator('[data-change="ideas/Aside.md"][data-reviewed="true"]').waitFor()
    await set.locator('[data-testid="undo-all"]').click()
    await page.click('[data-testid="confirm-undo-all-confirm"]')
    await waitFor(() => !fs.existsSync(path.join(server.vaultDir, 'ideas', 'Aside.md')), 'the new note removed')
    await waitFor(() => fs.readFileSync(path.join(server.vaultDir, 'Home.md'), 'utf8').includes('Entry point of the small e2e fixture.'), 'Home restored')
    await set.waitFor({ state: 'detached' })
    await page.locator('[data-testid="undo-feedback"]').waitFor()
    await page.click('[data-testid="feedback-dismiss"]')
  })

  test('the blame names each line’s commit and actor; a line opens its commit’s diff', async () => {
    await openChanges()
    await page.fill('[data-testid="commit-message"]', 'The agent’s rework of the draft')
    await page.getByRole('checkbox', { name: 'Select ideas/Draft.md' }).check()
    await page.click('[data-testid="commit-button"]')
    await page.waitForSelector(`${panel} [data-change="ideas/Draft.md"]`, { state: 'detached', timeout: 15000 })
    assert.match(git(server.vaultDir, 'log', '-1', '--format=%(trailers:only,unfold)'), /MemoTree-Actor: agent/)
    // The person adds a line in another editor: not committed.
    const file = path.join(server.vaultDir, 'ideas', 'Draft.md')
    fs.writeFileSync(file, fs.readFileSync(file, 'utf8').replace(`${sentence(8)}\n`, `${sentence(8)}\nA line not committed yet.\n`))
    await page.waitForSelector(`${panel} [data-changeset="external"] [data-change="ideas/Draft.md"]`, { timeout: 15000 })

    await page.click('[data-testid="file-tree"] [data-path="ideas/Draft.md"]')
    await page.click('[data-testid="blame-toggle"]')
    const lines = fs.readFileSync(file, 'utf8').trimEnd().split('\n')
    await page.waitForSelector(`[data-testid="blame-line"][data-line="${lines.length}"]`)
    const byLine = new Map()
    for (const m of git(server.vaultDir, 'blame', '--porcelain', '-M', '-w', '--', 'ideas/Draft.md').matchAll(/^([0-9a-f]{40}) \d+ (\d+)/gm)) byLine.set(Number(m[2]), m[1])
    const head = git(server.vaultDir, 'rev-parse', 'HEAD').trim()
    const fixture = git(server.vaultDir, 'rev-parse', 'HEAD~1').trim()
    const actorOf = { [head]: 'agent', [fixture]: 'E2E', ['0'.repeat(40)]: 'external' }
    const shownLines = await page.$$eval('[data-testid="blame-line"]', (els) => els.map((e) => [Number(e.dataset.line), e.dataset.commit, e.dataset.actor]))
    assert.equal(shownLines.length, lines.length)
    for (const [n, commit, actor] of shownLines) {
      const want = byLine.get(n)
      assert.equal(commit || '0'.repeat(40), want, `line ${n}'s commit is git blame's`)
      assert.equal(actor, actorOf[want], `line ${n}'s actor`)
    }
    assert.deepEqual(new Set(shownLines.map((l) => l[2])), new Set(['agent', 'E2E', 'external']))
    const agentLine = lines.indexOf(rewritten(10)) + 1
    await page.click(`[data-testid="blame-line"][data-line="${agentLine}"]`)
    const shown = page.locator('[data-testid="blame-commit"]')
    await shown.waitFor()
    assert.equal(await shown.getAttribute('data-commit'), head)
    assert.equal(await shown.locator('tr.line.add', { hasText: rewritten(10) }).locator('mark.word').textContent(), ', as the agent rewrote it')
    // The picture: the first lines (the agent's, the fixture's, one not committed), the commit's diff below.
    await page.locator('[data-testid="blame"]').evaluate((el) => {
      el.scrollIntoView({ block: 'start' })
      const list = el.querySelector('ol')
      if (list) list.scrollTop = 0
    })
    await page.locator(panel).screenshot({ path: path.join(shotsDir, 'blame.png') })
  })

  test('an undo of a note saved meanwhile overwrites nothing: its diff is shown again', async () => {
    await openChanges()
    await page.getByRole('button', { name: 'ideas/Draft.md, modified: show the diff' }).click()
    await page.waitForSelector(hunk(1))
    const file = path.join(server.vaultDir, 'ideas', 'Draft.md')
    const saved = fs.readFileSync(file, 'utf8') + 'A line Obsidian saved meanwhile.\n'
    // Another program saves the note between the diff on screen and the undo.
    await page.route('**/api/call/GitUndoHunks', async (route) => {
      fs.writeFileSync(file, saved)
      await route.continue()
    })
    await page.click(`${hunk(1)} [data-testid="hunk-undo"]`)
    await page.waitForSelector(`${panel} [data-testid="git-notice"]:has-text("changed since its diff was shown")`)
    await page.unroute('**/api/call/GitUndoHunks')
    assert.equal(fs.readFileSync(file, 'utf8'), saved, 'the saved note is not overwritten')
    await page.locator(`${draftDiff} tr.line.add`, { hasText: 'A line Obsidian saved meanwhile.' }).waitFor()
  })
})
