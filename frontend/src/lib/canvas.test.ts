import { expect, test } from 'vitest'
import type { CanvasNode } from '../api/types'
import { collapsible, expandable, formatTokens, label, nextLevel, usage } from './canvas'

const node = (over: Partial<CanvasNode>): CanvasNode => ({
  id: 'people/Ada Lovelace',
  kind: 'note',
  level: 'title',
  depth: 1,
  held: false,
  pinned: false,
  open: false,
  tokens: 5,
  ...over,
})

test('levels step up to full', () => {
  expect(nextLevel('title')).toBe('summary')
  expect(nextLevel('summary')).toBe('full')
  expect(nextLevel('full')).toBeNull()
})

test('what can be expanded and collapsed', () => {
  expect(expandable(node({}))).toBe(true)
  expect(expandable(node({ level: 'full' }))).toBe(false)
  expect(expandable(node({ kind: 'folder', id: 'people/', level: 'summary' }))).toBe(true)
  expect(collapsible(node({}))).toBe(false)
  expect(collapsible(node({ held: true }))).toBe(true)
  expect(collapsible(node({ id: '/', kind: 'folder', held: true }))).toBe(false)
})

test('labels and numbers', () => {
  expect(label(node({}))).toBe('Ada Lovelace')
  expect(label(node({ id: 'people/', kind: 'folder' }))).toBe('people/')
  expect(label(node({ id: 'a/b/[2.1]', kind: 'page' }))).toBe('[2.1]')
  expect(label(node({ id: '/[3]', kind: 'page' }))).toBe('[3]')
  expect(label(node({ id: 'Note#Early life', kind: 'heading' }))).toBe('§ Early life')
  expect(formatTokens(12345)).toBe('12,345')
  expect(usage(50, 200)).toBe(0.25)
  expect(usage(500, 200)).toBe(1)
  expect(usage(5, 0)).toBe(0)
})
