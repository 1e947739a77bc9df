import { expect, test } from 'vitest'
import { appCommands, type AppActions } from './appCommands'
import { CommandRegistry, formatChord } from './commands'
import { translate } from './i18n.svelte'

function actions(log: string[]): AppActions {
  const rec = (name: string) => () => void log.push(name)
  return {
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
    canSync: () => false,
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
