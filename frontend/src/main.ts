import { mount } from 'svelte'
import './style.css'
import App from './App.svelte'
import { pickApi } from './api'
import { bindDocument } from './lib/theme.svelte'

const target = document.getElementById('app')
if (!target) throw new Error('memotree: #app is missing from index.html')

// <html lang> and data-theme follow the settings (and the system) from the first paint.
bindDocument()
const app = mount(App, { target, props: { api: pickApi(window) } })

export default app
