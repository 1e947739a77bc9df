import { expect, test, vi } from 'vitest'
import goSource from '../../../backend/uiapi/git.go?raw'
import goSyncSource from '../../../backend/uiapi/gitsync.go?raw'
import goHunksSource from '../../../backend/uiapi/githunks.go?raw'
import goConflictSource from '../../../backend/uiapi/gitconflict.go?raw'
import goBackupSource from '../../../backend/uiapi/gitbackup.go?raw'
import { GIT_METHODS } from './git'
import { httpApi } from './http'

test('every git method is a method of backend/uiapi', () => {
  const goMethods = [...(goSource + goSyncSource + goHunksSource + goConflictSource + goBackupSource).matchAll(/^func \(a \*API\) (\w+)\(/gm)].map((m) => m[1])
  for (const name of Object.values(GIT_METHODS)) expect(goMethods).toContain(name)
})

test('git calls go to /api/call/Git<Method> with positional arguments', async () => {
  const fetch = vi.fn(async () => new Response('null', { status: 200 }))
  const store = new Map([['memotree.session', 's']])
  const api = httpApi('', {
    location: { href: 'http://127.0.0.1:9/' },
    history: { state: null, replaceState: () => {} },
    storage: { getItem: (k) => store.get(k) ?? null, setItem: () => {}, removeItem: () => {} },
    fetch: fetch as unknown as typeof globalThis.fetch,
  })
  await api.git.diff('demo', 'a.md', '')
  expect(fetch).toHaveBeenLastCalledWith('/api/call/GitDiff', expect.objectContaining({ body: '["demo","a.md",""]' }))
  await api.git.commit('demo', { paths: ['a.md'], message: 'm', tag: '' })
  expect(fetch).toHaveBeenLastCalledWith('/api/call/GitCommit', expect.objectContaining({ body: '["demo",{"paths":["a.md"],"message":"m","tag":""}]' }))
  // A Go nil slice comes as null: the api gives an empty list.
  await expect(api.git.log('demo', 'a.md', 20)).resolves.toEqual([])
  await expect(api.git.discard('demo', ['a.md'])).resolves.toEqual([])
})
