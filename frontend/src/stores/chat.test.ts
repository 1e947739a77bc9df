import { expect, test, vi } from 'vitest'
import type { Api } from '../api'
import type { EventPayloads, Topic } from '../api/events'
import type { ChatLiveView, ChatSessionView } from '../api/types'
import { waitFor } from '../lib/testing'
import { ChatStore } from './chat.svelte'

type Listener = (e: unknown) => void

/** A fake backend whose model answers at once: every event of the turn is published
 * before chatSend resolves, as with a fast local model. */
function fakeApi(session: ChatSessionView) {
  const listeners = new Map<Topic, Set<Listener>>()
  const emit = <T extends Topic>(topic: T, e: EventPayloads[T]) => {
    for (const l of listeners.get(topic) ?? []) l(e)
  }
  const approvals: [string, boolean][] = []
  let live: ChatLiveView = { session: '', turn: '', prompt: '', started: '', events: [] }
  const api = {
    on<T extends Topic>(topic: T, cb: (e: EventPayloads[T]) => void) {
      let set = listeners.get(topic)
      if (!set) listeners.set(topic, (set = new Set()))
      set.add(cb as Listener)
      return () => set.delete(cb as Listener)
    },
    async chatSend() {
      const ids = { session: session.id, turn: 't-1' }
      emit('chat:delta', { ...ids, seq: 1, text: 'Hi' })
      emit('chat:tool', { ...ids, id: 'c1', name: 'create_entity', args: '{}', phase: 'start', status: '', message: '', result: '' })
      emit('chat:approval', { ...ids, id: 'a1', call_id: 'c2', from: 'agent', library: 'demo', name: 'delete_entities', args: '{}' })
      return ids
    },
    async chatSession() {
      return session
    },
    chatLive: async () => live,
    async chatSessions() {
      return []
    },
    async chatApprove(id: string, yes: boolean) {
      approvals.push([id, yes])
    },
  } as unknown as Api
  return { api, emit, approvals, setLive: (v: ChatLiveView) => (live = v) }
}

test('events that beat chatSend are replayed, and the end shows the saved session', async () => {
  const saved: ChatSessionView = {
    id: 's-1',
    title: 'go',
    created: '',
    updated: '',
    running: '',
    messages: [
      { time: '2026-11-22T09:30:00Z', role: 'user', content: 'go' },
      { time: '2026-11-22T09:30:01Z', role: 'assistant', content: 'Hi there' },
    ],
  }
  const { api, emit, approvals } = fakeApi(saved)
  const chat = new ChatStore(api)
  const off = chat.connect()
  expect(await chat.send('go', 'demo', '')).toBe(true)
  expect(chat.busy).toBe(true)
  expect(chat.items.map((i) => i.kind)).toEqual(['user', 'assistant', 'tool', 'approval'])
  await chat.answer('a1', true)
  expect(approvals).toEqual([['a1', true]])
  expect(chat.items.some((i) => i.kind === 'approval')).toBe(false)
  emit('chat:done', { session: 's-1', turn: 't-1', answer: 'Hi there', error: '', stopped: false })
  await waitFor(() => expect(chat.busy).toBe(false))
  expect(chat.items.map((i) => (i.kind === 'assistant' || i.kind === 'user' ? i.text : i.kind))).toEqual(['go', 'Hi there'])
  off()
})

test('a stopped turn leaves its message', async () => {
  const { api, emit } = fakeApi({ id: 's-1', title: '', created: '', updated: '', running: '', messages: [] })
  const chat = new ChatStore(api)
  chat.connect()
  await chat.send('go', '', '')
  emit('chat:done', { session: 's-1', turn: 't-1', answer: '', error: 'Stopped. The conversation is saved as it is.', stopped: true })
  await waitFor(() => expect(chat.busy).toBe(false))
  expect(chat.notice).toContain('Stopped')
})

test('a reloaded window attaches to the running turn: replayed events, then live ones without repeats', async () => {
  const saved: ChatSessionView = { id: 's-2', title: 'old', created: '', updated: '', running: 't-9', messages: [
    { time: '2026-11-22T09:00:00Z', role: 'user', content: 'earlier' },
    { time: '2026-11-22T09:00:01Z', role: 'assistant', content: 'earlier answer' },
  ] }
  const { api, emit, setLive } = fakeApi(saved)
  const ids = { session: 's-2', turn: 't-9' }
  setLive({ ...ids, prompt: 'rename the types', started: '2026-11-22T09:31:00Z', events: [
    { topic: 'chat:delta', data: { ...ids, seq: 2, text: 'Looking at the notes.' } },
    { topic: 'chat:tool', data: { ...ids, id: 'c1', name: 'search_nodes', args: '{}', phase: 'end', status: 'success', message: 'ok', result: '' } },
    { topic: 'chat:approval', data: { ...ids, id: 'a1', call_id: '', from: 'agent', library: 'demo', name: 'delete_entities', args: '{}' } },
  ] })
  const chat = new ChatStore(api)
  const off = chat.connect()
  // Published before the attach finished, and already in the replay: shown once.
  emit('chat:delta', { ...ids, seq: 2, text: 'Looking at the notes.' })
  emit('chat:approval', { ...ids, id: 'a1', call_id: '', from: 'agent', library: 'demo', name: 'delete_entities', args: '{}' })
  await waitFor(() => expect(chat.busy).toBe(true))
  emit('chat:delta', { ...ids, seq: 3, text: ' Now deleting.' })
  expect(chat.session).toBe('s-2')
  const kinds = chat.items.map((it) => it.kind)
  expect(kinds).toEqual(['user', 'assistant', 'user', 'assistant', 'tool', 'approval', 'assistant'])
  const texts = chat.items.filter((it) => it.kind === 'assistant').map((it) => (it as { text: string }).text)
  expect(texts).toEqual(['earlier answer', 'Looking at the notes.', ' Now deleting.'])
  off()
})
