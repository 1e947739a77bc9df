import { expect, test } from 'vitest'
import type { ChatRecord } from '../api/types'
import { applyApproval, applyDelta, applyTool, itemsFromRecords, newLive, removeApproval, scriptOf, summarizeArgs, yamlField } from './chat'

const t = '2026-11-22T09:30:00Z'

test('a saved session pairs each call with its result', () => {
  const records: ChatRecord[] = [
    { time: t, role: 'user', content: 'Add Mary' },
    { time: t, role: 'assistant', content: '', tool_calls: [{ id: 'c1', name: 'create_entity', arguments: '{"entity_name":"Mary"}' }] },
    { time: t, role: 'tool', tool_call_id: 'c1', content: 'status: success\nmessage: "created Mary"\n' },
    { time: t, role: 'assistant', tool_calls: [{ id: 'c2', name: 'delete_entities', arguments: '{}' }] },
    { time: t, role: 'tool', tool_call_id: 'c2', content: 'status: error\nerror_code: stopped\nmessage: the person stopped the turn\n' },
    { time: t, role: 'assistant', content: 'Done.' },
  ]
  const items = itemsFromRecords(records)
  expect(items.map((i) => i.kind)).toEqual(['user', 'tool', 'tool', 'assistant'])
  const cards = items.flatMap((i) => (i.kind === 'tool' ? [[i.card.status, i.card.message]] : []))
  expect(cards).toEqual([
    ['success', 'created Mary'],
    ['stopped', 'the person stopped the turn'],
  ])
})

test('live events build the turn in order', () => {
  let live = newLive('t-1', 'go', t)
  live = applyDelta(live, { session: 's', turn: 't-1', seq: 1, text: 'Hel' })
  live = applyDelta(live, { session: 's', turn: 't-1', seq: 2, text: 'lo' })
  live = applyDelta(live, { session: 's', turn: 'other', seq: 1, text: 'ignored' })
  live = applyApproval(live, { session: 's', turn: 't-1', id: 'a1', call_id: 'c1', from: 'agent', library: 'demo', name: 'delete_entities', args: '{}' })
  live = applyTool(live, { session: 's', turn: 't-1', id: 'c1', name: 'delete_entities', args: '{}', phase: 'start', status: '', message: '', result: '' })
  expect(live.items.map((i) => i.kind)).toEqual(['user', 'assistant', 'tool'])
  live = applyTool(live, { session: 's', turn: 't-1', id: 'c1', name: 'delete_entities', args: '{}', phase: 'end', status: 'success', message: 'ok', result: 'status: success' })
  live = applyDelta(live, { session: 's', turn: 't-1', seq: 3, text: 'Bye' })
  const kinds = live.items.map((i) => (i.kind === 'assistant' ? `a:${i.text}` : i.kind === 'tool' ? `t:${i.card.status}` : i.kind))
  expect(kinds).toEqual(['user', 'a:Hello', 't:success', 'a:Bye'])
  expect(live.seq).toBe(4)
})

test('an answered approval goes away', () => {
  let live = newLive('t', 'x', t)
  live = applyApproval(live, { session: 's', turn: 't', id: 'a1', call_id: 'c', from: 'agent', library: 'demo', name: 'n', args: '{}' })
  expect(removeApproval(live, 'a1').items.map((i) => i.kind)).toEqual(['user'])
})

test('small helpers', () => {
  expect(yamlField('status: error\nmessage: "quoted: yes"\n', 'message')).toBe('quoted: yes')
  expect(yamlField('status: ok', 'missing')).toBe('')
  expect(summarizeArgs('{"entity_names":["A","B"],"x":1}')).toBe('entity_names: ["A","B"], x: 1')
  expect(summarizeArgs('{"a":"' + 'x'.repeat(100) + '"}', 20)).toHaveLength(20)
  expect(summarizeArgs('{"broken')).toBe('{"broken')
})

test('scriptOf shows a run_starlark call as its code', () => {
  const args = JSON.stringify({ target: 'count people', code: 'n = 1\n__result__ = n', dry_run: true })
  expect(scriptOf('run_starlark', args)).toEqual({ target: 'count people', code: 'n = 1\n__result__ = n', dryRun: true })
  expect(scriptOf('read_entities', args)).toBeNull()
  expect(scriptOf('run_starlark', '{"code": 3}')).toBeNull()
  expect(scriptOf('run_starlark', 'not json')).toBeNull()
})

test('reasoning streams into its own fold, apart from the answer', () => {
  let live = newLive('t-1', 'hi', '2026-01-01T00:00:00Z')
  live = applyDelta(live, { session: 's', turn: 't-1', seq: 1, text: 'Let me ', reasoning: true })
  live = applyDelta(live, { session: 's', turn: 't-1', seq: 2, text: 'think.', reasoning: true })
  live = applyDelta(live, { session: 's', turn: 't-1', seq: 3, text: 'Answer.' })
  const first = live.items[1]
  expect(first).toMatchObject({ kind: 'assistant', text: 'Answer.', reasoning: 'Let me think.' })
  // Thinking again after an answer (after a tool call) starts a new message.
  live = applyDelta(live, { session: 's', turn: 't-1', seq: 4, text: 'More.', reasoning: true })
  expect(live.items).toHaveLength(3)
  expect(live.items[2]).toMatchObject({ kind: 'assistant', text: '', reasoning: 'More.' })
})

test('a saved reply keeps its reasoning apart', () => {
  const records: ChatRecord[] = [
    { time: 't0', role: 'user', content: 'hi' },
    { time: 't1', role: 'assistant', content: 'Hello.', reasoning: 'Greet back.' },
    { time: 't2', role: 'assistant', reasoning: 'Only thought, then a call.', tool_calls: [{ id: 'c1', name: 'read_manual', arguments: '{}' }] },
  ]
  const items = itemsFromRecords(records)
  expect(items[1]).toMatchObject({ kind: 'assistant', text: 'Hello.', reasoning: 'Greet back.' })
  expect(items[2]).toMatchObject({ kind: 'assistant', text: '', reasoning: 'Only thought, then a call.' })
  expect(items[3]).toMatchObject({ kind: 'tool' })
})
