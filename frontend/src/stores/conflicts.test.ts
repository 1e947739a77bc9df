import { expect, test } from 'vitest'
import type { Api, BackupSettings, ConflictDetail, ConflictSummary, GitBackup, GitResolveRequest } from '../api'
import { BackupStore, ConflictStore } from './conflicts.svelte'

const settings: BackupSettings = { pull_on_open: true, push_on_commit: false, interval_minutes: 0, commit_own: false, message_template: 'vault backup: {{date}}' }
const zero = '0001-01-01T00:00:00Z'

/** A fake of the conflicts and backups part of the backend: two conflicted notes. */
function fakeApi() {
  const calls: string[] = []
  const files: Record<string, ConflictDetail> = {}
  for (const p of ['a.md', 'b.md']) {
    files[p] = {
      path: p,
      kind: 'content',
      base: { exists: true, text: 'x\n' },
      ours: { exists: true, text: 'ours\n' },
      theirs: { exists: true, text: 'theirs\n' },
      working: { exists: true, text: '<<<<<<< ours\nours\n=======\ntheirs\n>>>>>>> theirs\n' },
      working_hash: `h-${p}`,
      hunks: [{ number: 1, line: 1, ours: 'ours\n', base: 'x\n', base_known: true, theirs: 'theirs\n', ours_label: 'ours', theirs_label: 'theirs' }],
    }
  }
  let saved = settings
  const view = (): GitBackup => ({
    library: 'demo',
    remote: 'origin',
    settings: saved,
    state: { settings: saved, running: '', last_sync: zero, error: '', failures: 0, retry_at: zero, waiting: '', divergence: { tracked: true, ahead: 1, behind: 0 }, committed: 0 },
    serving: true,
    warnings: [],
  })
  const git = {
    conflict: async (_l: string, path: string) => {
      calls.push(`conflict ${path}`)
      const d = files[path]
      if (!d) throw new Error(`${path}: no conflict`)
      return structuredClone(d)
    },
    resolve: async (_l: string, req: GitResolveRequest) => {
      calls.push(`resolve ${req.path} ${req.take} [${req.hunks.join(',')}] ${req.if_hash}${req.content !== undefined ? ' by hand' : ''}`)
      delete files[req.path]
      return { path: req.path, resolved: true, remaining: 0, written: true }
    },
    backup: async () => view(),
    saveBackup: async (_l: string, s: BackupSettings) => {
      calls.push(`save ${s.interval_minutes}`)
      saved = s
      return view()
    },
  }
  return { api: { git } as unknown as Api, calls }
}

const list = (...paths: string[]): ConflictSummary[] => paths.map((path) => ({ path, kind: 'content', hunks: 1 }))

test('the first conflict opens; a resolution sends the hash shown and closes it on the next status', async () => {
  const { api, calls } = fakeApi()
  const c = new ConflictStore(api)
  await c.sync('demo', list('a.md', 'b.md'), { kind: 'merge', message: 'a merge is in progress' })
  expect(c.shown).toBe('a.md')
  expect(c.detail?.hunks).toHaveLength(1)
  expect(await c.resolve('theirs', [1])).toBe(true)
  expect(c.notice).toBe('a.md is resolved.')
  await c.sync('demo', list('b.md'), { kind: 'merge', message: 'a merge is in progress' })
  expect(c.shown).toBe('b.md')
  expect(await c.saveByHand('both\n')).toBe(true)
  expect(c.notice).toBe('Every conflict is resolved: commit to complete the merge.')
  await c.sync('demo', [], { kind: 'merge', message: 'a merge is in progress' })
  expect(c.shown).toBe(null)
  expect(c.detail).toBe(null)
  expect(calls).toEqual(['conflict a.md', 'resolve a.md theirs [1] h-a.md', 'conflict a.md', 'conflict b.md', 'resolve b.md  [] h-b.md by hand', 'conflict b.md'])
})

test('the backup is read and saved for the open library', async () => {
  const { api, calls } = fakeApi()
  const b = new BackupStore(api)
  await b.load('demo')
  expect(b.view?.state.divergence.ahead).toBe(1)
  expect(await b.save({ ...settings, interval_minutes: 15 })).toBe(true)
  expect(b.view?.settings.interval_minutes).toBe(15)
  expect(b.notice).toBe('Backup settings saved.')
  expect(calls).toEqual(['save 15'])
})
