import { mount } from 'svelte'
import './style.css'
import App from './App.svelte'
import { pickApi, withEarlyGraph } from './api'
import { bindDocument } from './lib/theme.svelte'

const target = document.getElementById('app')
if (!target) throw new Error('memotree: #app is missing from index.html')

// <html lang> and data-theme follow the settings (and the system) from the first paint.
bindDocument()
// The graph is asked for first. Building the window is one long task (half a second
// or more in software WebGL); the graph's reader (a worker, over HTTP) starts only
// when the window's thread has a moment, so the window is built once the request is
// out (or after a short while at most), while the worker reads and parses the answer.
const { api, sent } = withEarlyGraph(pickApi(window))
let mounted = false
const build = () => {
  if (mounted) return
  mounted = true
  mount(App, { target, props: { api } })
}
void sent.then(build)
setTimeout(build, 300)
