import { expect, test } from 'vitest'
import type { Blame, FileDiff, Hunk } from '../api'
import { actorLabel, allKept, blameRuns, chatOf, diffKeys, feedbackMessage, hunkKey, hunksText } from './review'

const hunk = (number: number, old_start: number, text: string): Hunk => ({
  number,
  old_start,
  old_lines: 2,
  new_start: old_start,
  new_lines: 2,
  lines: [
    { kind: 'context', old: old_start, new: old_start, text: 'same' },
    { kind: 'del', old: old_start + 1, text: `old ${text}` },
    { kind: 'add', new: old_start + 1, text: `new ${text}`, no_newline: true },
  ],
})

test('a hunk keeps its key when its numbers and place change, not when its lines do', () => {
  expect(hunkKey(hunk(1, 3, 'a'))).toBe(hunkKey(hunk(2, 30, 'a')))
  expect(hunkKey(hunk(1, 3, 'a'))).not.toBe(hunkKey(hunk(1, 3, 'b')))
  const d: FileDiff = { path: 'n.md', added: 2, deleted: 2, hunks: [hunk(1, 3, 'a'), hunk(2, 30, 'b')], base: 'h1' }
  expect(allKept(d, new Set([hunkKey(hunk(7, 3, 'a'))]))).toBe(false)
  expect(allKept(d, new Set(diffKeys(d)))).toBe(true)
  expect(diffKeys({ path: 'x.png', added: 0, deleted: 0, hunks: [], binary: true, base: 'h2' })).toEqual(['whole:h2'])
})

test('the feedback quotes the undone hunk as a diff, then the reason', () => {
  expect(hunksText([hunk(2, 3, 'a')])).toBe('@@ -3,2 +3,2 @@\n same\n-old a\n+new a\n\\ No newline at end of file')
  expect(feedbackMessage({ kind: 'hunks', path: 'ideas/Draft.md', hunks: [hunk(2, 3, 'a')] }, ' Keep the old date. ')).toBe(
    'I undid this change of yours to ideas/Draft.md:\n\n```diff\n@@ -3,2 +3,2 @@\n same\n-old a\n+new a\n\\ No newline at end of file\n```\n\nWhy: Keep the old date.',
  )
  expect(feedbackMessage({ kind: 'set', paths: ['a.md', 'b.md'] }, 'wrong notes')).toBe('I undid all your changes of that turn (a.md, b.md).\n\nWhy: wrong notes')
})

test('only an agent turn with its session takes feedback', () => {
  const set = { id: 'agent@t1', actor: 'agent', turn: 't1', session: 's1', latest: '', changes: [] }
  expect(chatOf(set)).toBe('s1')
  expect(chatOf({ ...set, session: undefined })).toBe('')
  expect(chatOf({ ...set, actor: 'mcp:claude' })).toBe('')
  expect(chatOf(undefined)).toBe('')
})

test('actors in words: change sets, trailers and authors', () => {
  expect(actorLabel('agent@t-1')).toBe('Agent · t-1')
  expect(actorLabel('agent', 't-2')).toBe('Agent · t-2')
  expect(actorLabel('agent, user')).toBe('Agent · no turn, Your edits in MemoTree')
  expect(actorLabel('mcp:claude')).toBe('MCP client claude')
  expect(actorLabel('Ada Lovelace')).toBe('Ada Lovelace')
})

test('a blame groups consecutive lines of one commit', () => {
  const c = (hash: string) => ({ hash, date: '2026-01-01T00:00:00Z', author: 'A', actor: hash ? 'A' : 'agent@t1' })
  const b: Blame = {
    path: 'n.md',
    lines: [
      { line: 1, text: 'a', commit: 'x' },
      { line: 2, text: 'b', commit: 'x' },
      { line: 3, text: 'c', commit: '' },
      { line: 4, text: 'd', commit: 'x' },
    ],
    commits: { x: c('x') },
    pending: c(''),
  }
  expect(blameRuns(b).map((r) => [r.commit.hash, r.lines.map((l) => l.line)])).toEqual([
    ['x', [1, 2]],
    ['', [3]],
    ['x', [4]],
  ])
})
