import { describe, expect, test } from 'vitest'
import { clamp, DEFAULT_LAYOUT, fitLayout, LIMITS, MIN_MAIN, parseLayout } from './layout'
import { LayoutStore } from '../stores/layout.svelte'
import { WINDOW_KEYS } from './windowState'

describe('parseLayout', () => {
  test('a missing or corrupt entry gives the default', () => {
    expect(parseLayout(null)).toEqual(DEFAULT_LAYOUT)
    expect(parseLayout('{not json')).toEqual(DEFAULT_LAYOUT)
    expect(parseLayout('[1,2]')).toEqual(DEFAULT_LAYOUT)
  })

  test('sizes are clamped, wrong types fall back, the side panel is one of four', () => {
    const l = parseLayout(JSON.stringify({ sidebarWidth: 5, graphWidth: 99999, sideWidth: '300', showGraph: false, side: 'chat', showSidebar: 'yes' }))
    expect(l.sidebarWidth).toBe(LIMITS.sidebarWidth.min)
    expect(l.graphWidth).toBe(LIMITS.graphWidth.max)
    expect(l.sideWidth).toBe(LIMITS.sideWidth.initial)
    expect(l.showGraph).toBe(false)
    expect(l.showSidebar).toBe(true)
    expect(l.side).toBe('chat')
    expect(parseLayout(JSON.stringify({ side: 'settings' })).side).toBe('')
  })

  test('clamp rounds and survives NaN', () => {
    expect(clamp(10.6, 0, 100)).toBe(11)
    expect(clamp(Number.NaN, 5, 10)).toBe(5)
    expect(clamp(50, 20, 10)).toBe(20)
  })
})

describe('fitLayout', () => {
  const l = { ...DEFAULT_LAYOUT, sidebarWidth: 300, graphWidth: 600, sideWidth: 500, side: 'git' as const }

  test('a wide window draws the stored sizes', () => {
    expect(fitLayout(l, 3000)).toEqual({ sidebar: 300, graph: 600, side: 500 })
  })

  test('a narrow window shrinks the graph first, then the side panel, then the sidebar', () => {
    const w = 300 + 600 + 500 + MIN_MAIN - 100
    expect(fitLayout(l, w)).toEqual({ sidebar: 300, graph: 500, side: 500 })
    const f = fitLayout(l, 1100)
    expect(f.graph).toBe(LIMITS.graphWidth.min)
    expect(f.sidebar + f.graph + f.side + MIN_MAIN).toBe(1100)
    const tiny = fitLayout(l, 400)
    expect(tiny).toEqual({ sidebar: LIMITS.sidebarWidth.min, graph: LIMITS.graphWidth.min, side: LIMITS.sideWidth.min })
  })

  test('with no note open the graph takes the room the note does not need, and gives it back', () => {
    const d = DEFAULT_LAYOUT // sidebar 260, graph 460, no side panel
    expect(fitLayout(d, 1440, { emptyNote: true }).graph).toBe(1440 - 260 - MIN_MAIN)
    expect(fitLayout(d, 1440).graph).toBe(460)
    expect(fitLayout({ ...d, side: 'chat' }, 1440, { emptyNote: true })).toEqual({ sidebar: 260, graph: 1440 - 260 - 420 - MIN_MAIN, side: 420 })
    // Never less than the stored width, never more than the bound, never for a hidden graph.
    expect(fitLayout({ ...d, graphWidth: 900 }, 1300, { emptyNote: true }).graph).toBe(1300 - 260 - MIN_MAIN)
    expect(fitLayout(d, 5000, { emptyNote: true }).graph).toBe(LIMITS.graphWidth.max)
    expect(fitLayout({ ...d, showGraph: false }, 1440, { emptyNote: true }).graph).toBe(0)
  })

  test('closed panels take no room', () => {
    expect(fitLayout({ ...l, showGraph: false, side: '', showSidebar: false }, 1000)).toEqual({ sidebar: 0, graph: 0, side: 0 })
  })
})

describe('LayoutStore', () => {
  function memory() {
    const m = new Map<string, string>()
    return { m, getItem: (k: string) => m.get(k) ?? null, setItem: (k: string, v: string) => void m.set(k, v), removeItem: (k: string) => void m.delete(k) }
  }

  test('restores what was saved', () => {
    const s = memory()
    const a = new LayoutStore(s)
    a.sidebarWidth = 333
    a.toggleGraph()
    a.toggleSide('chat')
    const b = new LayoutStore(s)
    expect(b.snapshot()).toMatchObject({ sidebarWidth: 333, showGraph: false, side: 'chat' })
    expect(JSON.parse(s.m.get(WINDOW_KEYS.layout) ?? '{}').side).toBe('chat')
  })

  test('one right-hand panel at a time; toggling the open one closes it', () => {
    const a = new LayoutStore(memory())
    a.toggleSide('git')
    a.toggleSide('canvas')
    expect(a.side).toBe('canvas')
    a.toggleSide('canvas')
    expect(a.side).toBe('')
  })

  test('a storage that throws does not break the window', () => {
    const bad = {
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
    const a = new LayoutStore(bad)
    expect(a.snapshot()).toEqual(DEFAULT_LAYOUT)
    a.toggleGraph()
    expect(a.showGraph).toBe(false)
    a.resetSizes()
    expect(a.sidebarWidth).toBe(DEFAULT_LAYOUT.sidebarWidth)
  })
})

describe('the graph as the main view', () => {
  test('is remembered, shows the graph’s column (the note), and an odd value falls back', () => {
    const store = new Map<string, string>()
    const storage = { getItem: (k: string) => store.get(k) ?? null, setItem: (k: string, v: string) => void store.set(k, v), removeItem: (k: string) => void store.delete(k) }
    const a = new LayoutStore(storage)
    a.toggleGraph()
    a.toggleGraphMain()
    expect(a.graphMain).toBe(true)
    expect(a.showGraph).toBe(true)
    expect(new LayoutStore(storage).graphMain).toBe(true)
    a.toggleGraphMain()
    expect(new LayoutStore(storage).graphMain).toBe(false)
    expect(parseLayout(JSON.stringify({ graphMain: 'yes' })).graphMain).toBe(false)
  })
})
