import { mount } from 'svelte'
import './style.css'
import { pickApi, withEarlyFiles, withEarlyGraph, type HttpApi } from './api'
import { bindDocument } from './lib/theme.svelte'

const target = document.getElementById('app')
if (!target) throw new Error('memotree: #app is missing from index.html')

// <html lang> and data-theme follow the settings (and the system) from the first paint.
bindDocument()
// The graph is asked for first, before the window's code (about 480 kB) is even
// loaded: over HTTP its reader is a worker, which starts only when the window's thread
// has a moment, and building the window is one long task (half a second or more in
// software WebGL). So the window is built once the request is out (or after a short
// while at most), while the worker reads and parses the answer.
const transport = pickApi(window)
// Over HTTP the page first gets its session from the token of the printed address
// (see api/http.ts); without one it says how to get in instead of showing a window
// whose every call fails.
const ready = (transport as Partial<HttpApi>).ready ?? Promise.resolve()
const { api: graphFirst, sent } = withEarlyGraph(transport)
// The default library's files too, right behind the graph: the tree is the first
// thing shown (see withEarlyFiles).
const api = withEarlyFiles(graphFirst)
const windowCode = import('./App.svelte')
const requested = Promise.race([sent, new Promise<void>((resolve) => setTimeout(resolve, 300))])
Promise.all([windowCode, requested, ready]).then(
  ([{ default: App }]) => {
    performance.mark('app:mount')
    mount(App, { target, props: { api } })
  },
  (e: unknown) => {
    const p = document.createElement('p')
    p.className = 'session-problem'
    p.setAttribute('role', 'alert')
    p.dataset.testid = 'session-problem'
    p.textContent = e instanceof Error ? e.message : String(e)
    target.replaceChildren(p)
  },
)
