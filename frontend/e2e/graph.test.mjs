// The graph as a person uses it, in a real browser against a real `memotree serve`:
// the local graph around the open note and its depth, opening a note from a node, the
// relation filter, the search box, the legend and the edge labels.
import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import { openApp } from './harness.mjs'

const tree = '[data-testid="file-tree"]'
const noteView = '[data-testid="note-view"]'
const view = '[data-testid="graph-view"]'
const entry = (p) => `${tree} [data-path="${p.replace(/"/g, '\\"')}"]`

describe('the graph', () => {
  let server
  let browser
  let page
  /** The note the local graph is built around, picked from the library's graph. */
  let centre

  /** Waits until the layout (if any) has stopped, so that nodes stay where they are. */
  const settled = () => page.waitForFunction(() => window.__memotreeGraphState && !window.__memotreeGraphState.layout, null, { timeout: 30000 })

  /** The ids of the nodes on screen. */
  const shownNodes = () => page.evaluate(() => window.__memotreeGraph.nodes().sort())

  /** Nodes within `depth` steps of `id` in the library's graph (a breadth-first search of our own). */
  const within = (id, depth, skip = []) =>
    page.evaluate(
      ([id, depth, skip]) => {
        const g = window.__memotreeGraphFull
        const seen = new Set([id])
        let frontier = [id]
        for (let d = 0; d < depth; d++) {
          const next = []
          for (const n of frontier)
            for (const e of g.edges(n)) {
              if (skip.includes(g.getEdgeAttribute(e, 'relation'))) continue
              const o = g.opposite(n, e)
              if (!seen.has(o)) seen.add(o) && next.push(o)
            }
          frontier = next
        }
        return [...seen].sort()
      },
      [id, depth, skip],
    )

  before(async () => {
    ;({ server, browser, page } = await openApp())
    await page.waitForFunction(() => (window.__memotreeGraphFull?.order ?? 0) > 0)
    // A note with a typed relation, whose depth-2 neighbourhood is larger than its depth-1 one.
    centre = await page.evaluate(() => {
      const g = window.__memotreeGraphFull
      const ring = (id) => new Set(g.neighbors(id))
      const typed = (id) => g.edges(id).some((e) => !['links to', 'embeds'].includes(g.getEdgeAttribute(e, 'relation')))
      const candidates = g.filterNodes((id, a) => !a.unresolved && typed(id) && g.neighbors(id).length >= 2)
      const grows = (id) => {
        const one = ring(id)
        return [...one].some((n) => g.neighbors(n).some((m) => m !== id && !one.has(m)))
      }
      return candidates.sort((a, b) => g.degree(b) - g.degree(a)).find(grows) ?? null
    })
    assert.ok(centre, 'the vault has a note with typed relations and neighbours of neighbours')
  })

  after(async () => {
    await browser?.close()
    await server?.stop()
  })

  test('nodes are coloured by entity type, with a legend', async () => {
    const types = await page.evaluate(() => {
      const s = window.__memotreeSigma
      const g = window.__memotreeGraphFull
      const byType = new Map()
      g.forEachNode((id, a) => {
        if (a.unresolved) return
        const c = s.getNodeDisplayData(id)?.color
        if (!byType.has(a.entityType)) byType.set(a.entityType, new Set())
        byType.get(a.entityType).add(c)
      })
      return [...byType].map(([t, cs]) => [t, [...cs]])
    })
    assert.ok(types.length >= 2, 'the vault has notes of several types')
    const colours = new Set(types.map(([, cs]) => cs[0]))
    assert.equal(colours.size, types.length, `each type its own colour: ${JSON.stringify(types)}`)
    const legend = await page.locator(`${view} [data-testid="graph-legend"] li[data-type]`).evaluateAll((els) => els.map((e) => e.dataset.type))
    const commonest = types.filter(([t]) => t !== '').map(([t]) => t.toLowerCase())
    assert.ok(commonest.some((t) => legend.includes(t)), `the legend names the types: ${legend}`)
  })

  test('the local graph shows the open note’s neighbours at depth 1, and more at depth 2', async () => {
    await page.click(entry(centre))
    await page.waitForSelector(`${noteView}[data-path="${centre}"]`)
    await page.click('[data-testid="graph-mode-local"]')
    await page.click('[data-testid="graph-depth-1"]')
    await page.waitForFunction((c) => window.__memotreeGraphState.mode === 'local' && window.__memotreeGraph.hasNode(c), centre)
    const one = await shownNodes()
    assert.deepEqual(one, await within(centre, 1))
    await page.click('[data-testid="graph-depth-2"]')
    await page.waitForFunction((n) => window.__memotreeGraph.order > n, one.length)
    const two = await shownNodes()
    assert.deepEqual(two, await within(centre, 2))
    assert.ok(one.every((id) => two.includes(id)))
  })

  test('typed relations are labelled on their edges', async () => {
    const labels = await page.evaluate(() => {
      const s = window.__memotreeSigma
      const g = window.__memotreeGraph
      return g.mapEdges((e, a) => [a.relation, s.getEdgeDisplayData(e)?.label ?? null])
    })
    const typed = labels.filter(([r]) => r !== 'links to' && r !== 'embeds')
    assert.ok(typed.length > 0)
    for (const [r, l] of typed) assert.equal(l, r)
    for (const [r, l] of labels.filter(([r]) => r === 'links to')) assert.ok(!l, `a plain link is not labelled (${r}: ${l})`)
  })

  test('clicking a node of the local graph opens its note, and the local graph follows', async () => {
    await page.click('[data-testid="graph-depth-1"]')
    await page.waitForFunction(() => window.__memotreeGraphState.mode === 'local')
    await settled()
    const spot = await page.evaluate((open) => {
      const g = window.__memotreeGraph
      const s = window.__memotreeSigma
      const pts = g.nodes().map((id) => ({ id, unresolved: g.getNodeAttribute(id, 'unresolved'), ...s.framedGraphToViewport(s.getNodeDisplayData(id)) }))
      const lone = (p) => Math.min(...pts.filter((q) => q.id !== p.id).map((q) => Math.hypot(q.x - p.x, q.y - p.y)))
      return pts.filter((p) => p.id !== open && !p.unresolved).sort((a, b) => lone(b) - lone(a))[0] ?? null
    }, centre)
    assert.ok(spot, 'the local graph has a note besides the open one')
    const box = await page.locator(`${view} .canvas`).boundingBox()
    await page.mouse.click(box.x + spot.x, box.y + spot.y)
    await page.waitForSelector(`${noteView}[data-path="${spot.id}"]`, { timeout: 15000 })
    await page.waitForFunction((id) => window.__memotreeGraph.hasNode(id), spot.id)
    assert.deepEqual(await shownNodes(), await within(spot.id, 1))
    // Back to the centre for the next tests.
    await page.click(entry(centre))
    await page.waitForSelector(`${noteView}[data-path="${centre}"]`)
  })

  test('the relation filter hides those edges, and the local graph no longer follows them', async () => {
    await page.click('[data-testid="graph-depth-2"]')
    await page.waitForFunction((c) => window.__memotreeGraph.hasNode(c) && window.__memotreeGraph.order > 1, centre)
    await page.click(`${view} [data-testid="graph-settings-toggle"]`)
    const box = page.locator(`${view} [data-testid="graph-filters"] input[data-relation="links to"]`)
    assert.equal(await box.isChecked(), true)
    await box.uncheck()
    const want = await within(centre, 2, ['links to'])
    await page.waitForFunction((n) => window.__memotreeGraph.order === n, want.length)
    assert.deepEqual(await shownNodes(), want)
    const links = await page.evaluate(() => window.__memotreeGraph.filterEdges((_e, a) => a.relation === 'links to').length)
    assert.equal(links, 0, 'no plain link is left in the local graph')

    // In the global graph, the edges stay but are hidden.
    await page.click('[data-testid="graph-mode-global"]')
    await page.waitForFunction(() => window.__memotreeGraphState.mode === 'global' && window.__memotreeGraph === window.__memotreeGraphFull)
    const shown = await page.evaluate(() => {
      const s = window.__memotreeSigma
      const g = window.__memotreeGraph
      const out = { links: 0, linksHidden: 0, typed: 0, typedHidden: 0 }
      g.forEachEdge((e, a) => {
        const h = s.getEdgeDisplayData(e)?.hidden === true
        if (a.relation === 'links to') (out.links++, h && out.linksHidden++)
        else if (a.relation !== 'embeds') (out.typed++, h && out.typedHidden++)
      })
      return out
    })
    assert.ok(shown.links > 0)
    assert.equal(shown.linksHidden, shown.links, 'every plain link is hidden')
    assert.equal(shown.typedHidden, 0, 'typed relations stay')
    await box.check()
    await page.waitForFunction(() => {
      const s = window.__memotreeSigma
      return window.__memotreeGraph.filterEdges((e, a) => a.relation === 'links to' && s.getEdgeDisplayData(e)?.hidden).length === 0
    })
    await page.click(`${view} [data-testid="graph-settings-toggle"]`)
  })

  test('the search box highlights matching nodes, fades the rest, and Enter opens the best', async () => {
    const target = await page.evaluate(
      (c) => {
        const g = window.__memotreeGraphFull
        // A note whose name no other node's name contains.
        const labels = g.mapNodes((id, a) => [id, a.label.toLowerCase(), a.unresolved])
        const alone = labels.filter(([id, l, u]) => !u && id !== c && labels.every(([o, m]) => o === id || !m.includes(l)))
        return alone[0] ? { id: alone[0][0], label: g.getNodeAttribute(alone[0][0], 'label') } : null
      },
      centre,
    )
    assert.ok(target)
    const query = target.label.slice(0, Math.max(3, target.label.length - 1)).toUpperCase()
    await page.fill('[data-testid="graph-search"]', query)
    await page.waitForSelector('[data-testid="graph-search-count"]')
    const looks = await page.evaluate((id) => {
      const s = window.__memotreeSigma
      const g = window.__memotreeGraph
      const faded = getComputedStyle(document.documentElement).getPropertyValue('--border').trim()
      const hit = s.getNodeDisplayData(id)
      const others = g.filterNodes((n) => n !== id).map((n) => s.getNodeDisplayData(n))
      return { highlighted: hit.highlighted, hitFaded: hit.color === faded, othersFaded: others.filter((d) => d.color === faded).length, others: others.length }
    }, target.id)
    assert.equal(looks.highlighted, true, 'the match is highlighted')
    assert.equal(looks.hitFaded, false)
    assert.equal(looks.othersFaded, looks.others, `the rest is faded: ${JSON.stringify(looks)}`)
    await page.press('[data-testid="graph-search"]', 'Enter')
    await page.waitForSelector(`${noteView}[data-path="${target.id}"]`, { timeout: 15000 })
    await page.fill('[data-testid="graph-search"]', '')
    await page.waitForSelector('[data-testid="graph-search-count"]', { state: 'detached' })
  })
})
