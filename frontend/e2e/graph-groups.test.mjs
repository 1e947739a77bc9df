// Colour groups on a real vault without entity types (a copy of the English Obsidian
// Help vault), in a real browser against a real `memotree serve`: coloured by its
// top-level folders by default, a group added by tag in the graph settings, the
// legend hiding a group's notes, and a vault's .obsidian/graph.json read (its groups
// applied, the file never written).
import assert from 'node:assert/strict'
import fs from 'node:fs'
import path from 'node:path'
import { after, before, describe, test } from 'node:test'
import { frontendDir, openBrowser, startServer, useApp, waitFor } from './harness.mjs'

const vault = path.resolve(frontendDir, '../../shared/corpora/obsidian-help-en')
const absent = fs.existsSync(vault) ? false : `the corpus is not at ${vault}`
const view = '[data-testid="graph-view"]'

/** The colour sigma draws each note in, by node id. */
const noteColours = (page) =>
  page.evaluate(() => {
    const s = window.__memotreeSigma
    const g = window.__memotreeGraph
    return Object.fromEntries(g.filterNodes((_id, a) => a.kind === 'note').map((id) => [id, s.getNodeDisplayData(id).color]))
  })

describe('colour groups on the English Obsidian Help vault', { skip: absent }, () => {
  const app = useApp({ vault, timeoutMs: 60000 })

  test('a vault without entity types is coloured by its top-level folders', async () => {
    const { page } = app
    await page.waitForFunction(() => (window.__memotreeGraph?.order ?? 0) > 150 && document.querySelectorAll('[data-testid="graph-legend"] li[data-query]').length > 0)
    const colours = await noteColours(page)
    const distinct = new Set(Object.values(colours))
    assert.ok(distinct.size >= 5, `at least 5 colours: ${[...distinct]}`)
    // Notes of one folder share a colour; notes of two folders differ.
    const byFolder = new Map()
    for (const [id, c] of Object.entries(colours)) {
      if (!id.includes('/')) continue
      const f = id.slice(0, id.indexOf('/'))
      byFolder.set(f, (byFolder.get(f) ?? new Set()).add(c))
    }
    const legend = await page.locator(`${view} [data-testid="graph-legend"] li[data-query]`).evaluateAll((els) => els.map((e) => e.dataset.query))
    const labels = await page.locator(`${view} [data-testid="graph-legend"] li[data-query] .name`).allTextContents()
    assert.equal(labels.length, legend.length)
    for (const folder of labels.slice(0, 5)) {
      assert.equal(byFolder.get(folder)?.size, 1, `the notes of ${folder} share one colour`)
    }
  })

  test('a colour group added by tag colours the tagged notes', async () => {
    const { page } = app
    const tag = await page.evaluate(() => {
      const counts = new Map()
      window.__memotreeGraph.forEachNode((_id, a) => (a.tags ?? []).forEach((t) => counts.set(t, (counts.get(t) ?? 0) + 1)))
      return [...counts].sort((a, b) => b[1] - a[1])[0]?.[0] ?? null
    })
    assert.ok(tag, 'some note has a tag')
    await page.click(`${view} [data-testid="graph-settings-toggle"]`)
    await page.click(`${view} [data-testid="graph-group-add"]`)
    const query = page.locator(`${view} [data-testid="graph-group-query"]`).first()
    await query.fill(`tag:#${tag}`)
    await query.press('Enter')
    await query.blur()
    const colour = await page.locator(`${view} [data-testid="graph-group-color"]`).first().inputValue()
    await page.waitForFunction(
      ([tag, colour]) => {
        const s = window.__memotreeSigma
        const g = window.__memotreeGraph
        const tagged = g.filterNodes((_id, a) => (a.tags ?? []).includes(tag))
        return tagged.length > 0 && tagged.every((id) => s.getNodeDisplayData(id).color === colour)
      },
      [tag, colour],
    )
    const others = await page.evaluate(([tag, colour]) => {
      const s = window.__memotreeSigma
      const g = window.__memotreeGraph
      return g.filterNodes((_id, a) => a.kind === 'note' && !(a.tags ?? []).includes(tag) && s.getNodeDisplayData(_id).color === colour).length
    }, [tag, colour])
    assert.equal(others, 0, 'only the tagged notes take the colour')
    await page.click(`${view} [data-testid="graph-settings-toggle"]`)
  })

  test('the legend hides a group’s notes, and shows them again', async () => {
    const { page } = app
    const first = page.locator(`${view} [data-testid="graph-legend"] li[data-query]`).nth(1)
    const folder = await first.locator('.name').textContent()
    await first.locator('button').click()
    const hidden = await page.waitForFunction((folder) => {
      const s = window.__memotreeSigma
      const g = window.__memotreeGraph
      const mine = g.filterNodes((id, a) => a.kind === 'note' && id.startsWith(`${folder}/`))
      const others = g.filterNodes((id, a) => a.kind === 'note' && !id.startsWith(`${folder}/`))
      return mine.length > 0 && mine.every((id) => s.getNodeDisplayData(id).hidden) && others.some((id) => !s.getNodeDisplayData(id).hidden) ? mine.length : 0
    }, folder)
    assert.ok((await hidden.jsonValue()) > 0)
    await first.locator('button').click()
    await page.waitForFunction(() => window.__memotreeGraph.filterNodes((id) => window.__memotreeSigma.getNodeDisplayData(id).hidden).length === 0)
  })
})

describe('the force sliders on the English Obsidian Help vault', { skip: absent }, () => {
  const app = useApp({ vault, timeoutMs: 60000 })

  test('a longer link distance lays the graph out again, further apart', async () => {
    const { page } = app
    await page.waitForFunction(() => window.__memotreeGraphState?.drawnAt !== null && !window.__memotreeGraphState.layout && (window.__memotreeGraph?.order ?? 0) > 150, null, { timeout: 30000 })
    // The mean distance between linked notes, in the graph's own units.
    const spacing = () =>
      page.evaluate(() => {
        const g = window.__memotreeGraph
        let sum = 0
        g.forEachEdge((_e, _a, _s, _t, sa, ta) => (sum += Math.hypot(sa.x - ta.x, sa.y - ta.y)))
        return sum / g.size
      })
    const before = await spacing()
    await page.click(`${view} [data-testid="graph-settings-toggle"]`)
    await page.click(`${view} [data-testid="graph-settings"] summary >> text=Forces`)
    await page.locator(`${view} [data-testid="graph-force-link_distance"]`).fill('500')
    await page.waitForFunction(() => window.__memotreeGraphState.layout, null, { timeout: 30000 })
    await page.waitForFunction(() => !window.__memotreeGraphState.layout, null, { timeout: 30000 })
    const after = await spacing()
    assert.ok(after > before * 1.5, `linked notes further apart: ${before.toFixed(2)} → ${after.toFixed(2)}`)
  })
})

describe('a vault’s .obsidian/graph.json', { skip: absent }, () => {
  let server
  let browser
  let graphJSON
  before(async () => {
    server = await startServer({ vault, timeoutMs: 60000 })
    fs.chmodSync(server.vaultDir, 0o755)
    fs.mkdirSync(path.join(server.vaultDir, '.obsidian'), { recursive: true })
    graphJSON = JSON.stringify({
      search: '',
      showTags: false,
      hideUnresolved: true,
      showOrphans: true,
      colorGroups: [
        { query: 'path:Plugins/', color: { a: 1, rgb: 0xd65c5c } },
        { query: 'file:sync', color: { a: 1, rgb: 0x3355ee } },
        { query: 'tag:#nonexistent', color: { a: 1, rgb: 0x00aa00 } },
        { query: 'broken', color: 'not a colour' },
      ],
      showArrow: true,
      futureField: { anything: [1, 2] },
    })
    fs.writeFileSync(path.join(server.vaultDir, '.obsidian', 'graph.json'), graphJSON)
    browser = await openBrowser()
    await browser.page.goto(server.url)
  })
  after(async () => {
    await browser?.close()
    await server?.stop()
  })

  test('its colour groups and filters apply, and it is never written', async () => {
    const { page } = browser
    await page.waitForFunction(() => document.querySelectorAll('[data-testid="graph-legend"] li[data-query]').length === 3, null, { timeout: 30000 })
    const looks = await page.evaluate(() => {
      const s = window.__memotreeSigma
      const g = window.__memotreeGraph
      const out = { plugins: new Set(), sync: new Set(), unresolved: 0 }
      g.forEachNode((id, a) => {
        if (a.kind === 'unresolved') out.unresolved++
        if (a.kind !== 'note') return
        const c = s.getNodeDisplayData(id).color
        if (id.startsWith('Plugins/')) out.plugins.add(c)
        else if (id.slice(id.lastIndexOf('/') + 1).toLowerCase().includes('sync')) out.sync.add(c)
      })
      return { plugins: [...out.plugins], sync: [...out.sync], unresolved: out.unresolved }
    })
    assert.deepEqual(looks.plugins, ['#d65c5c'])
    assert.deepEqual(looks.sync, ['#3355ee'])
    assert.equal(looks.unresolved, 0, 'hideUnresolved: existing files only')
    const edgeTypes = await page.evaluate(() => new Set(window.__memotreeGraph.mapEdges((e) => window.__memotreeSigma.getEdgeDisplayData(e).type)).has('arrow'))
    assert.ok(edgeTypes, 'showArrow: edges drawn with arrows')
    // A change in MemoTree is saved in .memotree, never in .obsidian.
    await page.locator('[data-testid="graph-legend"] li[data-query] button').first().click()
    const saved = path.join(server.vaultDir, '.memotree', 'graph.json')
    await waitFor(() => fs.existsSync(saved), 'the settings to be saved in .memotree/graph.json')
    assert.deepEqual(JSON.parse(fs.readFileSync(saved, 'utf8')).hidden_groups, ['path:Plugins/'])
    assert.equal(fs.readFileSync(path.join(server.vaultDir, '.obsidian', 'graph.json'), 'utf8'), graphJSON, '.obsidian/graph.json is unchanged')
  })
})
