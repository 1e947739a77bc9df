// The chat panel in a real browser against a real `memotree serve`, whose model is a
// local OpenAI-compatible server speaking the real streaming protocol (fakellm.mjs).
import assert from 'node:assert/strict'
import fs from 'node:fs'
import path from 'node:path'
import { after, before, describe, test } from 'node:test'
import { deltas, startFakeLLM, text, toolCalls } from './fakellm.mjs'
import { artifactsDir, openApp } from './harness.mjs'

const tree = '[data-testid="file-tree"]'
const entry = (p) => `${tree} [data-path="${p.replace(/"/g, '\\"')}"]`
const chatPane = '#chat-pane'
const input = `${chatPane} [data-testid="chat-input"]`

/** The saved sessions of the vault, parsed. */
function savedSessions(vaultDir) {
  const dir = path.join(vaultDir, '.memotree', 'sessions')
  if (!fs.existsSync(dir)) return []
  return fs
    .readdirSync(dir)
    .filter((n) => n.endsWith('.json'))
    .map((n) => JSON.parse(fs.readFileSync(path.join(dir, n), 'utf8')))
}

/** Asserts that every tool call of a stored session has its result. */
function assertConsistent(session) {
  const answered = new Set(session.messages.filter((m) => m.role === 'tool').map((m) => m.tool_call_id))
  for (const m of session.messages) for (const c of m.tool_calls ?? []) assert.ok(answered.has(c.id), `call ${c.id} has no result`)
}

describe('the chat panel', () => {
  let llm, server, browser, page

  before(async () => {
    llm = await startFakeLLM()
    const config = fs.mkdtempSync(path.join(fs.realpathSync('/tmp'), 'memotree-e2e-config-'))
    ;({ server, browser, page } = await openApp({
      env: { OPENAI_BASE_URL: llm.baseURL, MEMOTREE_MODEL: 'fake-model', OPENAI_API_KEY: 'sk-e2e-secret-4242', XDG_CONFIG_HOME: config },
    }))
    await page.getByRole('button', { name: /^Chat/ }).click()
    await page.waitForSelector(input)
  })

  after(async () => {
    await browser?.close()
    await server?.stop()
    await llm?.close()
  })

  test('a turn creates a note and relates it; the note appears in the tree', async () => {
    llm.script(
      toolCalls([
        { id: 'call_1', name: 'create_entity', args: { entity_name: 'people/Mary Somerville', entity_type: 'person', content: 'Scottish scientist and writer.' } },
        { id: 'call_2', name: 'create_relations', args: { relations: [{ from: 'people/Mary Somerville', to: 'Ada Lovelace', type: 'mentor of' }] } },
      ]),
      text('**Mary Somerville** is in the vault now, as mentor of Ada Lovelace.'),
    )
    await page.fill(input, 'Add Mary Somerville, who mentored Ada.')
    await page.press(input, 'Enter')
    await page.waitForSelector(entry('people/Mary Somerville.md'), { timeout: 30000 })
    const reply = page.locator(`${chatPane} [data-role="assistant"] strong`, { hasText: 'Mary Somerville' })
    await reply.waitFor({ timeout: 30000 })
    await page.waitForSelector(`${chatPane} details[data-tool="create_relations"][data-status="success"]`)
    assert.equal(await page.locator(`${chatPane} details[data-tool="create_entity"][data-status="success"]`).count(), 1)
    // A card opens to show its arguments and result.
    await page.click(`${chatPane} details[data-tool="create_relations"] summary`)
    const body = await page.textContent(`${chatPane} details[data-tool="create_relations"]`)
    assert.match(body, /mentor of/)
    assert.match(body, /status: success/)
    const note = fs.readFileSync(path.join(server.vaultDir, 'people', 'Mary Somerville.md'), 'utf8')
    assert.match(note, /mentor of/)
    // The model got the arguments whole, and the window's open note in its sensory block.
    const last = llm.requests.at(-1).messages
    assert.equal(last.find((m) => m.role === 'assistant').tool_calls[1].function.arguments.includes('"mentor of"'), true)
    assert.match(last.filter((m) => m.role === 'user').at(-1).content, /<sensory>/)
    fs.mkdirSync(artifactsDir, { recursive: true })
    await page.screenshot({ path: path.join(artifactsDir, 'chat.png') })
    // The composer is ready again.
    assert.equal(await page.isEnabled(`${chatPane} [data-testid="chat-send"]`), false, 'Send waits for text')
    assert.equal(await page.inputValue(input), '')
  })

  test('a destructive call waits for approval and runs after Approve', async () => {
    llm.script(toolCalls([{ id: 'call_del', name: 'delete_entities', args: { entity_names: ['people/Mary Somerville'] } }]), text('Deleted Mary Somerville.'))
    await page.fill(input, 'Delete Mary Somerville again.')
    await page.press(input, 'Enter')
    const ask = page.getByRole('group', { name: /Approval needed for delete_entities/ })
    await ask.waitFor({ timeout: 30000 })
    assert.match(await ask.locator('[data-testid="approval-args"]').textContent(), /"people\/Mary Somerville"/)
    // Nothing is deleted while the person has not answered: the call is held at the
    // question, which is on screen.
    assert.ok(fs.existsSync(path.join(server.vaultDir, 'people', 'Mary Somerville.md')))
    await ask.getByRole('button', { name: 'Approve' }).click()
    await page.waitForSelector(`${chatPane} details[data-tool="delete_entities"][data-status="success"]`, { timeout: 30000 })
    await page.locator(`${chatPane} [data-role="assistant"]`, { hasText: 'Deleted Mary Somerville.' }).waitFor()
    await page.waitForSelector(entry('people/Mary Somerville.md'), { state: 'detached', timeout: 30000 })
    assert.equal(fs.existsSync(path.join(server.vaultDir, 'people', 'Mary Somerville.md')), false)
  })

  test('a window reloaded mid-turn attaches to it: the prompt, the waiting approval, then the end', async () => {
    llm.script(toolCalls([{ id: 'call_keep', name: 'delete_entities', args: { entity_names: ['Ada Lovelace'] } }]), text('Ada stays.'))
    await page.fill(input, 'Delete Ada?')
    await page.press(input, 'Enter')
    await page.locator(`${chatPane} .approval`).waitFor({ timeout: 30000 })
    await page.reload()
    await page.waitForSelector(`${tree} [role="treeitem"], ${tree} li`, { timeout: 30000 })
    if (await page.locator(chatPane).isHidden()) await page.getByRole('button', { name: /^Chat/ }).click()
    const ask = page.locator(`${chatPane} .approval`)
    await ask.waitFor({ timeout: 30000 })
    assert.equal(await ask.count(), 1, 'the approval shows once')
    await page.locator(`${chatPane} [data-role="user"]`, { hasText: 'Delete Ada?' }).waitFor()
    assert.equal(await page.isVisible(`${chatPane} [data-testid="chat-stop"]`), true, 'the turn shows as running')
    await ask.getByRole('button', { name: 'Deny' }).click()
    await page.locator(`${chatPane} [data-role="assistant"]`, { hasText: 'Ada stays.' }).waitFor({ timeout: 30000 })
    assert.ok(fs.existsSync(path.join(server.vaultDir, 'people', 'Ada Lovelace.md')), 'a denied deletion deletes nothing')
  })

  test('Stop mid-stream leaves a consistent history and says so', async () => {
    const long = Array.from({ length: 200 }, (_, i) => `word${i}`).join(' ')
    llm.script(text(long, 50))
    await page.fill(input, 'Tell me a long story.')
    await page.press(input, 'Enter')
    await page.locator(`${chatPane} [data-role="assistant"]`, { hasText: 'word3' }).last().waitFor({ timeout: 30000 })
    await page.getByRole('button', { name: 'Stop' }).click()
    const notice = page.locator(`${chatPane} [role="alert"]`)
    await notice.waitFor({ timeout: 30000 })
    assert.match(await notice.textContent(), /Stopped/)
    await page.getByRole('button', { name: 'Send' }).waitFor()
    // The half reply was dropped: the session ends with the prompt, and every call has
    // its result.
    const sessions = savedSessions(server.vaultDir)
    assert.equal(sessions.length, 1, 'one conversation')
    const s = sessions[0]
    assertConsistent(s)
    assert.equal(s.messages.at(-1).role, 'user')
    assert.equal(s.messages.at(-1).content, 'Tell me a long story.')
    assert.ok(s.messages.every((m) => m.time), 'every message has its time')
    // The conversation goes on after a Stop.
    llm.script(text('Here again.'))
    await page.fill(input, 'Still there?')
    await page.press(input, 'Enter')
    await page.locator(`${chatPane} [data-role="assistant"]`, { hasText: 'Here again.' }).waitFor({ timeout: 30000 })
    // The key never reached the page.
    assert.equal((await page.content()).includes('sk-e2e-secret-4242'), false)
  })

  test("a reasoning model's thinking is folded apart from its answer, live and saved", async () => {
    llm.script(
      deltas(
        [{ reasoning: 'The person asks about ' }, { content: '<thi' }, { content: 'nk>Babbage built engines.</th' }, { content: 'ink>\n\nCharles Babbage ' }, { content: 'designed the Analytical Engine.' }],
        60,
      ),
      deltas([{ content: '<think>An unclosed thought that is all there is' }]),
    )
    await page.fill(input, 'Who was Babbage?')
    await page.press(input, 'Enter')
    const answer = page.locator(`${chatPane} [data-role="assistant"]`, { hasText: 'designed the Analytical Engine.' })
    await answer.waitFor({ timeout: 30000 })
    const fold = answer.locator('[data-testid="chat-thinking"]')
    await fold.waitFor()
    assert.equal(await fold.getAttribute('open'), null, 'the thinking starts folded')
    assert.equal((await answer.locator('.md').textContent()).includes('Babbage built engines'), false, 'no reasoning in the answer')
    assert.equal((await answer.textContent()).includes('<think>'), false)
    await page.getByRole('button', { name: 'Send' }).waitFor({ timeout: 30000 })
    // Saved and reloaded from the session, it is still apart and folded.
    const saved = page.locator(`${chatPane} [data-role="assistant"]`, { hasText: 'designed the Analytical Engine.' })
    await saved.locator('[data-testid="chat-thinking"] summary').click()
    const shown = await saved.locator('[data-testid="chat-thinking"] .reasoning').textContent()
    assert.match(shown, /The person asks about Babbage built engines\./)
    const s = savedSessions(server.vaultDir).find((x) => x.messages.some((m) => m.content === 'Who was Babbage?'))
    const reply = s.messages.at(-1)
    assert.equal(reply.content, 'Charles Babbage designed the Analytical Engine.')
    assert.equal(reply.reasoning, 'The person asks about Babbage built engines.')
    // A <think> that never closes does not eat the answer; the reasoning is never sent back.
    await page.fill(input, 'And then?')
    await page.press(input, 'Enter')
    await page.locator(`${chatPane} [data-role="assistant"] .md`, { hasText: 'An unclosed thought that is all there is' }).waitFor({ timeout: 30000 })
    assert.equal(JSON.stringify(llm.requests.at(-1)).includes('Babbage built engines'), false)
  })

  test('the settings test the connection and never show the key', async () => {
    await page.click(`${chatPane} [data-testid="chat-settings-toggle"]`)
    const form = page.getByRole('form', { name: 'Model endpoint settings' })
    await form.waitFor()
    await form.getByRole('button', { name: 'Test connection' }).click()
    const check = page.locator('[data-testid="chat-check"]')
    await check.waitFor({ timeout: 30000 })
    assert.match(await check.textContent(), /fake-model is available/)
    assert.equal((await page.content()).includes('sk-e2e-secret-4242'), false)
  })
})
