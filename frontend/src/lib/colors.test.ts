import { expect, test } from 'vitest'
import { colorForType, UNTYPED_COLOR } from './colors'

test('known types have fixed colours, case-insensitively', () => {
  expect(colorForType('person')).toBe(colorForType('Person'))
  expect(colorForType('person')).not.toBe(colorForType('project'))
})

test('untyped notes are grey', () => {
  expect(colorForType('')).toBe(UNTYPED_COLOR)
  expect(colorForType('  ')).toBe(UNTYPED_COLOR)
})

test('other types get a stable palette colour', () => {
  const c = colorForType('spaceship')
  expect(c).toMatch(/^#[0-9a-f]{6}$/)
  expect(colorForType('spaceship')).toBe(c)
  expect(colorForType('人物')).toMatch(/^#[0-9a-f]{6}$/)
})
