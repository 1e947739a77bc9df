// A change set as a graph diff, in a real browser against a real `memotree serve` on
// a real git repository (a copy of the demo vault, committed): a note written outside
// MemoTree that links to two notes, and an edit that drops a link, make a change set
// in the review panel; selecting it there shows in the graph the new note and its new
// links in the diff's colour, the dropped link as a ghost, the edited note ringed and
// everything else faded; the local graph follows; unselecting ends it.
import assert from 'node:assert/strict'
import { execFileSync } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { after, before, describe, test } from 'node:test'
import { defaultVault, openApp } from './harness.mjs'

function git(dir, ...args) {
  return execFileSync('git', ['-c', 'user.name=Test', '-c', 'user.email=test@example.com', '-c', 'commit.gpgsign=false', ...args], {
    cwd: dir,
    env: { ...process.env, GIT_CONFIG_NOSYSTEM: '1', HOME: dir, GIT_CONFIG_GLOBAL: path.join(dir, 'none') },
  }).toString()
}

const panel = '[data-testid="git-panel"]'

describe('a change set shown in the graph', () => {
  let server
  let browser
  let page
  let repo
  /** Two notes of the vault the new note links to, and an edited note with a link it drops. */
  let targets
  let edited

  before(async () => {
    repo = fs.mkdtempSync(path.join(os.tmpdir(), 'memotree-e2e-diff-'))
    fs.cpSync(defaultVault, repo, { recursive: true })
    fs.writeFileSync(path.join(repo, '.gitignore'), '.memotree/\n')
    git(repo, 'init', '-q', '-b', 'main')
    git(repo, 'add', '-A')
    git(repo, 'commit', '-q', '-m', 'The fixture')
    ;({ server, browser, page } = await openApp({ vault: repo }))
    await page.waitForFunction(() => (window.__memotreeGraphFull?.order ?? 0) > 3)
    // A note with a [[link]] in its body to another note, and two notes to link to.
    const picked = await page.evaluate(() => {
      const g = window.__memotreeGraphFull
      const notes = g.filterNodes((_id, a) => a.kind === 'note')
      const edge = g.findEdge((_e, a, s, t) => a.relation === 'links to' && g.getNodeAttribute(t, 'kind') === 'note' && s !== t)
      return { notes, edge: edge ? { from: g.source(edge), to: g.target(edge), label: g.getNodeAttribute(g.target(edge), 'label') } : null }
    })
    assert.ok(picked.edge, 'the vault has a link between notes')
    edited = picked.edge
    targets = picked.notes.filter((n) => n !== edited.from && n !== edited.to).slice(0, 2)
  })

  after(async () => {
    await browser?.close()
    await server?.stop()
    if (repo) fs.rmSync(repo, { recursive: true, force: true })
  })

  test('selecting the change set marks its added note and links, the dropped link ghosted', async () => {
    const name = `Diff note ${Date.now()}`
    const label = (p) => p.replace(/^.*\//, '').replace(/\.md$/, '')
    fs.writeFileSync(path.join(server.vaultDir, `${name}.md`), `Links to [[${label(targets[0])}]] and [[${label(targets[1])}]].\n`)
    // The edited note loses every link to its target.
    const file = path.join(server.vaultDir, edited.from)
    const text = fs.readFileSync(file, 'utf8')
    const re = new RegExp(`\\[\\[${edited.label.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(\\|[^\\]]*)?(#[^\\]]*)?\\]\\]`, 'gi')
    fs.writeFileSync(file, text.replace(re, 'something else'))
    await page.click('[data-testid="toggle-git"]')
    await page.waitForSelector(`${panel} [data-change="${name}.md"]`, { timeout: 30000 })
    await page.waitForSelector(`${panel} [data-change="${edited.from}"]`, { timeout: 30000 })
    await page.waitForFunction((id) => window.__memotreeGraphFull.hasNode(id), `${name}.md`)
    const set = page.locator(`${panel} section[data-changeset]`, { has: page.locator(`[data-change="${name}.md"]`) })
    await set.locator('[data-testid="changeset-graph"]').click()
    await page.waitForSelector('[data-testid="graph-diff"]')
    await page.waitForFunction((id) => window.__memotreeGraphDiff?.addedNodes.includes(id), `${name}.md`)
    const d = await page.evaluate(() => window.__memotreeGraphDiff)
    assert.ok(d.changedNodes.includes(edited.from), `the edited note is changed: ${JSON.stringify(d)}`)
    assert.ok(
      d.removedEdges.some((e) => e.from === edited.from && e.to === edited.to),
      `the dropped link is a ghost: ${JSON.stringify(d.removedEdges)}`,
    )
    const looks = await page.evaluate(
      ([id, from, to]) => {
        const s = window.__memotreeSigma
        const g = window.__memotreeGraph
        const css = getComputedStyle(document.documentElement)
        const faded = css.getPropertyValue('--border').trim()
        const added = s.getNodeDisplayData(id).color
        const mine = g.outEdges(id).map((e) => s.getEdgeDisplayData(e).color)
        const ghost = g.filterEdges((e, a) => a.ghost && g.source(e) === from && g.target(e) === to)
        const untouched = g.filterNodes((n) => n !== id && n !== from && !g.areNeighbors(n, id) && !g.getNodeAttribute(n, 'ghost'))
        return {
          added,
          mine,
          ghost: ghost.map((e) => s.getEdgeDisplayData(e).color),
          untouchedFaded: untouched.filter((n) => s.getNodeDisplayData(n).color === faded).length,
          untouched: untouched.length,
          faded,
        }
      },
      [`${name}.md`, edited.from, edited.to],
    )
    assert.notEqual(looks.added, looks.faded)
    assert.equal(looks.mine.length, 2, 'the new note’s two links are drawn')
    assert.ok(looks.mine.every((c) => c === looks.added), `its links in the diff's colour: ${JSON.stringify(looks)}`)
    assert.equal(looks.ghost.length, 1, 'the dropped link is drawn as a ghost')
    assert.notEqual(looks.ghost[0], looks.added)
    assert.equal(looks.untouchedFaded, looks.untouched, 'the rest is faded')

    // The local graph follows: around the new note, the diff still shows.
    await page.evaluate((p) => (location.hash = `#/${encodeURIComponent(p)}`), `${name}.md`)
    await page.click('[data-testid="graph-mode-local"]')
    await page.waitForFunction((id) => window.__memotreeGraphState.mode === 'local' && window.__memotreeGraph.hasNode(id) && window.__memotreeGraph.order === 3, `${name}.md`)
    const local = await page.evaluate((id) => window.__memotreeSigma.getNodeDisplayData(id).color, `${name}.md`)
    assert.equal(local, looks.added)
    await page.click('[data-testid="graph-mode-global"]')

    // Unselected, the graph is itself again.
    await set.locator('[data-testid="changeset-graph"]').click()
    await page.waitForSelector('[data-testid="graph-diff"]', { state: 'detached' })
    await page.waitForFunction(() => window.__memotreeGraph === window.__memotreeGraphFull && window.__memotreeGraphDiff === null)
  })
})
