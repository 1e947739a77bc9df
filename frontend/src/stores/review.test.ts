import { expect, test } from 'vitest'
import type { Api, ChangeSet, FileDiff, GitApi, GitHunkUndo, GitStatus, Hunk } from '../api'
import { GitStore } from './git.svelte'
import { ReviewStore } from './review.svelte'

const hunk = (number: number, text: string): Hunk => ({
  number,
  old_start: number * 10,
  old_lines: 1,
  new_start: number * 10,
  new_lines: 1,
  lines: [
    { kind: 'del', old: number * 10, text: `old ${text}` },
    { kind: 'add', new: number * 10, text: `new ${text}` },
  ],
})

const agentSet: ChangeSet = { id: 'agent@t1', actor: 'agent', turn: 't1', session: 's1', latest: '2026-11-22T10:00:00Z', changes: [{ path: 'a.md', state: 'modified' }] }

/** A fake git API over one note with three hunks, and the messages told to chats. */
function fake() {
  let hunks = [hunk(1, 'a'), hunk(2, 'b'), hunk(3, 'c')]
  let base = 'v1'
  const undos: GitHunkUndo[] = []
  const diff = (): FileDiff => ({ path: 'a.md', added: hunks.length, deleted: hunks.length, hunks, base, hunk_undo: true })
  const st: GitStatus = { library: 'demo', is_repo: true, branch: 'main', head: 'h', total: 1, remotes: [], merging: false, change_sets: [agentSet], conflicts: [], operation: { kind: '', message: '' } }
  const git = {
    status: async () => structuredClone(st),
    diff: async () => diff(),
    log: async () => [],
    discard: async (_l: string, paths: string[]) => paths,
    undoHunks: async (_l: string, req: GitHunkUndo) => {
      undos.push(req)
      if (req.base !== base) return { undone: [], stale: true, diff: diff() }
      const undone = hunks.filter((h) => req.hunks.includes(h.number))
      hunks = hunks.filter((h) => !req.hunks.includes(h.number)).map((h, i) => ({ ...h, number: i + 1 }))
      base = `v${undos.length + 1}`
      return { undone, stale: false, diff: diff() }
    },
  } as unknown as GitApi
  const api = { git, on: () => () => {} } as unknown as Api
  const told: [string, string][] = []
  const store = new GitStore(api)
  const review = new ReviewStore(api, store, async (s, m) => {
    told.push([s, m])
    return true
  })
  return { store, review, undos, told, saveElsewhere: () => (base = 'saved') }
}

test('Keep folds a hunk as reviewed; all kept makes the change reviewed, even after an undo renumbers them', async () => {
  const { store, review } = fake()
  await store.refresh('demo')
  await store.focus(agentSet.changes[0]!)
  const d = store.diff!
  review.keep(d, d.hunks[0]!)
  expect(review.isKept('a.md', d.hunks[0]!)).toBe(true)
  expect(review.reviewed(d)).toBe(false)
  await review.undoHunk(d, d.hunks[1]!)
  const after = store.diff!
  expect(after.hunks.map((h) => h.number)).toEqual([1, 2])
  expect(review.isKept('a.md', after.hunks[0]!)).toBe(true)
  review.keep(after, after.hunks[1]!)
  expect(review.reviewed(after)).toBe(true)
  expect(review.reviewedPath('a.md')).toBe(true)
  review.keep(after, after.hunks[1]!)
  expect(review.reviewedPath('a.md')).toBe(false)
})

test('Undo sends the base of the diff shown and offers to tell the chat, with the hunk quoted', async () => {
  const { store, review, undos, told } = fake()
  await store.refresh('demo')
  await store.focus(agentSet.changes[0]!)
  await review.undoHunk(store.diff!, store.diff!.hunks[1]!)
  expect(undos).toEqual([{ path: 'a.md', from: '', hunks: [2], base: 'v1' }])
  expect(store.notice).toBe('Undid change 2 of a.md; the rest stays pending.')
  expect(review.feedback?.session).toBe('s1')
  expect(await review.sendFeedback('  ')).toBe(false)
  expect(await review.sendFeedback('b was right')).toBe(true)
  expect(told).toHaveLength(1)
  expect(told[0]![0]).toBe('s1')
  expect(told[0]![1]).toContain('-old b\n+new b')
  expect(told[0]![1]).toContain('Why: b was right')
  expect(review.feedback).toBe(null)
})

test('a note saved since its diff is shown again, nothing undone, no feedback offered', async () => {
  const { store, review, saveElsewhere } = fake()
  await store.refresh('demo')
  await store.focus(agentSet.changes[0]!)
  const shown = store.diff!
  saveElsewhere()
  await review.undoHunk(shown, shown.hunks[0]!)
  expect(store.notice).toBe('a.md changed since its diff was shown: nothing was undone. Here is its diff now.')
  expect(store.diff?.base).toBe('saved')
  expect(store.diff?.hunks).toHaveLength(3)
  expect(review.feedback).toBe(null)
})
