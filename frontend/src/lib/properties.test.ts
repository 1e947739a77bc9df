import { expect, test } from 'vitest'
import { formatScalar, propertyRows, textParts } from './properties'

const resolve = (name: string) => ({ 'Charles Babbage': 'people/Charles Babbage.md', Ada: 'people/Ada.md' })[name] ?? ''

test('rows put well-known keys first and render every value kind', () => {
  const rows = propertyRows(
    {
      zeta: 3,
      'date created': '2025-10-26T10:00:00+08:00',
      tags: ['history', '#math'],
      'entity type': 'person',
      aliases: ['Ada'],
      relations: [
        { 'relation type': 'collaborator of', 'relation to': '[[Charles Babbage]]' },
        { 'relation type': 'knows', 'relation to': 'Nobody' },
      ],
      done: true,
      empty: null,
    },
    resolve,
  )
  expect(rows.map((r) => r.key)).toEqual(['entity type', 'aliases', 'tags', 'relations', 'date created', 'done', 'empty', 'zeta'])
  expect(rows[0]?.values).toEqual([[{ kind: 'text', text: 'person' }]])
  expect(rows[2]?.values).toEqual([[{ kind: 'tag', name: 'history' }], [{ kind: 'tag', name: 'math' }]])
  expect(rows[3]?.values).toEqual([
    [
      { kind: 'text', text: 'collaborator of ' },
      { kind: 'link', text: 'Charles Babbage', target: 'Charles Babbage', resolved: 'people/Charles Babbage.md' },
    ],
    [
      { kind: 'text', text: 'knows ' },
      { kind: 'link', text: 'Nobody', target: 'Nobody', resolved: '' },
    ],
  ])
  expect(rows[4]?.values).toEqual([[{ kind: 'text', text: '2025-10-26 10:00' }]])
  expect(rows[5]?.values).toEqual([[{ kind: 'text', text: 'true' }]])
  expect(rows[6]?.values).toEqual([])
})

test('no properties, no rows', () => {
  expect(propertyRows(null, resolve)).toEqual([])
  expect(propertyRows({}, resolve)).toEqual([])
})

test('textParts finds wikilinks in strings', () => {
  expect(textParts('met [[Ada|her]] in 1833', resolve)).toEqual([
    { kind: 'text', text: 'met ' },
    { kind: 'link', text: 'her', target: 'Ada', resolved: 'people/Ada.md' },
    { kind: 'text', text: ' in 1833' },
  ])
})

test('formatScalar', () => {
  expect(formatScalar('2025-10-27T09:12:00Z')).toBe('2025-10-27 09:12')
  expect(formatScalar('plain')).toBe('plain')
  expect(formatScalar(1.5)).toBe('1.5')
  expect(formatScalar({ a: 1 })).toBe('{"a":1}')
})
