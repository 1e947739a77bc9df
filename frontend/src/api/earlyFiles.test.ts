import { expect, test, vi } from 'vitest'
import type { Api } from './api'
import { withEarlyFiles } from './index'
import type { FileEntry } from './types'

const entry = (path: string): FileEntry => ({ path, is_note: true })

test('withEarlyFiles asks at once and gives that answer to the first call for the default library only', async () => {
  const filesFn = vi.fn(async (library: string) => [entry(`${library || 'default'}.md`)])
  const api = withEarlyFiles({ files: filesFn } as unknown as Api)
  // Asked before anyone calls: the window is not built yet.
  expect(filesFn).toHaveBeenCalledTimes(1)
  expect(filesFn).toHaveBeenLastCalledWith('')
  expect((await api.files('')).map((e) => e.path)).toEqual(['default.md'])
  expect(filesFn).toHaveBeenCalledTimes(1)
  // Later calls (a rescan, a library switched to and back) ask again.
  expect((await api.files('')).map((e) => e.path)).toEqual(['default.md'])
  expect(filesFn).toHaveBeenCalledTimes(2)
  expect((await api.files('other')).map((e) => e.path)).toEqual(['other.md'])
  expect(filesFn).toHaveBeenCalledTimes(3)
})

test('withEarlyFiles leaves a failed early answer to the first caller, and asks again after it', async () => {
  let fail = true
  const api = withEarlyFiles({
    files: async () => {
      if (fail) throw new Error('no library is open')
      return [entry('a.md')]
    },
  } as unknown as Api)
  await expect(api.files('')).rejects.toThrow('no library is open')
  fail = false
  expect((await api.files('')).map((e) => e.path)).toEqual(['a.md'])
})
