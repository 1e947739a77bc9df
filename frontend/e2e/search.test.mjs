// The quick switcher and the search panel in a real browser against `memotree serve`.
import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import { startFakeLLM } from './fakellm.mjs'
import { basicVault, openApp } from './harness.mjs'

const tree = '[data-testid="file-tree"]'
const noteView = '[data-testid="note-view"]'
const switcher = '[data-testid="quick-switcher"]'
const panel = '[data-testid="search-panel"]'
const input = '[data-testid="search-input"]'

describe('search in the window', () => {
  /** @type {Awaited<ReturnType<typeof openApp>>['server']} */
  let server
  /** @type {Awaited<ReturnType<typeof openApp>>['browser']} */
  let browser
  let page

  before(async () => {
    ;({ server, browser, page } = await openApp({ vault: basicVault }))
  })

  after(async () => {
    await browser?.close()
    await server?.stop()
  })

  test('Ctrl+O opens the quick switcher: fuzzy names and aliases, Enter opens the note', async () => {
    await page.keyboard.press('Control+o')
    await page.waitForSelector(`${switcher} ${input}`)
    await page.fill(input, 'adlo')
    await page.waitForSelector(`${switcher} li[data-path="people/Ada Lovelace.md"][aria-selected="true"]`)
    await page.keyboard.press('Enter')
    await page.waitForSelector(`${noteView}[data-path="people/Ada Lovelace.md"]`)
    assert.equal(await page.locator(switcher).count(), 0, 'the switcher closes')

    // An alias finds its note; Escape closes without opening anything.
    await page.keyboard.press('Control+o')
    await page.fill(input, 'difference')
    const item = page.locator(`${switcher} li[data-path="ideas/差分机.md"]`)
    await item.waitFor()
    assert.match(await item.textContent(), /Difference Engine/)
    await page.keyboard.press('Escape')
    assert.equal(await page.locator(switcher).count(), 0)
    await page.waitForSelector(`${noteView}[data-path="people/Ada Lovelace.md"]`)
  })

  test('Ctrl+Shift+F searches the text: ranked hits with highlighted snippets, in Chinese too', async () => {
    await page.keyboard.press('Control+Shift+F')
    await page.waitForSelector(`${panel} ${input}`)
    await page.fill(input, '机械计算机')
    const hit = page.locator(`${panel} li[data-path="ideas/差分机.md"]`)
    await hit.locator('mark').first().waitFor()
    const marks = await hit.locator('mark').allTextContents()
    assert.ok(marks.includes('机械计算机'), `the snippet marks the match: ${marks}`)
    await hit.click()
    await page.waitForSelector(`${noteView}[data-path="ideas/差分机.md"]`)
  })

  test('the tag filter narrows the hits', async () => {
    await page.keyboard.press('Control+Shift+F')
    await page.fill(input, 'babbage')
    await page.waitForSelector(`${panel} li[data-path="people/Ada Lovelace.md"]`)
    const before = await page.locator(`${panel} li[data-path]`).count()
    assert.ok(before > 1, `several notes mention Babbage (${before})`)
    await page.fill('[data-testid="search-tags"]', 'history')
    await page.waitForFunction(
      (sel) => [...document.querySelectorAll(sel)].every((e) => e.getAttribute('data-path') === 'people/Ada Lovelace.md'),
      `${panel} li[data-path]`,
    )
    assert.equal(await page.locator(`${panel} li[data-path]`).count(), 1)
    await page.keyboard.press('Escape')
  })
})

describe('semantic search with the embeddings model named in the settings', () => {
  let llm, server, browser, page

  before(async () => {
    llm = await startFakeLLM()
    ;({ server, browser, page } = await openApp({ vault: basicVault, env: { OPENAI_BASE_URL: llm.baseURL, MEMOTREE_EMBEDDING_MODEL: '' } }))
  })

  after(async () => {
    await browser?.close()
    await server?.stop()
    await llm?.close()
  })

  async function semantic(query) {
    await page.keyboard.press('Control+Shift+F')
    await page.waitForSelector(`${panel} ${input}`)
    await page.selectOption(`${panel} [data-testid="search-type"]`, 'semantic')
    await page.fill(input, query)
  }

  test('without a model the panel says where to name one; named in the settings, meaning finds the note', async () => {
    await semantic('two states easiest to tell apart')
    await page.waitForSelector(`${panel} [role="status"]:has-text("Embedding model")`)
    assert.equal(llm.embeddings.length, 0, 'nothing was embedded without a model')
    await page.keyboard.press('Escape')

    await page.click('[data-testid="open-settings"]')
    const form = page.locator('[data-testid="settings"]').getByRole('form', { name: 'Model endpoint settings' })
    await form.waitFor()
    await form.getByLabel('Embedding model (semantic search)').fill('e2e-embed')
    await form.getByRole('button', { name: 'Save' }).click()
    await page.locator('[data-testid="settings"] [role="status"]').first().waitFor()
    await page.keyboard.press('Escape')
    await page.waitForSelector('[data-testid="settings"]:not([open])', { state: 'attached' })

    await semantic('two states easiest to tell apart')
    await page.locator(`${panel} li[data-path="ideas/Binary.md"]`).first().waitFor({ timeout: 15000 })
    const first = await page.locator(`${panel} li[data-path]`).first().getAttribute('data-path')
    assert.equal(first, 'ideas/Binary.md', 'the note sharing the most words comes first')
    assert.ok(llm.embeddings.length > 0 && llm.embeddings.every((e) => e.model === 'e2e-embed'), `embedded with the saved model: ${JSON.stringify(llm.embeddings)}`)
    await page.keyboard.press('Escape')
    assert.deepEqual(browser.errors, [], 'no uncaught errors in the page')
  })
})
