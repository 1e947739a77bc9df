// End-to-end helpers: a real `memotree serve` on a copy of a fixture vault, and a real
// Chromium (Debian's, through playwright-core). Every process started here is stopped
// by the returned stop()/close(), and, as a safety net, when node exits.
import { spawn } from 'node:child_process'
import { after, before } from 'node:test'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import readline from 'node:readline'
import { fileURLToPath } from 'node:url'
import { chromium } from 'playwright-core'

const here = path.dirname(fileURLToPath(import.meta.url))

/** The frontend folder. */
export const frontendDir = path.resolve(here, '..')
/** Where tests may write screenshots (git-ignored). */
export const artifactsDir = path.join(here, 'artifacts')
/** Our own small fixture vault (with a Chinese note name). */
export const basicVault = path.join(here, 'fixtures/basic')
/** The default fixture vault: $MEMOTREE_E2E_VAULT, else the product's demo vault, else ours. */
export const defaultVault =
  process.env.MEMOTREE_E2E_VAULT ??
  (fs.existsSync(path.resolve(frontendDir, '../demo/vault')) ? path.resolve(frontendDir, '../demo/vault') : basicVault)

const binary = path.resolve(frontendDir, process.env.MEMOTREE_BIN ?? '../build/bin/memotree-headless')
const live = new Set()
process.on('exit', () => {
  for (const p of live) p.kill('SIGKILL')
})

function tempDir(prefix) {
  return fs.mkdtempSync(path.join(os.tmpdir(), prefix))
}

/**
 * startServer copies `vault` to a fresh temp dir and serves it as library "demo".
 * Resolves once the server printed its URL (which carries ?token=).
 * inPlace serves `vault` itself, uncopied (a vault the test generated in its own temp dir).
 * The server's settings (endpoint, git token) live in its own `configDir`, never in the
 * user's: XDG_CONFIG_HOME points there unless `env` says otherwise; so do the caches
 * of a vault without a .memotree folder (XDG_CACHE_HOME).
 * @param {{vault?: string, timeoutMs?: number, env?: Record<string, string>, inPlace?: boolean}} [opts] env adds to the server's environment
 * @returns {Promise<{url: string, origin: string, vaultDir: string, configDir: string, cacheDir: string, stop: () => Promise<void>}>}
 */
export async function startServer({ vault = defaultVault, timeoutMs = 60000, env = {}, inPlace = false } = {}) {
  const root = tempDir('memotree-e2e-')
  const vaultDir = inPlace ? vault : path.join(root, 'vault')
  if (!inPlace) fs.cpSync(vault, vaultDir, { recursive: true })
  const configDir = path.join(root, 'config')
  try {
    // Caches of a vault without .memotree go to the user's cache folder: this one.
    const cache = path.join(root, 'cache')
    const s = await spawnServe(['--library', `demo=${vaultDir}`], { NO_COLOR: '1', XDG_CONFIG_HOME: configDir, XDG_CACHE_HOME: cache, ...env }, timeoutMs)
    const stop = async () => {
      await s.stop()
      fs.rmSync(root, { recursive: true, force: true })
    }
    return { url: s.url, origin: s.origin, vaultDir, configDir, cacheDir: cache, stop }
  } catch (e) {
    fs.rmSync(root, { recursive: true, force: true })
    throw e
  }
}

/**
 * freshHome makes a home folder of its own for a server: HOME and the XDG folders
 * (config, data, cache) point into it, so what the app remembers, the demo vault it
 * copies and its caches stay there. The test removes it (rmSync) when done.
 * @returns {{dir: string, env: Record<string, string>}}
 */
export function freshHome() {
  const dir = tempDir('memotree-home-')
  const env = {
    HOME: dir,
    XDG_CONFIG_HOME: path.join(dir, '.config'),
    XDG_DATA_HOME: path.join(dir, '.local', 'share'),
    XDG_CACHE_HOME: path.join(dir, '.cache'),
  }
  return { dir, env }
}

/**
 * startServe starts `memotree serve` with the given arguments (no --library: the
 * vault switcher's mode) in a home folder of the caller's (freshHome), which it does
 * not remove, so that a second server finds what the first remembered.
 * @param {string[]} args
 * @param {{env: Record<string, string>}} home
 * @returns {Promise<{url: string, origin: string, stderr: () => string, stop: () => Promise<void>}>}
 */
export function startServe(args, home, timeoutMs = 60000) {
  return spawnServe(args, { NO_COLOR: '1', ...home.env }, timeoutMs)
}

/** spawnServe runs `memotree serve ARGS --addr 127.0.0.1:0` and waits for its URL. */
async function spawnServe(args, env, timeoutMs) {
  if (!fs.existsSync(binary)) throw new Error(`no memotree binary at ${binary}: build it (make headless) or set MEMOTREE_BIN`)
  const child = spawn(binary, ['serve', ...args, '--addr', '127.0.0.1:0'], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, ...env },
  })
  live.add(child)
  let stderr = ''
  child.stderr.on('data', (b) => {
    stderr += b
    if (process.env.MEMOTREE_E2E_VERBOSE) process.stderr.write(b)
  })
  const exited = new Promise((resolve) => child.once('exit', resolve))

  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM')
      const t = setTimeout(() => child.kill('SIGKILL'), 3000)
      await exited
      clearTimeout(t)
    }
    live.delete(child)
  }

  try {
    const url = await new Promise((resolve, reject) => {
      const lines = readline.createInterface({ input: child.stdout })
      const timer = setTimeout(() => reject(new Error(`memotree serve printed no URL in ${timeoutMs} ms; stderr:\n${stderr}`)), timeoutMs)
      lines.on('line', (line) => {
        if (line.startsWith('http://')) {
          clearTimeout(timer)
          resolve(line.trim())
        }
      })
      child.once('exit', (code) => {
        clearTimeout(timer)
        reject(new Error(`memotree serve exited (${code}) before printing its URL; stderr:\n${stderr}`))
      })
    })
    return { url, origin: new URL(url).origin, stderr: () => stderr, stop }
  } catch (e) {
    await stop()
    throw e
  }
}

/**
 * openBrowser launches headless Chromium with a fresh profile. `locale` is the
 * system language the page sees (navigator.language); English unless a test asks.
 * @param {{width?: number, height?: number, deviceScaleFactor?: number, locale?: string}} [opts]
 * @returns {Promise<{page: import('playwright-core').Page, context: import('playwright-core').BrowserContext, close: () => Promise<void>}>}
 */
export async function openBrowser({ width = 1280, height = 800, deviceScaleFactor = 1, locale = 'en-US' } = {}) {
  const profile = tempDir('memotree-chromium-')
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: process.env.CHROMIUM_BIN ?? '/usr/bin/chromium',
    headless: true,
    viewport: { width, height },
    locale,
    deviceScaleFactor,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      `--lang=${locale}`,
      // WebGL (sigma's renderer) in software, since there is no GPU.
      '--enable-unsafe-swiftshader',
    ],
  })
  const page = context.pages()[0] ?? (await context.newPage())
  const errors = []
  page.on('pageerror', (e) => errors.push(e))
  const close = async () => {
    await context.close().catch(() => {})
    fs.rmSync(profile, { recursive: true, force: true })
  }
  return { page, context, errors, close }
}

/** Lists the notes of a vault folder as vault paths, skipping dot folders. */
export function vaultNotes(dir) {
  const out = []
  const walk = (rel) => {
    for (const e of fs.readdirSync(path.join(dir, rel), { withFileTypes: true })) {
      if (e.name.startsWith('.')) continue
      const p = rel ? `${rel}/${e.name}` : e.name
      if (e.isDirectory()) walk(p)
      else if (e.name.toLowerCase().endsWith('.md')) out.push(p)
    }
  }
  walk('')
  return out.sort()
}

/**
 * findLinkingNote picks a note with a heading in its body and a [[wikilink]] (outside
 * code) to another note that exists, so the tests do not depend on one fixture's text.
 * @returns {{path: string, heading: string, linkText: string, targetPath: string}}
 */
export function findLinkingNote(dir) {
  const notes = vaultNotes(dir)
  const byBase = new Map()
  for (const n of notes) {
    const base = n.slice(n.lastIndexOf('/') + 1, -3).toLowerCase()
    byBase.set(base, byBase.has(base) ? null : n)
  }
  for (const n of notes) {
    const text = fs.readFileSync(path.join(dir, n), 'utf8').replace(/^---\n[\s\S]*?\n---\n/, '').replace(/```[\s\S]*?```/g, '')
    // A heading other than the title (a leading "# Title" is shown as the title).
    const title = n.slice(n.lastIndexOf('/') + 1, -3).toLowerCase()
    const heading = [...text.matchAll(/^#{1,3} +(.+)$/gm)].map((h) => h[1].trim()).find((h) => h.toLowerCase() !== title)
    if (!heading) continue
    for (const m of text.matchAll(/(?<!!)\[\[([^\]|#\n]+)(?:\|([^\]\n]+))?\]\]/g)) {
      const target = byBase.get(m[1].trim().toLowerCase()) ?? (notes.includes(`${m[1].trim()}.md`) ? `${m[1].trim()}.md` : null)
      if (target && target !== n) return { path: n, heading, linkText: (m[2] ?? m[1]).trim(), targetPath: target }
    }
  }
  throw new Error(`no note in ${dir} has a heading and a wikilink to another note`)
}

/** Counts the pixels of a PNG that differ from its top-left pixel, in the page's canvas. */
export async function paintedPixels(page, png) {
  return page.evaluate(async (b64) => {
    const img = new Image()
    img.src = `data:image/png;base64,${b64}`
    await img.decode()
    const c = document.createElement('canvas')
    c.width = img.width
    c.height = img.height
    const ctx = c.getContext('2d')
    ctx.drawImage(img, 0, 0)
    const d = ctx.getImageData(0, 0, c.width, c.height).data
    let n = 0
    for (let i = 0; i < d.length; i += 4) {
      if (Math.abs(d[i] - d[0]) + Math.abs(d[i + 1] - d[1]) + Math.abs(d[i + 2] - d[2]) > 24) n++
    }
    return n
  }, png.toString('base64'))
}

/**
 * waitFor polls check (which may be async) until it returns something true, and fails,
 * saying what was awaited, after timeoutMs: a generous guard, as the machines running
 * the tests are busy; it returns as soon as the state holds. `what` may be a function,
 * called on failure, to describe the state last seen.
 */
export async function waitFor(check, what, timeoutMs = 30000) {
  const end = Date.now() + timeoutMs
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`waited ${timeoutMs} ms for ${typeof what === 'function' ? what() : what}`)
    await new Promise((r) => setTimeout(r, 25))
  }
}

/**
 * scansDone waits until the server has read its vaults: `memotree serve` answers
 * at once and scans in the background, and a benchmark of the window measures from
 * a server that is ready.
 */
export async function scansDone(server, timeoutMs = 120000) {
  const u = new URL(server.url)
  const token = u.searchParams.get('token')
  const end = Date.now() + timeoutMs
  for (;;) {
    const res = await fetch(`${u.origin}/api/call/Tasks`, { method: 'POST', headers: { Authorization: `Bearer ${token}` }, body: '[]' })
    if (!res.ok) throw new Error(`Tasks: HTTP ${res.status}: ${await res.text()}`)
    const tasks = await res.json()
    if (!tasks.some((t) => !t.final)) return
    if (Date.now() > end) throw new Error(`the vault scan did not end in ${timeoutMs} ms: ${JSON.stringify(tasks)}`)
    await new Promise((r) => setTimeout(r, 100))
  }
}

/**
 * graphReady waits until the server has read its vaults and built the default
 * library's graph payload, then until no task runs (scansDone). The graph, asked for
 * here, is answered once the scan has ended and its payload is built (which the server
 * does by itself right after the scan): a benchmark of the graph view then measures
 * the window, from a ready server. (scansDone alone once returned at once on a big
 * vault: the scan's task was published only after the folder's walk, and an empty
 * task list before it passed for a finished scan; it is published from the scan's
 * start now.)
 */
export async function graphReady(server, timeoutMs = 120000) {
  const u = new URL(server.url)
  const token = u.searchParams.get('token')
  const res = await fetch(`${u.origin}/api/call/Graph`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${token}` },
    body: '[""]',
    signal: AbortSignal.timeout(timeoutMs),
  })
  if (!res.ok) throw new Error(`Graph: HTTP ${res.status}: ${await res.text()}`)
  await res.arrayBuffer()
  await scansDone(server, timeoutMs)
}

/**
 * useApp opens the app before the tests of the enclosing describe and closes it after
 * them; the returned object's server, browser and page are set once `before` has run.
 * @param {Parameters<typeof openApp>[0]} [opts]
 * @param {Parameters<typeof openApp>[1]} [browserOpts]
 */
export function useApp(opts, browserOpts) {
  /** @type {Partial<Awaited<ReturnType<typeof openApp>>>} */
  const app = {}
  before(async () => Object.assign(app, await openApp(opts, browserOpts)))
  after(async () => {
    await app.browser?.close()
    await app.server?.stop()
  })
  return /** @type {Awaited<ReturnType<typeof openApp>>} */ (app)
}

/**
 * openApp starts `memotree serve` (startServer's options), opens Chromium on the
 * window (openBrowser's options: size, zoom and `locale`, English by default; plus
 * `storage`: localStorage entries set before the window's scripts run, e.g. a
 * remembered layout; `init`: a function run in the page before its own scripts), and
 * waits until the file tree lists a file.
 * @param {Parameters<typeof startServer>[0]} [opts]
 * @param {Parameters<typeof openBrowser>[0] & {storage?: Record<string, string>, init?: Function, treeTimeoutMs?: number}} [browserOpts]
 */
export async function openApp(opts = {}, { storage, init, treeTimeoutMs = 30000, ...browserOpts } = {}) {
  // The browser first: the server scans its vault in the background once started,
  // and the page should open while a large one is still being read.
  const browser = await openBrowser(browserOpts)
  const server = await startServer(opts).catch(async (e) => {
    await browser.close()
    throw e
  })
  const page = browser.page
  if (init) await page.addInitScript(init)
  if (storage) {
    await page.addInitScript((entries) => {
      if (sessionStorage.getItem('memotree.e2e.seeded')) return // only before the first load
      sessionStorage.setItem('memotree.e2e.seeded', '1')
      for (const [k, v] of Object.entries(entries)) localStorage.setItem(k, v)
    }, storage)
  }
  await page.goto(server.url)
  await page.waitForSelector('[data-testid="file-tree"] [data-path]', { timeout: treeTimeoutMs })
  return { server, browser, page }
}
