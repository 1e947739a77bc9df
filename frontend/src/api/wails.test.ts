import { expect, test, vi } from 'vitest'
import { boundApi, wailsApi, type WailsBindings, type WailsRuntime } from './wails'

test('calls window.go.uiapi.API.<Method> and listens through the runtime', async () => {
  const Files = vi.fn(async (lib: unknown) => ({ paths: [`${String(lib)}.md`], attachments: [], types: [], typed: [] }))
  const go: WailsBindings = { uiapi: { API: { Files: Files as (...a: unknown[]) => Promise<unknown> } } }
  const off = vi.fn()
  const runtime: WailsRuntime = { EventsOn: vi.fn(() => off), EventsOff: vi.fn(), BrowserOpenURL: vi.fn() }
  const api = wailsApi(go, runtime)
  await expect(api.files('demo')).resolves.toEqual([{ path: 'demo.md', is_note: true }])
  await expect(api.graph('demo')).rejects.toThrow('Graph: not bound')
  const unsubscribe = api.on('vault:changed', () => {})
  expect(runtime.EventsOn).toHaveBeenCalledWith('vault:changed', expect.any(Function))
  unsubscribe()
  expect(off).toHaveBeenCalled()
})

test('the API is the one backend/uiapi binds (the desktop smoke test proves the name)', () => {
  const m = { Files: async () => [] }
  expect(boundApi({ uiapi: { API: m } })).toBe(m)
  expect(boundApi({ app: { API: m } })).toBeUndefined()
  expect(boundApi({ main: {} })).toBeUndefined()
})
