import { expect, test, vi } from 'vitest'
import type { Api, GitApi, GitStatus } from '../api'
import type { EventPayloads } from '../api/events'
import { GitStore, pullNotice } from './git.svelte'
import { connectGitLive, GIT_LIVE_DEBOUNCE_MS } from './gitLive'

/** A hand-written fake of the git API over an in-memory list of pending changes. */
function fakeGit(st: GitStatus, o: { identity?: boolean } = {}) {
  const calls: string[] = []
  let identity = o.identity ?? true
  const git: GitApi = {
    status: async () => {
      calls.push('status')
      return structuredClone(st)
    },
    diff: async (_l, path, from) => {
      calls.push(`diff ${path} ${from}`)
      return { path, added: 1, deleted: 0, hunks: [] }
    },
    commit: async (_l, req) => {
      calls.push(`commit ${req.paths.join(',')} ${req.message} ${req.tag}`)
      if (!identity) return { hash: '', paths: [], trailers: {}, needs_identity: true, refused: 'no name and email for the commit', warnings: [] }
      const done = req.paths.length ? req.paths : st.change_sets.flatMap((s) => s.changes.map((c) => c.path))
      for (const s of st.change_sets) s.changes = s.changes.filter((c) => !done.includes(c.path))
      st.total = st.change_sets.reduce((n, s) => n + s.changes.length, 0)
      const left = req.paths.length ? [] : ['left out of the commit: a\\b.md holds a backslash']
      return { hash: 'abcdef0123456789', paths: done, trailers: {}, needs_identity: false, warnings: left }
    },
    setIdentity: async (_l, name, email) => {
      calls.push(`identity ${name} <${email}>`)
      identity = true
      return { name, email, missing: false }
    },
    discard: async (_l, paths) => {
      calls.push(`discard ${paths.join(',')}`)
      for (const s of st.change_sets) s.changes = s.changes.filter((c) => !paths.includes(c.path))
      return paths
    },
    undoHunks: async (_l, req) => ({ undone: [], stale: false, diff: { path: req.path, added: 0, deleted: 0, hunks: [] } }),
    blame: async (_l, path) => ({ path, lines: [], commits: {} }),
    commitDiff: async (_l, _rev, path) => ({ path, added: 0, deleted: 0, hunks: [] }),
    log: async (_l, path) => {
      calls.push(`log ${path}`)
      return []
    },
    show: async (_l, path, rev) => ({ path, rev, exists: true, content: 'old' }),
    restore: async () => true,
    init: async () => {
      throw new Error('already a repository')
    },
    push: async () => ({ remote: 'origin', branch: 'main', up_to_date: false }),
    pull: async () => {
      calls.push('pull')
      return { remote: 'origin', branch: 'main', outcome: 'fast_forward', head: 'h', updated: ['a.md', 'b.md'], conflicts: ['b.md'] }
    },
    settings: async () => ({ credentials: [], remotes: [], env_unbound: false, legacy_token: false, path: '' }),
    saveSettings: async () => ({ credentials: [], remotes: [], env_unbound: false, legacy_token: false, path: '' }),
    conflict: async () => {
      throw new Error('no conflict')
    },
    resolve: async () => {
      throw new Error('no conflict')
    },
    backup: async () => {
      throw new Error('no backup')
    },
    saveBackup: async () => {
      throw new Error('no backup')
    },
  }
  return { git, calls }
}

const status = (): GitStatus => ({
  library: 'demo',
  is_repo: true,
  branch: 'main',
  head: 'abc',
  total: 3,
  remotes: [{ name: 'origin', url: 'file:///r.git' }],
  merging: false,
  conflicts: [],
  operation: { kind: '', message: '' },
  change_sets: [
    { id: 'agent@t-1', actor: 'agent', turn: 't-1', latest: '2026-11-22T10:00:00Z', changes: [{ path: 'a.md', state: 'modified' }, { path: 'n.md', state: 'renamed', from: 'o.md' }] },
    { id: 'external', actor: 'external', latest: '0001-01-01T00:00:00Z', changes: [{ path: 'b.md', state: 'modified' }] },
  ],
})

function apiWith(git: GitApi) {
  const listeners = new Map<string, ((e: unknown) => void)[]>()
  const api = {
    git,
    on: (topic: string, cb: (e: unknown) => void) => {
      listeners.set(topic, [...(listeners.get(topic) ?? []), cb])
      return () => listeners.set(topic, (listeners.get(topic) ?? []).filter((l) => l !== cb))
    },
  } as unknown as Api
  const emit = <T extends keyof EventPayloads>(topic: T, e: EventPayloads[T]) => {
    for (const l of listeners.get(topic) ?? []) l(e)
  }
  return { api, emit }
}

test('refresh loads the change sets and the pending map; a commit sends the chosen paths', async () => {
  const { git, calls } = fakeGit(status())
  const store = new GitStore(apiWith(git).api)
  await store.refresh('demo')
  expect(store.status?.total).toBe(3)
  expect(store.pending.get('o.md')).toBe('renamed')
  store.toggle('a.md')
  store.toggle('gone.md')
  expect(await store.commit('Fix', 'v1')).toBe(true)
  expect(calls).toContain('commit a.md,gone.md Fix v1')
  expect(store.chosen.size).toBe(0)
  expect(store.notice).toBe('Committed 2 files as abcdef0, tagged v1.')
  expect(store.pending.has('a.md')).toBe(false)
})

test('a commit of every change shows what it left out', async () => {
  const { git } = fakeGit(status())
  const store = new GitStore(apiWith(git).api)
  await store.refresh('demo')
  expect(await store.commit('All', '')).toBe(true)
  expect(store.notice).toBe('Committed 3 files as abcdef0. left out of the commit: a\\b.md holds a backslash')
})

test('the chosen paths that lost their change are dropped on refresh; focus loads the diff', async () => {
  const st = status()
  const { git, calls } = fakeGit(st)
  const store = new GitStore(apiWith(git).api)
  await store.refresh('demo')
  store.choose(['a.md', 'b.md'])
  const renamed = st.change_sets[0]!.changes[1]!
  await store.focus(renamed)
  expect(calls).toContain('diff n.md o.md')
  expect(store.diff?.path).toBe('n.md')
  st.change_sets[1]!.changes = []
  await store.refresh()
  expect([...store.chosen]).toEqual(['a.md'])
  expect(await store.discard(['a.md'])).toBe(true)
  expect(store.chosen.size).toBe(0)
  expect(await store.init()).toBe(false)
  expect(store.error).toBe('already a repository')
})

test('vault and git events refresh the status once per burst, for the open library only', async () => {
  vi.useFakeTimers()
  const { git, calls } = fakeGit(status())
  const { api, emit } = apiWith(git)
  const store = new GitStore(api)
  await store.refresh('demo')
  calls.length = 0
  const off = connectGitLive(api, store)
  emit('vault:changed', { library: 'demo', paths: ['a.md'], rescan: false })
  emit('git:changed', { library: 'demo' })
  emit('git:changed', { library: 'other' })
  await vi.advanceTimersByTimeAsync(GIT_LIVE_DEBOUNCE_MS + 10)
  expect(calls.filter((c) => c === 'status')).toHaveLength(1)
  emit('git:changed', { library: 'other' })
  await vi.advanceTimersByTimeAsync(GIT_LIVE_DEBOUNCE_MS + 10)
  expect(calls.filter((c) => c === 'status')).toHaveLength(1)
  off()
  vi.useRealTimers()
})

test('a pull lists the files that kept both versions and says what it did', async () => {
  const { git } = fakeGit(status())
  const store = new GitStore(apiWith(git).api)
  await store.refresh('demo')
  expect(await store.pull()).toBe(true)
  expect(store.conflicts).toEqual(['b.md'])
  expect(store.notice).toBe("Pulled the remote's commits (2 files updated). 1 file keeps both versions between <<<<<<< and >>>>>>> markers.")
  expect(store.syncing).toBe('')
  expect(await store.push()).toBe(true)
  expect(store.notice).toBe('Pushed main to origin.')
  expect(pullNotice('up_to_date', 0, 0)).toBe('Already up to date.')
  expect(pullNotice('conflict', 1, 2)).toMatch(/^Merged with conflicts/)
})

test('a commit refused for want of an identity keeps the choice; saving one commits in the same step', async () => {
  const { git, calls } = fakeGit(status(), { identity: false })
  const store = new GitStore(apiWith(git).api)
  await store.refresh('demo')
  store.choose(['a.md'])
  expect(await store.commit('Fix A', '')).toBe(false)
  expect(store.needsIdentity).toContain('no name and email')
  expect(store.chosen.has('a.md')).toBe(true)
  expect(store.error).toBeNull()
  expect(await store.setIdentityAndCommit('Ada', 'ada@example.com', 'Fix A', '')).toBe(true)
  expect(calls.filter((c) => c.startsWith('commit') || c.startsWith('identity'))).toEqual(['commit a.md Fix A ', 'identity Ada <ada@example.com>', 'commit a.md Fix A '])
  expect(store.needsIdentity).toBe('')
  expect(store.chosen.size).toBe(0)
})
