import { mount } from 'svelte'
import './style.css'
import { pickApi, withEarlyGraph } from './api'
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
const { api, sent } = withEarlyGraph(pickApi(window))
const windowCode = import('./App.svelte')
const requested = Promise.race([sent, new Promise<void>((resolve) => setTimeout(resolve, 300))])
void Promise.all([windowCode, requested]).then(([{ default: App }]) => {
  performance.mark('app:mount')
  mount(App, { target, props: { api } })
})
