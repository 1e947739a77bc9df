import { expect, test } from 'vitest'
import type { Api, CanvasView } from '../api'
import { CanvasStore } from './canvas.svelte'

const view = (tokens: number): CanvasView => ({
  library: 'demo',
  view: 'default',
  text: '',
  tokens,
  budget: 8000,
  header_tokens: 10,
  nodes: [],
  collapsed: [],
  views: ['default'],
})

test('a newer answer wins over an older one, and errors are kept', async () => {
  const pending: ((v: CanvasView) => void)[] = []
  const calls: string[] = []
  const api = {
    canvas: () => new Promise<CanvasView>((resolve) => pending.push(resolve)),
    canvasExpand: (_l: string, _v: string, id: string, level: string) => {
      calls.push(`expand ${id} ${level}`)
      return Promise.resolve(view(200))
    },
    canvasCollapse: () => Promise.reject(new Error('no such node')),
  } as unknown as Api
  const s = new CanvasStore(api)
  const slow = s.load('demo')
  const fast = s.expand('demo', 'people/', 'summary')
  await fast
  pending[0]?.(view(100))
  await slow
  expect(s.view?.tokens).toBe(200)
  expect(calls).toEqual(['expand people/ summary'])
  expect(s.busy).toBe(false)
  await s.collapse('demo', 'nowhere')
  expect(s.error).toBe('no such node')
  expect(s.view?.tokens).toBe(200)
})
