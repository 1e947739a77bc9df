import { afterEach, describe, expect, test, vi } from 'vitest'
import type { Api, EventPayloads, TaskProgress, Topic } from '../api'
import { waitFor } from '../lib/testing'
import { percent, ProgressStore } from './progress.svelte'

// A fake of the two Api methods the store uses: on(), with a way to emit, and
// tasks(), answering `running` once `release` is called.
function fakeApi(running: TaskProgress[] = []) {
  const subs = new Map<string, Set<(e: unknown) => void>>()
  let release = () => {}
  const answered = new Promise<void>((resolve) => (release = resolve))
  const api = {
    tasks: async () => {
      await answered
      return running
    },
    on<T extends Topic>(topic: T, cb: (e: EventPayloads[T]) => void) {
      const set = subs.get(topic) ?? new Set()
      set.add(cb as (e: unknown) => void)
      subs.set(topic, set)
      return () => set.delete(cb as (e: unknown) => void)
    },
  } as unknown as Api
  const emit = <T extends Topic>(topic: T, e: EventPayloads[T]) => subs.get(topic)?.forEach((cb) => cb(e))
  return { api, emit, release, count: () => [...subs.values()].reduce((n, s) => n + s.size, 0) }
}

afterEach(() => vi.useRealTimers())

describe('ProgressStore', () => {
  test('a task appears, advances, and goes away a moment after its end', () => {
    vi.useFakeTimers()
    const { api, emit } = fakeApi()
    const s = new ProgressStore(500)
    const off = s.connect(api)
    emit('task:progress', { library: 'demo', kind: 'scan', done: 0, total: 200, final: false })
    expect(s.tasks).toEqual([{ id: 'demo:scan', library: 'demo', kind: 'scan', done: 0, total: 200, error: '' }])
    emit('task:progress', { library: 'demo', kind: 'scan', done: 120, total: 200, final: false })
    expect(s.tasks).toHaveLength(1)
    expect(percent(s.tasks[0]!)).toBe(60)
    emit('task:progress', { library: 'demo', kind: 'scan', done: 200, total: 200, final: true })
    expect(s.tasks[0]?.done).toBe(200)
    vi.advanceTimersByTime(499)
    expect(s.tasks).toHaveLength(1)
    vi.advanceTimersByTime(1)
    expect(s.tasks).toEqual([])
    off()
  })

  test('tasks of different kinds and libraries run side by side; embeddings come from their own topic', () => {
    const { api, emit } = fakeApi()
    const s = new ProgressStore(0)
    s.connect(api)
    emit('task:progress', { library: 'a', kind: 'search-index', done: 1, total: 9, final: false })
    emit('task:progress', { library: 'b', kind: 'search-index', done: 2, total: 9, final: false })
    emit('search:embedding', { library: 'a', done: 5, total: 50, final: false })
    expect(s.tasks.map((t) => t.id)).toEqual(['a:search-index', 'b:search-index', 'a:embeddings'])
    emit('search:embedding', { library: 'a', done: 50, total: 50, final: true })
    expect(s.tasks.map((t) => t.id)).toEqual(['a:search-index', 'b:search-index'])
  })

  test('a failed task stays, with its error, until dismissed', () => {
    vi.useFakeTimers()
    const { api, emit } = fakeApi()
    const s = new ProgressStore(100)
    s.connect(api)
    emit('search:embedding', { library: 'a', done: 3, total: 50, final: true, error: 'the model server refused' })
    vi.advanceTimersByTime(10_000)
    expect(s.tasks).toEqual([{ id: 'a:embeddings', library: 'a', kind: 'embeddings', done: 3, total: 50, error: 'the model server refused' }])
    s.remove('a:embeddings')
    expect(s.tasks).toEqual([])
  })

  test('a new pass after an end is shown again, and unsubscribing stops the updates', () => {
    vi.useFakeTimers()
    const { api, emit, count } = fakeApi()
    const s = new ProgressStore(100)
    const off = s.connect(api)
    emit('task:progress', { library: 'a', kind: 'scan', done: 10, total: 10, final: true })
    emit('task:progress', { library: 'a', kind: 'scan', done: 0, total: 10, final: false })
    vi.advanceTimersByTime(1000) // the first pass's removal was cancelled by the second
    expect(s.tasks).toHaveLength(1)
    off()
    expect(count()).toBe(0)
  })

  test('a task that goes quiet (its final event lost) is dropped after a while', () => {
    vi.useFakeTimers()
    const { api, emit } = fakeApi()
    const s = new ProgressStore(100, 5000)
    s.connect(api)
    emit('task:progress', { library: 'a', kind: 'scan', done: 1, total: 10, final: false })
    vi.advanceTimersByTime(4000)
    emit('task:progress', { library: 'a', kind: 'scan', done: 2, total: 10, final: false })
    vi.advanceTimersByTime(4000) // news within the limit keeps it
    expect(s.tasks).toHaveLength(1)
    vi.advanceTimersByTime(1000)
    expect(s.tasks).toEqual([])
  })

  test('percent is clamped and unknown without a total', () => {
    expect(percent({ done: 0, total: 0 })).toBeNull()
    expect(percent({ done: 7, total: 5 })).toBe(100)
    expect(percent({ done: 1, total: 3 })).toBe(33)
  })

  test('work under way when the window opened is shown, unless an event already said newer', async () => {
    const { api, emit, release } = fakeApi([
      { library: 'big', kind: 'scan', done: 300, total: 5000, final: false },
      { library: 'other', kind: 'search-index', done: 1, total: 9, final: false },
    ])
    const s = new ProgressStore(100)
    const off = s.connect(api)
    emit('task:progress', { library: 'other', kind: 'search-index', done: 5, total: 9, final: false })
    release()
    await waitFor(() => expect(s.tasks.map((t) => t.id).sort()).toEqual(['big:scan', 'other:search-index']))
    expect(s.tasks.find((t) => t.id === 'big:scan')?.done).toBe(300)
    expect(s.tasks.find((t) => t.id === 'other:search-index')?.done).toBe(5)
    off()
  })
})
