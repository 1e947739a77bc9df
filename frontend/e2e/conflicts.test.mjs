// Conflicts and backups in a real browser against a real `memotree serve` on a clone
// of a bare repository, the conflicts made by the real git command line in two clones
// and the outcome checked with it (git log --merges, git fsck --strict).
import assert from 'node:assert/strict'
import { execFileSync } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { after, before, describe, test } from 'node:test'
import { openApp, waitFor } from './harness.mjs'

const panel = '[data-testid="git-panel"]'
const view = (p) => `[data-testid="conflict-view"][data-path="${p}"]`
const hunk = (p, n) => `${view(p)} [data-hunk="${n}"]`

/** git runs the git command in dir with a fixed identity and no user configuration. */
function git(dir, ...args) {
  return execFileSync('git', ['-c', 'user.name=Other', '-c', 'user.email=other@example.com', '-c', 'commit.gpgsign=false', ...args], {
    cwd: dir,
    encoding: 'utf8',
    env: { ...process.env, GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null' },
  })
}

/** tryGit is git that reports failure instead of throwing. */
function tryGit(dir, ...args) {
  try {
    return { ok: true, out: git(dir, ...args) }
  } catch (e) {
    return { ok: false, out: `${e.stdout ?? ''}${e.stderr ?? ''}` }
  }
}

const plan = (status, second, tenth) =>
  `---\nstatus: ${status}\n---\n# Plan\n\nfirst\n${second}\nthird\nfourth\nfifth\nsixth\nseventh\neighth\nninth\n${tenth}\n`

/** assertMerged checks the vault's HEAD is a two-parent merge git accepts. */
function assertMerged(dir) {
  const parents = git(dir, 'rev-list', '--parents', '-1', 'HEAD').trim().split(' ')
  assert.equal(parents.length, 3, `HEAD's parents: ${parents.slice(1)}`)
  assert.notEqual(git(dir, 'log', '--merges', '--format=%H').trim(), '', 'git log --merges lists the merge')
  assert.equal(fs.existsSync(path.join(dir, '.git', 'MERGE_HEAD')), false, 'no merge left waiting')
  git(dir, 'fsck', '--strict', '--no-progress')
}

describe('conflicts and backups', () => {
  let root, remote, other, vault
  /** @type {Awaited<ReturnType<typeof openApp>>} */
  let app

  before(async () => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'memotree-e2e-conflicts-'))
    const seed = path.join(root, 'seed')
    fs.mkdirSync(seed)
    fs.writeFileSync(path.join(seed, '.gitignore'), '.memotree/\njourney.yaml\n')
    fs.writeFileSync(path.join(seed, 'Plan.md'), plan('draft', 'second', 'tenth'))
    fs.writeFileSync(path.join(seed, 'Other.md'), '# Other\n\nshared line\n')
    fs.writeFileSync(path.join(seed, 'Gone.md'), '# Gone\n\nsoon deleted over there\n')
    git(seed, 'init', '-q', '-b', 'main')
    git(seed, 'add', '-A')
    git(seed, 'commit', '-qm', 'seed')
    remote = path.join(root, 'remote.git')
    other = path.join(root, 'other')
    vault = path.join(root, 'vault')
    git(root, 'clone', '-q', '--bare', seed, remote)
    git(root, 'clone', '-q', `file://${remote}`, other)
    git(root, 'clone', '-q', `file://${remote}`, vault)
    git(vault, 'config', 'user.name', 'Ada Lovelace')
    git(vault, 'config', 'user.email', 'ada@example.com')
    // git's own pull, in a terminal, stops on a conflict in Plan.md.
    fs.writeFileSync(path.join(other, 'Plan.md'), plan('done', 'second, theirs', 'tenth, theirs'))
    git(other, 'commit', '-qam', 'theirs')
    git(other, 'push', '-q', 'origin', 'main')
    fs.writeFileSync(path.join(vault, 'Plan.md'), plan('dropped', 'second, ours', 'tenth, ours'))
    git(vault, 'commit', '-qam', 'ours')
    assert.equal(tryGit(vault, '-c', 'pull.rebase=false', 'pull', '-q', 'origin', 'main').ok, false, 'git pull stops on the conflict')
    app = await openApp({ vault, inPlace: true, env: { GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null' } })
  })

  after(async () => {
    await app?.browser?.close()
    await app?.server?.stop()
    if (root) fs.rmSync(root, { recursive: true, force: true })
  })

  test("git's own pull: each hunk resolved in the three-way view, and the commit completes the merge", async () => {
    const { page } = app
    await page.getByRole('button', { name: /^Changes/ }).click()
    await page.waitForSelector(view('Plan.md'), { timeout: 15000 })
    assert.equal(await page.locator(`${view('Plan.md')} [data-testid="conflict-hunk"]`).count(), 3)
    // The front matter's status is one hunk of its own: one value, no "both".
    assert.equal(await page.getAttribute(hunk('Plan.md', 1), 'data-property'), 'status')
    assert.equal(await page.isDisabled(`${hunk('Plan.md', 1)} [data-testid="conflict-both"]`), true)
    assert.match(await page.textContent(`${hunk('Plan.md', 1)} .base pre`), /status: draft/)
    // The commit waits while conflicts do.
    await page.fill('[data-testid="commit-message"]', 'Merge the other machine')
    assert.equal(await page.isDisabled('[data-testid="commit-button"]'), true)

    await page.click(`${hunk('Plan.md', 1)} [data-testid="conflict-theirs"]`)
    await page.waitForFunction((sel) => document.querySelectorAll(sel).length === 2, `${view('Plan.md')} [data-testid="conflict-hunk"]`)
    await page.click(`${hunk('Plan.md', 2)} [data-testid="conflict-ours"]`)
    await page.waitForFunction((sel) => document.querySelectorAll(sel).length === 1, `${view('Plan.md')} [data-testid="conflict-hunk"]`)
    await page.click(`${hunk('Plan.md', 1)} [data-testid="conflict-both"]`)
    await page.waitForSelector('[data-testid="git-conflicts"]', { state: 'detached', timeout: 15000 })
    assert.equal(fs.readFileSync(path.join(vault, 'Plan.md'), 'utf8'), plan('done', 'second, ours\nsecond, theirs', 'tenth, ours'))
    assert.equal(git(vault, 'ls-files', '-u'), '', 'no unmerged entry left')

    await page.click('[data-testid="commit-button"]')
    await page.waitForSelector(`${panel} [data-change="Plan.md"]`, { state: 'detached', timeout: 15000 })
    assertMerged(vault)
    assert.equal(git(vault, 'log', '-1', '--format=%s').trim(), 'Merge the other machine')
  })

  test("MemoTree's pull: the conflicts open at once; a deleted note and an edit by hand", async () => {
    const { page } = app
    git(vault, 'push', '-q', 'origin', 'main')
    git(other, 'pull', '-q', '--no-rebase', 'origin', 'main')
    fs.writeFileSync(path.join(other, 'Other.md'), '# Other\n\nshared line, theirs\n')
    git(other, 'rm', '-q', 'Gone.md')
    git(other, 'commit', '-qam', 'theirs again')
    git(other, 'push', '-q', 'origin', 'main')
    fs.writeFileSync(path.join(vault, 'Other.md'), '# Other\n\nshared line, ours\n')
    fs.writeFileSync(path.join(vault, 'Gone.md'), '# Gone\n\nkept and edited here\n')
    git(vault, 'commit', '-qam', 'ours again')

    await page.click('[data-testid="pull"]')
    // Gone.md first: deleted by the pull, changed here; the note is still on disk.
    await page.waitForSelector(`${view('Gone.md')}[data-kind="deleted_by_them"]`, { timeout: 30000 })
    assert.equal(fs.readFileSync(path.join(vault, 'Gone.md'), 'utf8'), '# Gone\n\nkept and edited here\n')
    assert.equal(await page.locator(`${view('Gone.md')} [data-testid="conflict-hunk"]`).count(), 0)
    await page.click(`${view('Gone.md')} [data-testid="conflict-ours"]`)
    // Then Other.md opens: resolved by hand.
    await page.waitForSelector(view('Other.md'), { timeout: 15000 })
    await page.click(`${view('Other.md')} details.by-hand summary`)
    const edit = page.locator(`${view('Other.md')} [data-testid="conflict-edit"]`)
    assert.match(await edit.inputValue(), /<<<<<<< your version\nshared line, ours\n=======\nshared line, theirs\n>>>>>>> origin\/main\n/)
    await edit.fill('# Other\n\nshared line, agreed\n')
    await page.click(`${view('Other.md')} [data-testid="conflict-save"]`)
    await page.waitForSelector('[data-testid="git-conflicts"]', { state: 'detached', timeout: 15000 })
    assert.equal(fs.readFileSync(path.join(vault, 'Other.md'), 'utf8'), '# Other\n\nshared line, agreed\n')

    await page.fill('[data-testid="commit-message"]', 'Merge again')
    await page.click('[data-testid="commit-button"]')
    await page.waitForSelector(`${panel} [data-change="Other.md"]`, { state: 'detached', timeout: 15000 })
    assertMerged(vault)
    assert.equal(git(vault, 'show', 'HEAD:Gone.md'), '# Gone\n\nkept and edited here\n')
  })

  test('backup: push after each commit from the settings, the status bar counts and says why a failure failed', async () => {
    const { page } = app
    await page.click('[data-testid="backup-settings"] summary')
    await page.check('[data-testid="backup-push-on-commit"]')
    await page.click('[data-testid="backup-save"]')
    await waitFor(() => fs.existsSync(path.join(vault, '.memotree', 'sync.json')), '.memotree/sync.json')
    assert.equal(JSON.parse(fs.readFileSync(path.join(vault, '.memotree', 'sync.json'), 'utf8')).push_on_commit, true)
    // The merge not pushed yet: the status bar counts it (and A's pushed commits).
    await page.waitForSelector('[data-testid="backup-divergence"]', { timeout: 15000 })

    fs.appendFileSync(path.join(vault, 'Other.md'), '\nbacked up\n')
    await page.waitForSelector(`${panel} [data-change="Other.md"]`, { timeout: 15000 })
    await page.fill('[data-testid="commit-message"]', 'Back me up')
    await page.click('[data-testid="commit-button"]')
    await waitFor(() => git(remote, 'rev-parse', 'main') === git(vault, 'rev-parse', 'HEAD'), 'the push after the commit')
    await page.waitForSelector('[data-testid="backup-divergence"] >> text=↑0 ↓0', { timeout: 15000 })
    await page.waitForSelector('[data-testid="backup-line"] >> text=/synced/', { timeout: 15000 })
    git(remote, 'fsck', '--strict', '--no-progress')

    // The remote goes away: the push fails, and the status bar says why, once.
    git(vault, 'remote', 'set-url', 'origin', `file://${path.join(root, 'nowhere.git')}`)
    fs.appendFileSync(path.join(vault, 'Other.md'), '\nnot backed up\n')
    await page.waitForSelector(`${panel} [data-change="Other.md"]`, { timeout: 15000 })
    await page.fill('[data-testid="commit-message"]', 'Nowhere to go')
    await page.click('[data-testid="commit-button"]')
    const failed = page.locator('[data-testid="backup-error"]')
    await failed.waitFor({ timeout: 30000 })
    assert.equal(await failed.count(), 1)
    assert.match(await failed.textContent(), /^Backup failed: .+\(trying again at .+\)$/)
    assert.equal(await page.getAttribute('[data-testid="backup-status"]', 'data-mood'), 'failed')
    assert.deepEqual(app.browser.errors, [], 'no uncaught errors in the page')
  })
})
