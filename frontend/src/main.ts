import { mount } from 'svelte'
import './style.css'
import App from './App.svelte'
import { pickApi } from './api'

const target = document.getElementById('app')
if (!target) throw new Error('memotree: #app is missing from index.html')

const app = mount(App, { target, props: { api: pickApi(window) } })

export default app
