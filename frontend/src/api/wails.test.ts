import { expect, test, vi } from 'vitest'
import { boundApi, wailsApi, type WailsBindings, type WailsRuntime } from './wails'

test('calls window.go.app.API.<Method> and listens through the runtime', async () => {
  const Files = vi.fn(async (lib: unknown) => [{ path: `${String(lib)}.md` }])
  const go: WailsBindings = { app: { API: { Files: Files as (...a: unknown[]) => Promise<unknown> } } }
  const off = vi.fn()
  const runtime: WailsRuntime = { EventsOn: vi.fn(() => off), EventsOff: vi.fn(), BrowserOpenURL: vi.fn() }
  const api = wailsApi(go, runtime)
  await expect(api.files('demo')).resolves.toEqual([{ path: 'demo.md' }])
  await expect(api.graph('demo')).rejects.toThrow('Graph: not bound')
  const unsubscribe = api.on('vault:changed', () => {})
  expect(runtime.EventsOn).toHaveBeenCalledWith('vault:changed', expect.any(Function))
  unsubscribe()
  expect(off).toHaveBeenCalled()
})

test('the API is found under app, uiapi or any package', () => {
  const m = { Files: async () => [] }
  expect(boundApi({ app: { API: m } })).toBe(m)
  expect(boundApi({ uiapi: { API: m } })).toBe(m)
  expect(boundApi({ other: { API: m } })).toBe(m)
  expect(boundApi({ main: {} })).toBeUndefined()
})
