import { describe, expect, test } from 'vitest'
import type { FileEntry } from '../api/types'
import { makeResolver, parseWikiInner } from './resolve'

describe('parseWikiInner', () => {
  test.each([
    ['Note', { target: 'Note', subpath: '', display: '' }],
    ['Note|shown', { target: 'Note', subpath: '', display: 'shown' }],
    ['Note#Heading|shown', { target: 'Note', subpath: 'Heading', display: 'shown' }],
    ['#Local', { target: '', subpath: 'Local', display: '' }],
    ['Note#^block', { target: 'Note', subpath: '^block', display: '' }],
    ['Note\\|in table', { target: 'Note', subpath: '', display: 'in table' }],
    ['folder/沈括', { target: 'folder/沈括', subpath: '', display: '' }],
  ])('%s', (inner, want) => {
    expect(parseWikiInner(inner)).toEqual(want)
  })
})

describe('makeResolver', () => {
  const f = (path: string): FileEntry => ({ path, is_note: path.endsWith('.md') })
  const resolve = makeResolver([f('people/Ada.md'), f('a/Dup.md'), f('b/Dup.md'), f('img/x.png'), f('中文/沈括.md')])
  test.each([
    ['Ada', 'people/Ada.md'],
    ['ada', 'people/Ada.md'],
    ['[[Ada]]', 'people/Ada.md'],
    ['[[Ada|Lady Lovelace]]', 'people/Ada.md'],
    ['people/Ada', 'people/Ada.md'],
    ['people/Ada.md', 'people/Ada.md'],
    ['a/Dup', 'a/Dup.md'],
    ['Dup', ''], // ambiguous: never a guess
    ['x.png', 'img/x.png'],
    ['沈括', '中文/沈括.md'],
    ['Missing', ''],
    ['', ''],
  ])('%s → %s', (name, want) => {
    expect(resolve(name)).toBe(want)
  })
})
