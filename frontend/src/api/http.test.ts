import { afterEach, expect, test, vi } from 'vitest'
import { errorMessage } from './errors'
import { httpApi } from './http'

afterEach(() => {
  vi.unstubAllGlobals()
})

test('calls POST /api/call/<Method> with positional arguments', async () => {
  const fetch = vi.fn(async () => new Response(JSON.stringify({ path: 'a.md' }), { status: 200 }))
  vi.stubGlobal('fetch', fetch)
  const api = httpApi()
  await expect(api.note('demo', 'a.md')).resolves.toEqual({ path: 'a.md' })
  expect(fetch).toHaveBeenCalledWith('/api/call/Note', expect.objectContaining({ method: 'POST', credentials: 'same-origin', body: '["demo","a.md"]' }))
  await api.reportRendered({ library: 'demo', notes: 3, layout: '' })
  expect(fetch).toHaveBeenLastCalledWith('/api/call/ReportRendered', expect.objectContaining({ body: '[{"library":"demo","notes":3,"layout":""}]' }))
})

test('a non-2xx answer throws its error message', async () => {
  vi.stubGlobal('fetch', async () => new Response('{"error":"read note x.md: not found"}', { status: 500 }))
  await expect(httpApi().files('demo')).rejects.toThrow('read note x.md: not found')
})

test('errorMessage falls back to the body, then the status', () => {
  expect(errorMessage('Files', 401, 'missing or wrong token\n')).toBe('missing or wrong token')
  expect(errorMessage('Files', 502, '')).toBe('Files: HTTP 502')
  expect(errorMessage('Files', 400, '{"error":""}')).toBe('{"error":""}')
})

test('events come from one EventSource, parsed per topic', () => {
  const sources: FakeSource[] = []
  class FakeSource extends EventTarget {
    constructor(readonly url: string) {
      super()
      sources.push(this)
    }
  }
  vi.stubGlobal('EventSource', FakeSource)
  const api = httpApi()
  const got: unknown[] = []
  const off = api.on('vault:changed', (e) => got.push(e))
  api.on('vault:changed', () => {})
  expect(sources).toHaveLength(1)
  expect(sources[0]?.url).toBe('/api/events')
  const src = sources[0] as FakeSource
  src.dispatchEvent(new MessageEvent('vault:changed', { data: '{"library":"demo","paths":["a.md"],"rescan":false}' }))
  expect(got).toEqual([{ library: 'demo', paths: ['a.md'], rescan: false }])
  // A reconnection after an error may have missed events: subscribers get a rescan.
  src.dispatchEvent(new Event('error'))
  src.dispatchEvent(new Event('open'))
  expect(got[1]).toEqual({ library: '', paths: [], rescan: true })
  off()
  src.dispatchEvent(new MessageEvent('vault:changed', { data: '{"library":"demo","paths":[],"rescan":false}' }))
  expect(got).toHaveLength(2)
})
