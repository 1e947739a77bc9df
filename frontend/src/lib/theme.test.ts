import { flushSync } from 'svelte'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { i18n } from './i18n.svelte'
import { appearance, bindDocument, parseThemeChoice, resolveTheme, THEME_EVENT, type DocumentLike } from './theme.svelte'

/** A media query whose answer the test flips, as the system would. */
function fakeSystem(dark: boolean) {
  const listeners = new Set<(e: MediaQueryListEvent) => void>()
  const mq = {
    matches: dark,
    addEventListener: (_: string, f: (e: MediaQueryListEvent) => void) => void listeners.add(f),
    removeEventListener: (_: string, f: (e: MediaQueryListEvent) => void) => void listeners.delete(f),
  }
  const events: string[] = []
  const win = {
    matchMedia: (q: string) => {
      expect(q).toBe('(prefers-color-scheme: dark)')
      return mq as unknown as MediaQueryList
    },
    dispatchEvent: (e: Event) => {
      events.push(`${e.type}:${(e as CustomEvent<string>).detail}`)
      return true
    },
  }
  const flip = (d: boolean) => {
    mq.matches = d
    for (const f of listeners) f({ matches: d } as MediaQueryListEvent)
  }
  return { win, events, flip, listeners }
}

describe('theme', () => {
  afterEach(() => {
    appearance.choose('auto')
    i18n.choose('en')
    vi.unstubAllGlobals()
  })

  it('follows the system unless a theme is chosen', () => {
    expect(resolveTheme('auto', true)).toBe('dark')
    expect(resolveTheme('auto', false)).toBe('light')
    expect(resolveTheme('light', true)).toBe('light')
    expect(resolveTheme('dark', false)).toBe('dark')
  })

  it('reads a stored choice, and anything else as the system', () => {
    expect(parseThemeChoice('dark')).toBe('dark')
    expect(parseThemeChoice('light')).toBe('light')
    expect(parseThemeChoice('auto')).toBe('auto')
    expect(parseThemeChoice('purple')).toBe('auto')
    expect(parseThemeChoice(null)).toBe('auto')
  })

  it('writes data-theme and lang on the document, and tells the window each time the theme changes', () => {
    const doc: DocumentLike = { documentElement: { lang: '', dataset: {} } }
    const sys = fakeSystem(true)
    const stop = bindDocument(doc, sys.win)
    flushSync()
    expect(doc.documentElement.dataset.theme).toBe('dark')
    expect(doc.documentElement.lang).toBe('en')
    expect(sys.events).toEqual([`${THEME_EVENT}:dark`])

    sys.flip(false) // the system turns light
    flushSync()
    expect(doc.documentElement.dataset.theme).toBe('light')

    appearance.choose('dark') // the person overrides it
    flushSync()
    expect(doc.documentElement.dataset.theme).toBe('dark')
    sys.flip(true) // no change to show, no event
    flushSync()
    expect(sys.events).toEqual([`${THEME_EVENT}:dark`, `${THEME_EVENT}:light`, `${THEME_EVENT}:dark`])

    i18n.choose('zh')
    flushSync()
    expect(doc.documentElement.lang).toBe('zh-CN')

    stop()
    expect(sys.listeners.size).toBe(0)
    i18n.choose('en')
    flushSync()
    expect(doc.documentElement.lang).toBe('zh-CN') // stopped: no longer followed
  })
})
