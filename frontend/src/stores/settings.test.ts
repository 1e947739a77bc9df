import { afterEach, expect, test, vi } from 'vitest'
import type { Api, PersonSettings, PersonSettingsView, VaultSettingsPatch, VaultSettingsView } from '../api'
import { i18n } from '../lib/i18n.svelte'
import { appearance } from '../lib/theme.svelte'
import { graphViewSettings, vaultSettingsView } from '../lib/testdata'
import { LEGACY_LOOK_KEYS, WINDOW_KEYS, type WindowStorage } from '../lib/windowState'
import { GraphStore } from './graph.svelte'
import { PersonStore } from './person.svelte'
import { SAVE_PAUSE_MS, VaultSettingsStore } from './vaultSettings.svelte'

/** The backend's side of the settings, in memory. */
class FakeSettings {
  vaults = new Map<string, VaultSettingsView>([['demo', vaultSettingsView('demo')], ['work', vaultSettingsView('work')]])
  saves: { library: string; patch: VaultSettingsPatch }[] = []
  refuse = ''
  person: PersonSettingsView = {
    settings: { look: { theme: 'auto', language: 'auto' } },
    defaults: { look: { theme: 'auto', language: 'auto' } },
    path: '/home/p/.config/memotree/settings.toml',
  }
  personSaves: PersonSettings[] = []

  api(): Api {
    return {
      vaultSettings: async (library: string) => structuredClone(this.vaults.get(library || 'demo')!),
      saveVaultSettings: async (library: string, patch: VaultSettingsPatch) => {
        if (this.refuse) throw new Error(this.refuse)
        this.saves.push({ library, patch: structuredClone(patch) })
        const v = this.vaults.get(library)!
        v.settings = { ...v.settings, ...structuredClone(patch) }
        // The backend bounds what it keeps.
        v.settings.graph = { ...v.settings.graph, node_size: Math.min(v.settings.graph.node_size, 5) }
        return structuredClone(v)
      },
      personSettings: async () => structuredClone(this.person),
      savePersonSettings: async (p: PersonSettings) => {
        this.personSaves.push(structuredClone(p))
        this.person = { ...this.person, settings: structuredClone(p) }
        return structuredClone(this.person)
      },
    } as unknown as Api
  }
}

afterEach(() => {
  vi.useRealTimers()
  i18n.choose('en')
  appearance.choose('auto')
})

test('a vault’s settings: loaded whole, changed at once, saved a section at a time once the changes pause', async () => {
  vi.useFakeTimers()
  const b = new FakeSettings()
  const s = new VaultSettingsStore(b.api())
  await s.load('')
  expect(s.library).toBe('demo')
  expect(s.settings?.canvas.budget).toBe(8000)
  const saved = s.update('graph', { show_tags: true })
  void s.update('graph', { node_size: 9 })
  expect(s.settings?.graph).toMatchObject({ show_tags: true, node_size: 9 })
  expect(b.saves).toEqual([])
  await vi.advanceTimersByTimeAsync(SAVE_PAUSE_MS)
  await saved
  expect(b.saves).toEqual([{ library: 'demo', patch: { graph: graphViewSettings({ show_tags: true, node_size: 9 }) } }])
  // What the backend kept (bounded) is shown.
  expect(s.settings?.graph.node_size).toBe(5)
  expect(s.settings?.canvas).toEqual(b.vaults.get('demo')!.settings.canvas)
})

test('another vault’s settings wait for the changes made to the first to be saved', async () => {
  vi.useFakeTimers()
  const b = new FakeSettings()
  const s = new VaultSettingsStore(b.api())
  await s.load('demo')
  void s.update('canvas', { auto_summary: true })
  await s.load('work')
  expect(b.saves).toEqual([{ library: 'demo', patch: { canvas: { budget: 8000, auto_summary: true } } }])
  expect(s.library).toBe('work')
  expect(s.settings?.canvas.auto_summary).toBe(false)
  await vi.advanceTimersByTimeAsync(SAVE_PAUSE_MS)
  expect(b.saves).toHaveLength(1)
})

test('a refused save says why and shows what the vault keeps', async () => {
  vi.useFakeTimers()
  const b = new FakeSettings()
  const s = new VaultSettingsStore(b.api())
  await s.load('demo')
  b.refuse = 'canvas budget 10: at least 500 tokens'
  const saved = s.update('canvas', { budget: 10 })
  expect(s.settings?.canvas.budget).toBe(10)
  await vi.advanceTimersByTimeAsync(SAVE_PAUSE_MS)
  await saved
  expect(s.error).toBe('canvas budget 10: at least 500 tokens')
  expect(s.settings?.canvas.budget).toBe(8000)
})

test('the graph’s settings are the vault’s: none until the backend answers', async () => {
  const b = new FakeSettings()
  const settings = new VaultSettingsStore(b.api())
  const graph = new GraphStore(b.api(), settings)
  expect(graph.view).toBeNull()
  await settings.load('demo')
  expect(graph.view).toEqual(graphViewSettings())
  graph.toggleGroup('tag:#x')
  expect(settings.settings?.graph.hidden_groups).toEqual(['tag:#x'])
  settings.clear()
  expect(graph.view).toBeNull()
})

function memory(entries: Record<string, string> = {}): WindowStorage & { m: Map<string, string> } {
  const m = new Map(Object.entries(entries))
  return { m, getItem: (k) => m.get(k) ?? null, setItem: (k, v) => void m.set(k, v), removeItem: (k) => void m.delete(k) }
}

test('the person’s look: shown from their settings, changed at once, saved, and copied for the next first frame', async () => {
  const b = new FakeSettings()
  b.person.settings.look = { theme: 'dark', language: 'zh' }
  const storage = memory()
  const p = new PersonStore(b.api(), storage)
  await p.load()
  expect([appearance.choice, i18n.choice]).toEqual(['dark', 'zh'])
  expect(JSON.parse(storage.m.get(WINDOW_KEYS.look)!)).toEqual({ theme: 'dark', language: 'zh' })
  await p.setLook({ language: 'en' })
  expect(i18n.choice).toBe('en')
  expect(b.personSaves).toEqual([{ look: { theme: 'dark', language: 'en' } }])
})

test('the look an earlier version kept in the browser moves to the person’s settings once', async () => {
  const b = new FakeSettings()
  const storage = memory({ [LEGACY_LOOK_KEYS.theme]: 'dark', [LEGACY_LOOK_KEYS.language]: 'zh' })
  await new PersonStore(b.api(), storage).load()
  expect(b.personSaves).toEqual([{ look: { theme: 'dark', language: 'zh' } }])
  expect([appearance.choice, i18n.choice]).toEqual(['dark', 'zh'])
  expect(storage.m.has(LEGACY_LOOK_KEYS.theme) || storage.m.has(LEGACY_LOOK_KEYS.language)).toBe(false)
  // A person who set a look since (in another window) keeps it: the old keys go.
  const later = memory({ [LEGACY_LOOK_KEYS.theme]: 'light' })
  await new PersonStore(b.api(), later).load()
  expect(b.personSaves).toHaveLength(1)
  expect(appearance.choice).toBe('dark')
  expect(later.m.has(LEGACY_LOOK_KEYS.theme)).toBe(false)
})
