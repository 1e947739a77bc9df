import { afterEach, beforeEach, expect, test, vi } from 'vitest'
import { debounce } from './debounce'

beforeEach(() => {
  vi.useFakeTimers()
})
afterEach(() => {
  vi.useRealTimers()
})

test('a burst calls once, with the last arguments', () => {
  const fn = vi.fn()
  const d = debounce(fn, 100)
  d(1)
  vi.advanceTimersByTime(50)
  d(2)
  vi.advanceTimersByTime(99)
  expect(fn).not.toHaveBeenCalled()
  vi.advanceTimersByTime(1)
  expect(fn).toHaveBeenCalledExactlyOnceWith(2)
})

test('cancel drops the pending call', () => {
  const fn = vi.fn()
  const d = debounce(fn, 100)
  d()
  d.cancel()
  vi.advanceTimersByTime(200)
  expect(fn).not.toHaveBeenCalled()
})
