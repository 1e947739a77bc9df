import { expect, test } from 'vitest'
import type { DiffLine } from '../api'
import { countsLabel, hunkHeader, lineLabel, linePieces, lineSign } from './diffview'

test('hunk headers are git diff’s', () => {
  expect(hunkHeader({ number: 1, old_start: 3, old_lines: 7, new_start: 3, new_lines: 8, lines: [] })).toBe('@@ -3,7 +3,8 @@')
  expect(hunkHeader({ number: 1, old_start: 0, old_lines: 0, new_start: 1, new_lines: 1, lines: [] })).toBe('@@ -0,0 +1 @@')
})

test('a line with word segments renders them; otherwise the whole text', () => {
  const edited: DiffLine = {
    kind: 'add',
    new: 3,
    text: 'Ada was born in 1815.',
    segments: [{ text: 'Ada was born in ' }, { text: '1815', changed: true }, { text: '.' }],
  }
  expect(linePieces(edited).map((s) => (s.changed ? `[${s.text}]` : s.text)).join('')).toBe('Ada was born in [1815].')
  expect(linePieces({ kind: 'del', old: 2, text: 'gone' })).toEqual([{ text: 'gone', changed: false }])
  // Segments that disagree with the text are not trusted.
  expect(linePieces({ kind: 'add', new: 1, text: 'abc', segments: [{ text: 'ab' }] })).toEqual([{ text: 'abc', changed: false }])
  expect(lineSign(edited)).toBe('+')
  expect(lineLabel(edited)).toBe('added line 3')
  expect(lineLabel({ kind: 'context', old: 1, new: 1, text: '' })).toBe('line 1')
  expect(countsLabel(3, 1)).toBe('+3 −1')
})
