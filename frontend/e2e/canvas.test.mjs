// The canvas inspector in a real browser against a real `memotree serve`: the person
// expands a node and sees the token count change, and sees a change made by another
// process (`memotree call expand_node`).
import assert from 'node:assert/strict'
import { execFile } from 'node:child_process'
import path from 'node:path'
import { promisify } from 'node:util'
import { after, before, describe, test } from 'node:test'
import { frontendDir, openApp } from './harness.mjs'

const run = promisify(execFile)
const binary = path.resolve(frontendDir, process.env.MEMOTREE_BIN ?? '../build/bin/memotree-headless')
const inspector = '[data-testid="canvas-view"]'
const tokens = `${inspector} [data-testid="canvas-tokens"]`
const row = (id) => `${inspector} li[data-node="${id.replace(/"/g, '\\"')}"]`

async function tokenCount(page) {
  return Number(await page.getAttribute(tokens, 'data-tokens'))
}

describe('the canvas inspector', () => {
  /** @type {Awaited<ReturnType<typeof openApp>>['server']} */
  let server
  /** @type {Awaited<ReturnType<typeof openApp>>['browser']} */
  let browser
  let page

  before(async () => {
    ;({ server, browser, page } = await openApp())
    await page.getByRole('button', { name: 'Canvas', exact: true }).click()
    await page.waitForSelector(tokens)
  })

  after(async () => {
    await browser?.close()
    await server?.stop()
  })

  test('expanding a folder raises the token count', async () => {
    const before = await tokenCount(page)
    assert.ok(before > 0, `the default view costs tokens (${before})`)
    const folder = await page.$eval(`${inspector} li[data-node$="/"][data-level="title"]`, (el) => el.getAttribute('data-node'))
    await page.click(`${row(folder)} button[aria-label="Expand ${folder}"]`)
    await page.waitForSelector(`${row(folder)}[data-level="summary"]`)
    await page.waitForFunction(
      ([sel, n]) => Number(document.querySelector(sel)?.getAttribute('data-tokens')) > n,
      [tokens, before],
    )
    const after = await tokenCount(page)
    const shown = await page.textContent(tokens)
    assert.equal(shown.replace(/,/g, ''), String(after), 'the count on screen is the count')
    // Collapsing brings it back down.
    await page.click(`${row(folder)} button[aria-label="Collapse ${folder}"]`)
    await page.waitForSelector(`${row(folder)}[data-level="title"]`)
    assert.equal(await tokenCount(page), before)
  })

  test('the budget is a setting the next process sees', async () => {
    await page.fill(`${inspector} input[aria-label="Token budget"]`, '4000')
    await page.press(`${inspector} input[aria-label="Token budget"]`, 'Enter')
    await page.waitForFunction((sel) => document.querySelector(sel)?.textContent?.includes('/ 4,000 tokens'), `${inspector} .budget`)
    const { stdout } = await run(binary, ['call', '--library', `demo=${server.vaultDir}`, 'view_canvas'])
    assert.match(stdout, /budget: 4000/)
  })

  test('a view change made by memotree call shows up', async () => {
    const before = await tokenCount(page)
    const { stdout } = await run(binary, [
      'call',
      '--library',
      `demo=${server.vaultDir}`,
      'expand_node',
      JSON.stringify({ entity_name: 'Welcome', level: 'full' }),
    ])
    assert.match(stdout, /is now at full/)
    await page.waitForSelector(`${row('Welcome')}[data-level="full"]`, { timeout: 30000 })
    assert.ok((await tokenCount(page)) > before, 'a note at full costs tokens')
    // Pinning from the window is seen by the next process.
    await page.click(`${row('Welcome')} button[aria-label="Pin Welcome"]`)
    await page.waitForSelector(`${row('Welcome')} button[aria-label="Pin Welcome"][aria-pressed="true"]`)
    const view = await run(binary, ['call', '--library', `demo=${server.vaultDir}`, 'view_canvas'])
    assert.match(view.stdout, /· Welcome \[full pinned\]/)
  })
})
