import { expect, test } from 'vitest'
import { cachedLook, cacheLook, forgetLegacyLook, LEGACY_LOOK_KEYS, legacyLook, readItem, WINDOW_KEYS, writeItem, type WindowStorage } from './windowState'

function memory(entries: Record<string, string> = {}): WindowStorage & { m: Map<string, string> } {
  const m = new Map(Object.entries(entries))
  return { m, getItem: (k) => m.get(k) ?? null, setItem: (k, v) => void m.set(k, v), removeItem: (k) => void m.delete(k) }
}

const refusing: WindowStorage = {
  getItem: () => {
    throw new Error('denied')
  },
  setItem: () => {
    throw new Error('denied')
  },
  removeItem: () => {
    throw new Error('denied')
  },
}

test('items are kept, removed, and a storage that refuses is no error', () => {
  const s = memory()
  writeItem('k', 'v', s)
  expect(readItem('k', s)).toBe('v')
  writeItem('k', null, s)
  expect(readItem('k', s)).toBeNull()
  expect(readItem('k', refusing)).toBeNull()
  expect(() => writeItem('k', 'v', refusing)).not.toThrow()
  expect(readItem('k', undefined)).toBeNull()
})

test('the first frame takes the copy of the look, else an earlier version’s choice, field by field', () => {
  expect(cachedLook(memory())).toEqual({})
  expect(cachedLook(refusing)).toEqual({})
  const legacy = memory({ [LEGACY_LOOK_KEYS.theme]: 'dark', [LEGACY_LOOK_KEYS.language]: 'zh' })
  expect(cachedLook(legacy)).toEqual({ theme: 'dark', language: 'zh' })
  cacheLook({ theme: 'light', language: 'auto' }, legacy)
  expect(cachedLook(legacy)).toEqual({ theme: 'light', language: 'auto' })
  // A damaged copy, or one with choices this window does not know, gives way.
  const damaged = memory({ [WINDOW_KEYS.look]: '{"theme": "sepia"', [LEGACY_LOOK_KEYS.theme]: 'dark' })
  expect(cachedLook(damaged)).toEqual({ theme: 'dark' })
  expect(cachedLook(memory({ [WINDOW_KEYS.look]: '{"theme": "sepia", "language": "zh"}' }))).toEqual({ language: 'zh' })
})

test('an earlier version’s look is read, then forgotten', () => {
  const s = memory({ [LEGACY_LOOK_KEYS.language]: 'zh', [LEGACY_LOOK_KEYS.theme]: 'purple' })
  expect(legacyLook(s)).toEqual({ language: 'zh' })
  forgetLegacyLook(s)
  expect(legacyLook(s)).toBeNull()
  expect(s.m.size).toBe(0)
})

// Only windowState.ts keeps anything in the browser: a setting of the person or of a
// vault belongs to the backend (backend/settings), and window-local state goes through
// this one module.
test('no other module of the window touches localStorage', () => {
  const sources = import.meta.glob(['../**/*.ts', '../**/*.svelte', '!../**/*.test.ts'], { query: '?raw', import: 'default', eager: true }) as Record<string, string>
  expect(Object.keys(sources).length).toBeGreaterThan(50)
  const users = Object.entries(sources)
    .filter(([, text]) => /\blocalStorage\b/.test(text))
    .map(([file]) => file)
  expect(users).toEqual(['./windowState.ts'])
})
