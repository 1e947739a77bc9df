import { describe, expect, test } from 'vitest'
import { CommandRegistry, filterCommands, formatChord, fuzzyScore, isMac, matchesChord, type Command, type KeyLike } from './commands'

const press = (key: string, m: Partial<KeyLike> = {}): KeyLike => ({ key, ctrlKey: false, metaKey: false, shiftKey: false, altKey: false, ...m })

describe('chords', () => {
  test('Mod is Ctrl elsewhere and Cmd on a Mac', () => {
    expect(matchesChord(press('P', { ctrlKey: true, shiftKey: true }), 'Mod+Shift+P', false)).toBe(true)
    expect(matchesChord(press('p', { ctrlKey: true }), 'Mod+Shift+P', false)).toBe(false)
    expect(matchesChord(press('p', { ctrlKey: true }), 'Mod+P', false)).toBe(true)
    expect(matchesChord(press('p', { metaKey: true }), 'Mod+P', false)).toBe(false)
    expect(matchesChord(press('p', { metaKey: true }), 'Mod+P', true)).toBe(true)
    expect(matchesChord(press('p', { ctrlKey: true }), 'Mod+P', true)).toBe(false)
    expect(matchesChord(press('p', { ctrlKey: true, altKey: true }), 'Mod+P', false)).toBe(false)
    expect(matchesChord(press('F1'), 'F1', false)).toBe(true)
    expect(matchesChord(press('F1', { ctrlKey: true }), 'F1', false)).toBe(false)
  })

  test('are written the platform way', () => {
    expect(formatChord('Mod+Shift+P', false)).toBe('Ctrl+Shift+P')
    expect(formatChord('Mod+Shift+P', true)).toBe('⇧⌘P')
    expect(formatChord('Mod+o', false)).toBe('Ctrl+O')
    expect(formatChord('F1', false)).toBe('F1')
    expect(formatChord('Alt+ArrowUp', false)).toBe('Alt+↑')
  })

  test('isMac reads the platform', () => {
    expect(isMac({ platform: 'MacIntel' })).toBe(true)
    expect(isMac({ platform: 'Linux x86_64' })).toBe(false)
    expect(isMac(undefined)).toBe(false)
  })
})

describe('fuzzy filtering', () => {
  test('a subsequence matches, a missing character does not', () => {
    expect(fuzzyScore('tg', 'Toggle graph')).not.toBeNull()
    expect(fuzzyScore('gz', 'Toggle graph')).toBeNull()
    expect(fuzzyScore('', 'anything')).toBe(0)
    expect(fuzzyScore('TOG GR', 'toggle graph')).not.toBeNull()
  })

  test('word starts and runs score more than scattered letters', () => {
    const wordStart = fuzzyScore('tg', 'Toggle graph')!
    const scattered = fuzzyScore('tg', 'Settings page')!
    expect(wordStart).toBeGreaterThan(scattered)
    expect(fuzzyScore('graph', 'View: Toggle graph')!).toBeGreaterThan(fuzzyScore('graph', 'Git: open the panel for changes: p h')!)
  })

  const cmd = (id: string, enabled = true): Command => ({ id, title: 'app.name', run: () => {}, enabled: () => enabled })
  const labels: Record<string, string> = { a: 'View: Toggle graph', b: 'Git: Commit…', c: 'Note: Save', d: 'Note: Save all' }

  test('best match first; disabled commands are hidden; an empty query keeps the order', () => {
    const cs = [cmd('a'), cmd('b'), cmd('c'), cmd('d', false)]
    const label = (c: Command) => labels[c.id] ?? ''
    expect(filterCommands(cs, '', label).map((m) => m.command.id)).toEqual(['a', 'b', 'c'])
    expect(filterCommands(cs, 'save', label).map((m) => m.command.id)).toEqual(['c'])
    expect(filterCommands(cs, 'com', label)[0]?.command.id).toBe('b')
    expect(filterCommands(cs, 'zzz', label)).toEqual([])
  })
})

describe('the registry', () => {
  test('runs the command of a shortcut, only when enabled', () => {
    const r = new CommandRegistry(false)
    let ran = ''
    let canSave = false
    r.add(
      { id: 'palette', title: 'app.name', keys: ['Mod+Shift+P', 'Mod+P'], run: () => (ran = 'palette') },
      { id: 'save', title: 'app.name', keys: ['Mod+S'], enabled: () => canSave, run: () => (ran = 'save') },
    )
    expect(r.forKey(press('p', { ctrlKey: true }))?.id).toBe('palette')
    expect(r.forKey(press('P', { ctrlKey: true, shiftKey: true }))?.id).toBe('palette')
    expect(r.forKey(press('s', { ctrlKey: true }))).toBeUndefined()
    canSave = true
    expect(r.forKey(press('s', { ctrlKey: true }))?.id).toBe('save')
    expect(r.run('save')).toBe(true)
    expect(ran).toBe('save')
    expect(r.run('missing')).toBe(false)
    expect(r.shortcut(r.get('palette')!)).toBe('Ctrl+Shift+P')
  })

  test('handleKey prevents the browser action of a shortcut it runs', () => {
    const r = new CommandRegistry(false)
    let n = 0
    r.add({ id: 'x', title: 'app.name', keys: ['Mod+G'], run: () => n++ })
    let prevented = 0
    const ev = (key: string, m: Partial<KeyLike> = {}) => ({ ...press(key, m), preventDefault: () => prevented++ })
    expect(r.handleKey(ev('g', { ctrlKey: true }))).toBe(true)
    expect(prevented).toBe(1)
    expect(r.handleKey(ev('h', { ctrlKey: true }))).toBe(false)
    expect(r.handleKey({ ...ev('g', { ctrlKey: true }), isComposing: true })).toBe(false)
    expect(prevented).toBe(1)
    expect(n).toBe(1)
  })

  test('an id registered twice is refused, and a removal unregisters', () => {
    const r = new CommandRegistry(false)
    const off = r.add({ id: 'x', title: 'app.name', run: () => {} })
    expect(() => r.add({ id: 'x', title: 'app.name', run: () => {} })).toThrow(/twice/)
    off()
    expect(r.all()).toEqual([])
  })
})
