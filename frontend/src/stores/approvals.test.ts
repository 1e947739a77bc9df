import { expect, test } from 'vitest'
import type { Api, ApprovalEvent } from '../api'
import { ApprovalsStore } from './approvals.svelte'

/** A fake of the parts of the Api the store uses: what waits, the events, the answers. */
function fakeApi(waiting: ApprovalEvent[]) {
  const handlers = new Map<string, (e: ApprovalEvent) => void>()
  const answers: string[] = []
  const api = {
    approvals: async () => structuredClone(waiting),
    answerApproval: async (id: string, approve: boolean) => {
      if (id === 'gone') throw new Error('approval "gone": the request is not waiting')
      answers.push(`${id} ${approve}`)
    },
    on: (topic: string, cb: (e: ApprovalEvent) => void) => {
      handlers.set(topic, cb)
      return () => handlers.delete(topic)
    },
  } as unknown as Api
  return { api, answers, emit: (topic: string, e: ApprovalEvent) => handlers.get(topic)?.(e), handlers }
}

const req = (id: string): ApprovalEvent => ({ id, library: 'demo', from: 'mcp:Claude', tool: 'delete_entities', args: '{"entity_names":["A"]}' })

test('shows what waits, follows the events, and answers', async () => {
  const f = fakeApi([req('a')])
  const s = new ApprovalsStore(f.api)
  const off = s.connect()
  await Promise.resolve()
  await Promise.resolve()
  expect(s.waiting.map((w) => w.id)).toEqual(['a'])
  f.emit('approval:waiting', req('b'))
  f.emit('approval:waiting', req('b')) // twice: shown once
  expect(s.waiting.map((w) => w.id)).toEqual(['a', 'b'])
  f.emit('approval:closed', { id: 'a', library: 'demo' })
  expect(s.waiting.map((w) => w.id)).toEqual(['b'])
  await s.answer('b', true)
  expect(f.answers).toEqual(['b true'])
  expect(s.waiting).toEqual([])
  f.emit('approval:waiting', req('gone'))
  await s.answer('gone', false)
  expect(s.error).toMatch(/not waiting/)
  off()
  expect(f.handlers.size).toBe(0)
})
