import { expect, test } from 'vitest'
import menuSource from '../../../app/menu.go?raw'
import { appCommands, type AppActions } from './appCommands'
import { CommandRegistry, formatChord } from './commands'
import { translate } from './i18n.svelte'

function actions(log: string[], repo = false): AppActions {
  const rec = (name: string) => () => void log.push(name)
  return {
    hasRepo: () => repo,
    openVault: rec('openVault'),
    closeVault: rec('closeVault'),
    hasVault: () => true,
    palette: rec('palette'),
    quickSwitcher: rec('quickSwitcher'),
    search: rec('search'),
    toggleGraph: rec('toggleGraph'),
    fitGraph: rec('fitGraph'),
    toggleGraphMain: rec('toggleGraphMain'),
    toggleSidebar: rec('toggleSidebar'),
    side: (w) => void log.push(`side:${w}`),
    commit: rec('commit'),
    push: rec('push'),
    pull: rec('pull'),
    canSync: () => repo,
    toggleEdit: rec('toggleEdit'),
    hasNote: () => true,
    save: rec('save'),
    canSave: () => false,
    newNote: rec('newNote'),
    reload: rec('reload'),
    resetLayout: rec('resetLayout'),
    focusTree: rec('focusTree'),
    settings: rec('settings'),
  }
}

test('no two commands share a shortcut, and every title reads in both languages', () => {
  const cs = appCommands(actions([]))
  const chords = cs.flatMap((c) => c.keys ?? []).map((k) => formatChord(k, false))
  expect(new Set(chords).size).toBe(chords.length)
  for (const c of cs) {
    for (const locale of ['en', 'zh'] as const) {
      expect(translate(locale, c.title)).not.toBe('')
      if (c.category) expect(translate(locale, c.category)).not.toBe('')
    }
  }
})

test('the shortcuts the window had before still run the same actions', () => {
  const log: string[] = []
  const r = new CommandRegistry(false)
  r.add(...appCommands(actions(log)))
  const press = (key: string, shift = false) => ({ key, ctrlKey: true, metaKey: false, shiftKey: shift, altKey: false, preventDefault: () => {} })
  r.handleKey(press('o'))
  r.handleKey(press('F', true))
  r.handleKey(press('e'))
  r.handleKey(press('P', true))
  r.handleKey(press('g'))
  expect(log).toEqual(['quickSwitcher', 'search', 'toggleEdit', 'palette', 'toggleGraph'])
  // Save runs only while editing; push and pull only when a sync can start.
  expect(r.handleKey(press('s'))).toBe(false)
  expect(r.run('git.push')).toBe(false)
  expect(r.run('panel.changes')).toBe(true)
  expect(log.at(-1)).toBe('side:git')
})

test('without a repository the palette offers no commit, push or pull', () => {
  for (const repo of [false, true]) {
    const r = new CommandRegistry(false)
    r.add(...appCommands(actions([], repo)))
    for (const id of ['git.commit', 'git.push', 'git.pull']) {
      const c = r.get(id)
      expect(c && (!c.enabled || c.enabled()), `${id} with repo=${repo}`).toBe(repo)
    }
  }
})

// The desktop app's native menu (app/menu.go) runs the window's commands by id, with
// their shortcuts: each item's command must exist, and its accelerator must be one of
// the command's keys.
test("the native menu's commands and shortcuts are the window's", () => {
  const items = [...menuSource.matchAll(/\{"([^"]+)", "([a-z]+\.[A-Za-z]+)", (nil|keys\.[^}]+)\}/g)]
  expect(items.length).toBeGreaterThan(8)
  const byId = new Map(appCommands(actions([])).map((c) => [c.id, c]))
  for (const [, label, id, accel] of items) {
    const c = byId.get(id as string)
    expect(c, `${label}: no command ${id}`).toBeDefined()
    if (accel === 'nil') continue
    const m = /keys\.(?:CmdOrCtrl\("(.)"\)|Combo\("(.)", mod, shift\))/.exec(accel as string)
    expect(m, `${label}: accelerator ${accel}`).not.toBeNull()
    const chord = m?.[1] !== undefined ? `Mod+${m[1].toUpperCase()}` : `Mod+Shift+${(m?.[2] ?? '').toUpperCase()}`
    expect((c?.keys ?? []).map((k) => k.toUpperCase()), `${label} (${id})`).toContain(chord.toUpperCase())
  }
})
