import { expect, test } from 'vitest'
import type { Api, LibraryInfo, VaultsView } from '../api'
import { VaultsStore } from './vaults.svelte'

/** A fake of the vault switcher's part of the backend. */
function fakeApi(over: Partial<Api> = {}) {
  const calls: string[] = []
  const view: VaultsView = { open: [], recent: [], obsidian: [], can_open: true, can_pick_folder: true, can_reveal: false, notices: [] }
  const info = (name: string): LibraryInfo => ({ name, path: `/v/${name}`, notes: 0, is_default: false })
  const api = {
    vaults: async () => {
      calls.push('vaults')
      return view
    },
    openVault: async (p: string) => {
      calls.push(`open ${p}`)
      if (p.startsWith('/missing')) throw new Error(`open vault ${p}: no such folder: check the path, or create the folder first`)
      return info(p.slice(p.lastIndexOf('/') + 1))
    },
    openDemoVault: async () => info('demo-vault'),
    pickFolder: async () => '',
    closeVault: async (name: string) => {
      calls.push(`close ${name}`)
    },
    forgetVault: async () => {},
    ...over,
  } as unknown as Api
  return { api, calls }
}

test('a path opens its vault; a refused one says why and opens nothing; an empty one asks nothing', async () => {
  const { api, calls } = fakeApi()
  const s = new VaultsStore(api)
  expect(await s.open('   ')).toBeNull()
  expect(calls).toEqual([])
  expect((await s.open(' /home/ada/Notes '))?.name).toBe('Notes')
  expect(s.error).toBe('')
  expect(await s.open('/missing')).toBeNull()
  expect(s.error).toMatch(/no such folder/)
  expect(s.busy).toBe(false)
  expect(calls.filter((c) => c.startsWith('open'))).toEqual(['open /home/ada/Notes', 'open /missing'])
})

test('the folder chooser: cancelled opens nothing, a choice opens it, a failure is shown', async () => {
  const cancelled = fakeApi()
  expect(await new VaultsStore(cancelled.api).pick()).toBeNull()
  expect(cancelled.calls.some((c) => c.startsWith('open'))).toBe(false)

  const chosen = fakeApi({ pickFolder: async () => '/home/ada/Work' })
  expect((await new VaultsStore(chosen.api).pick())?.name).toBe('Work')

  const none = fakeApi({ pickFolder: () => Promise.reject(new Error('no folder chooser here: type the path')) })
  const s = new VaultsStore(none.api)
  expect(await s.pick()).toBeNull()
  expect(s.error).toMatch(/type the path/)
})

test('closing a vault reloads the lists', async () => {
  const { api, calls } = fakeApi()
  const s = new VaultsStore(api)
  expect(await s.close('Notes')).toBe(true)
  await Promise.resolve()
  expect(calls).toEqual(['close Notes', 'vaults'])
})
