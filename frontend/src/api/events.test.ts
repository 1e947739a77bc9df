import { expect, test } from 'vitest'
import goSource from '../../../backend/event/event.go?raw'
import { TOPICS } from './events'

// The Go side declares every topic as a `Topic = "..."` constant in backend/event.
test('the topics match backend/event/event.go', () => {
  const goTopics = [...goSource.matchAll(/^\s*\w+\s+Topic\s*=\s*"([^"]+)"/gm)].map((m) => m[1])
  expect(goTopics.length).toBeGreaterThan(0)
  expect([...TOPICS].sort()).toEqual(goTopics.sort())
})
