// An MCP client that cannot ask the person (no elicitation) asks for a destructive
// call: a real `memotree mcp` process, beside a real `memotree serve` on the same
// vault, puts it in the window's approval queue; the person declines, then approves,
// in Chromium, and the note stays, then goes.
import { after, before, describe, test } from 'node:test'
import assert from 'node:assert/strict'
import { spawn } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import readline from 'node:readline'
import { frontendDir, openApp } from './harness.mjs'

const binary = path.resolve(frontendDir, process.env.MEMOTREE_BIN ?? '../build/bin/memotree-headless')

/** mcpClient speaks MCP over stdio to a `memotree mcp` child, as a minimal client would. */
function mcpClient(vaultDir, cacheDir) {
  // The user's cache folder of the server: a vault nobody wrote in keeps the window's
  // queue there (as every process of one user finds it).
  const child = spawn(binary, ['mcp', '--library', `demo=${vaultDir}`], { stdio: ['pipe', 'pipe', 'pipe'], env: { ...process.env, XDG_CACHE_HOME: cacheDir } })
  const waiting = new Map()
  let id = 0
  readline.createInterface({ input: child.stdout }).on('line', (line) => {
    const msg = JSON.parse(line)
    if (msg.id !== undefined && waiting.has(msg.id)) {
      waiting.get(msg.id)(msg)
      waiting.delete(msg.id)
    }
  })
  let stderr = ''
  child.stderr.on('data', (b) => (stderr += b))
  const request = (method, params) =>
    new Promise((resolve, reject) => {
      const n = ++id
      waiting.set(n, resolve)
      child.stdin.write(JSON.stringify({ jsonrpc: '2.0', id: n, method, params }) + '\n', (err) => err && reject(err))
    })
  return {
    async init() {
      const res = await request('initialize', { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'E2E Client', version: '1' } })
      assert.ok(res.result, `initialize: ${JSON.stringify(res)} ${stderr}`)
      child.stdin.write(JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }) + '\n')
    },
    call: (name, args) => request('tools/call', { name, arguments: args }),
    stop() {
      child.kill('SIGTERM')
    },
  }
}

describe('the approval queue', () => {
  let app
  let mcp

  before(async () => {
    app = await openApp()
    mcp = mcpClient(app.server.vaultDir, app.server.cacheDir)
    await mcp.init()
  })

  after(async () => {
    mcp?.stop()
    await app?.browser.close()
    await app?.server.stop()
  })

  test('the window shows the whole call the person is asked about', async () => {
    const { page, server } = app
    // A script whose first lines look harmless, with the delete at its end.
    const code = '# tidy the headings of the people notes\n'.repeat(30) + "delete_entities(entity_names=['Welcome'])"
    const result = mcp.call('run_starlark', { target: 'tidy the headings', code })
    const card = page.locator('[data-testid="approval-queue"] [role="group"]')
    await card.waitFor({ timeout: 20000 })
    const shown = await card.locator('[data-testid="approval-args"]').textContent()
    assert.match(shown, /tidy the headings/)
    assert.ok(shown.includes("delete_entities(entity_names=['Welcome'])"), `the card hides the end of the script: ${shown.slice(-200)}`)
    await card.getByRole('button', { name: 'Deny' }).click()
    assert.equal((await result).result.structuredContent.error_code, 'approval_required')
    await card.waitFor({ state: 'detached' })
    assert.ok(fs.existsSync(path.join(server.vaultDir, 'Welcome.md')), 'a declined script deleted')
  })

  test("an MCP client's delete waits for the person in the window", async () => {
    const { page, server } = app
    const note = path.join(server.vaultDir, 'Welcome.md')
    assert.ok(fs.existsSync(note))
    for (const approve of [false, true]) {
      const result = mcp.call('delete_entities', { entity_names: ['Welcome'] })
      const card = page.locator('[data-testid="approval-queue"] [role="group"]')
      await card.waitFor({ timeout: 20000 })
      const text = await card.textContent()
      assert.match(text, /E2E Client \(MCP\)/)
      assert.match(text, /delete_entities/)
      assert.match(text, /Welcome/)
      assert.ok(fs.existsSync(note), 'the note went before the person answered')
      await card.getByRole('button', { name: approve ? 'Approve' : 'Deny' }).click()
      const res = await result
      const content = res.result.structuredContent
      await card.waitFor({ state: 'detached' })
      if (approve) {
        assert.equal(content.status, 'success', JSON.stringify(content))
        assert.ok(!fs.existsSync(note), 'the approved delete did not run')
      } else {
        assert.equal(content.error_code, 'approval_required')
        assert.match(content.message, /was not run: the person declined\. Nothing changed/)
        assert.ok(fs.existsSync(note), 'a declined delete ran')
      }
    }
    assert.deepEqual(app.browser.errors, [], 'no uncaught errors in the page')
  })
})
