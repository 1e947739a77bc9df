import { describe, expect, test } from 'vitest'
import { parseQuery, type QueryTarget } from './graphQuery'

const ada: QueryTarget = { path: 'People/Ada Lovelace.md', label: 'Ada Lovelace', aliases: ['Countess'], tags: ['history', 'people/women'], entityType: 'Person' }
const engine: QueryTarget = { path: 'Machines/Analytical Engine.md', label: 'Analytical Engine', tags: ['machine'], entityType: '' }
const ghost: QueryTarget = { path: '', label: 'Ghost' }
const m = (q: string, t: QueryTarget) => parseQuery(q).match(t)

describe('parseQuery', () => {
  test('fields as Obsidian names them, and type:', () => {
    expect(m('path:people/', ada)).toBe(true)
    expect(m('path:People/', engine)).toBe(false)
    expect(m('path:"Analytical Engine"', engine)).toBe(true)
    expect(m('file:lovelace', ada)).toBe(true)
    expect(m('tag:#history', ada)).toBe(true)
    expect(m('tag:people', ada)).toBe(true)
    expect(m('tag:peo', ada)).toBe(false)
    expect(m('type:person', ada)).toBe(true)
    expect(m('type:person', engine)).toBe(false)
    expect(m('path:x', ghost)).toBe(false)
  })

  test('plain words match the name, the path and aliases, ignoring case and width', () => {
    expect(m('countess', ada)).toBe(true)
    expect(m('ＡＤＡ', ada)).toBe(true)
    expect(m('machines', engine)).toBe(true)
    expect(m('ghost', ghost)).toBe(true)
  })

  test('AND by default, OR, -, parentheses', () => {
    expect(m('ada tag:history', ada)).toBe(true)
    expect(m('ada tag:machine', ada)).toBe(false)
    expect(m('tag:machine OR type:person', ada)).toBe(true)
    expect(m('tag:machine OR type:person', engine)).toBe(true)
    expect(m('-tag:history', ada)).toBe(false)
    expect(m('-tag:history', engine)).toBe(true)
    expect(m('-(tag:history OR tag:machine)', engine)).toBe(false)
    expect(m('(ada OR engine) -countess', engine)).toBe(true)
    expect(m('(ada OR engine) -countess', ada)).toBe(false)
  })

  test('regular expressions as values of path: and file:, and alone', () => {
    expect(m('path:/^people\\//', ada)).toBe(true)
    expect(m('path:/^people\\//', { ...engine, path: 'Old people/x.md' })).toBe(false)
    expect(m('file:/^ada\\slo/', ada)).toBe(true)
    expect(m('/^ghost$/', ghost)).toBe(true)
    expect(parseQuery('path:/[/').error).toBeTruthy()
  })

  test('a regular expression is read whole: groups, alternatives, spaces and quotes in it', () => {
    expect(m('/(lovelace|engine)$/', ada)).toBe(true)
    expect(m('/(lovelace|engine)$/', ghost)).toBe(false)
    expect(m('file:/^(ada|analytical) /', engine)).toBe(true)
    expect(m('path:/^people\\/(ada|x)/', ada)).toBe(true)
    expect(m('/ada lovelace/', ada)).toBe(true)
    expect(m('/"ghost"|ghost/', ghost)).toBe(true)
    expect(m('(/(ghost)/ OR tag:machine) -countess', engine)).toBe(true)
    expect(m('(/(ghost)/ OR tag:machine) -countess', ada)).toBe(false)
    expect(m('-/(ada)/', ada)).toBe(false)
    expect(parseQuery('/(unclosed/').error).toBeTruthy()
  })

  test('an empty query matches every node; a broken one matches none and says why', () => {
    expect(parseQuery('  ').empty).toBe(true)
    expect(m('', engine)).toBe(true)
    for (const bad of ['"open', '(a OR b', 'a )', 'OR', 'path:']) {
      const q = parseQuery(bad)
      expect(q.error, bad).toBeTruthy()
      expect(q.match(ada)).toBe(false)
    }
  })
})
