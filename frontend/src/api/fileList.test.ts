import { expect, test } from 'vitest'
import { readFileList } from './api'

test('a file list reads back as its files: attachments, typed and untyped notes, in order', () => {
  const files = readFileList({
    paths: ['a/Ada.md', 'a/photo.png', 'b/Babbage.md', 'b/Plan.md', 'c/Engine.md'],
    attachments: [1],
    types: ['person', 'machine'],
    typed: [0, 0, 2, 0, 4, 1],
  })
  expect(files).toEqual([
    { path: 'a/Ada.md', is_note: true, entity_type: 'person' },
    { path: 'a/photo.png', is_note: false },
    { path: 'b/Babbage.md', is_note: true, entity_type: 'person' },
    { path: 'b/Plan.md', is_note: true },
    { path: 'c/Engine.md', is_note: true, entity_type: 'machine' },
  ])
  expect(readFileList({ paths: [], attachments: [], types: [], typed: [] })).toEqual([])
})
