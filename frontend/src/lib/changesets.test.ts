import { expect, test } from 'vitest'
import type { ChangeSet } from '../api'
import { changeSetLabel, changeSetTime as changeSetTimeOf, discardable, discardEffect, pendingFolders, pendingMap, pruneChoice, setChoice, stateLetter, toggleSet } from './changesets'
import { i18n } from './i18n.svelte'

const agent: ChangeSet = {
  id: 'agent@t-1',
  actor: 'agent',
  turn: 't-1',
  latest: '2026-11-22T10:00:00Z',
  changes: [
    { path: 'a.md', state: 'modified' },
    { path: 'new.md', state: 'renamed', from: 'old.md' },
  ],
}
const outside: ChangeSet = { id: 'external', actor: 'external', latest: '0001-01-01T00:00:00Z', changes: [{ path: 'b.md', state: 'untracked' }] }

test('labels name who made a change set', () => {
  expect(changeSetLabel(agent)).toBe('Agent · t-1')
  expect(changeSetLabel({ actor: 'agent' })).toBe('Agent · no turn')
  expect(changeSetLabel(outside)).toBe('Outside edits')
  expect(changeSetLabel({ actor: 'user' })).toBe('Your edits in MemoTree')
  expect(changeSetLabel({ actor: 'mcp:claude-ai', turn: 'a-very-long-session-id' })).toBe('MCP client claude-ai · a-very-long-…')
  expect(changeSetLabel({ actor: 'journey' })).toBe('Journey (operation log)')
  expect(stateLetter('untracked')).toBe('U')
})

test('times: the zero time is none; today shows the hour; written in the window language', () => {
  expect(changeSetTimeOf(outside.latest)).toBe('')
  const now = new Date(2026, 10, 22, 18, 0)
  const today = new Date(2026, 10, 22, 9, 5).toISOString()
  const earlier = new Date(2026, 0, 2, 9, 5).toISOString()
  // ICU versions differ in the kind of space before AM.
  const changeSetTime = (iso: string, at: Date) => changeSetTimeOf(iso, at).replace(/\s/g, ' ')
  expect(changeSetTime(today, now)).toBe('9:05 AM')
  expect(changeSetTime(earlier, now)).toBe('Jan 2, 2026, 9:05 AM')
  i18n.choose('zh')
  try {
    expect(changeSetTime(today, now)).toBe('09:05')
    expect(changeSetTime(earlier, now)).toBe('2026年1月2日 09:05')
    expect(changeSetLabel({ actor: 'external' })).toBe('外部编辑')
    expect(discardEffect({ path: 'n.md', state: 'renamed', from: 'o.md' })).toBe('改回原名 o.md')
  } finally {
    i18n.choose('en')
  }
})

test('a set is chosen whole, partly or not at all; toggling chooses all unless all were', () => {
  expect(setChoice(agent, new Set())).toBe('none')
  expect(setChoice(agent, new Set(['a.md']))).toBe('some')
  const all = toggleSet(agent, new Set(['a.md', 'b.md']))
  expect([...all].sort()).toEqual(['a.md', 'b.md', 'new.md'])
  expect(setChoice(agent, all)).toBe('all')
  expect([...toggleSet(agent, all)]).toEqual(['b.md'])
})

test('pruning drops paths without a pending change; the map holds renames both ways', () => {
  expect([...pruneChoice([agent], new Set(['a.md', 'gone.md']))]).toEqual(['a.md'])
  const m = pendingMap([agent, outside])
  expect(m.get('old.md')).toBe('renamed')
  expect(m.get('b.md')).toBe('untracked')
  expect(m.has('c.md')).toBe(false)
})

test('folders holding pending notes are known at every depth', () => {
  expect([...pendingFolders(['a/b/c.md', 'top.md', 'a/d.md'])].sort()).toEqual(['a', 'a/b'])
})

test('the confirmation says what a discard does', () => {
  expect(discardEffect({ path: 'b.md', state: 'untracked' })).toMatch(/deleted/)
  expect(discardEffect({ path: 'n.md', state: 'renamed', from: 'o.md' })).toBe('renamed back to o.md')
  expect(discardEffect({ path: 'a.md', state: 'modified' })).toMatch(/restored/)
  expect(discardable({ path: 'journey.yaml', state: 'modified' })).toBe(false)
  expect(discardable({ path: 'a.md', state: 'modified' })).toBe(true)
})
