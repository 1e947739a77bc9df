// What the window keeps in the browser (localStorage). The only module that touches
// localStorage: a setting of the person or of a vault is the backend's (see
// backend/settings), and what is kept here belongs to this window alone — its
// panels' sizes and which are open (stores/layout.svelte.ts) — or is a copy of the
// person's look (their theme and language, kept by the backend) that paints the first
// frame before the backend answers. A storage that refuses (private mode, a full
// quota) is no error: the state then lasts as long as the window.
import type { LookSettings } from '../api/types'

/** The part of the Storage interface the window uses (tests pass a Map-backed one). */
export interface WindowStorage {
  getItem(key: string): string | null
  setItem(key: string, value: string): void
  removeItem(key: string): void
}

/** The keys the window keeps, each once. */
export const WINDOW_KEYS = {
  /** The panels' sizes and which are open (lib/layout.ts). */
  layout: 'memotree.layout',
  /** A copy of the person's look, for the first frame. */
  look: 'memotree.look',
} as const

/**
 * Where versions before the person's settings kept the look: read as the first
 * frame's look, moved to the person's settings once the backend answers (see
 * PersonStore), then removed.
 */
export const LEGACY_LOOK_KEYS = { theme: 'memotree.theme', language: 'memotree.locale' } as const

/** browserStorage is the page's localStorage, or undefined where it is refused. */
export function browserStorage(): WindowStorage | undefined {
  try {
    return globalThis.localStorage ?? undefined
  } catch {
    return undefined
  }
}

/** readItem returns what is kept under key, or null (nothing, or storage refused). */
export function readItem(key: string, storage: WindowStorage | undefined = browserStorage()): string | null {
  try {
    return storage?.getItem(key) ?? null
  } catch {
    return null
  }
}

/** writeItem keeps value under key; null removes it. */
export function writeItem(key: string, value: string | null, storage: WindowStorage | undefined = browserStorage()): void {
  try {
    if (value === null) storage?.removeItem(key)
    else storage?.setItem(key, value)
  } catch {
    // Refused (private mode, quota): kept for this window only.
  }
}

const THEMES: readonly string[] = ['auto', 'light', 'dark'] satisfies LookSettings['theme'][]
const LANGUAGES: readonly string[] = ['auto', 'en', 'zh'] satisfies LookSettings['language'][]

/** parseLook keeps the fields of a stored look that are choices the window knows. */
export function parseLook(raw: unknown): Partial<LookSettings> {
  const out: Partial<LookSettings> = {}
  if (!raw || typeof raw !== 'object') return out
  const r = raw as Record<string, unknown>
  if (typeof r.theme === 'string' && THEMES.includes(r.theme)) out.theme = r.theme as LookSettings['theme']
  if (typeof r.language === 'string' && LANGUAGES.includes(r.language)) out.language = r.language as LookSettings['language']
  return out
}

/** legacyLook is the look an earlier version kept in the browser (null: none). */
export function legacyLook(storage: WindowStorage | undefined = browserStorage()): Partial<LookSettings> | null {
  const look = parseLook({ theme: readItem(LEGACY_LOOK_KEYS.theme, storage), language: readItem(LEGACY_LOOK_KEYS.language, storage) })
  return look.theme || look.language ? look : null
}

/** forgetLegacyLook removes the earlier versions' keys, once their look has moved. */
export function forgetLegacyLook(storage: WindowStorage | undefined = browserStorage()): void {
  writeItem(LEGACY_LOOK_KEYS.theme, null, storage)
  writeItem(LEGACY_LOOK_KEYS.language, null, storage)
}

/**
 * cachedLook is the look to paint the first frame with: the copy of the person's
 * settings, else an earlier version's choice, field by field; a field neither has is
 * left out (the window then follows the system until the backend answers).
 */
export function cachedLook(storage: WindowStorage | undefined = browserStorage()): Partial<LookSettings> {
  let copy: Partial<LookSettings> = {}
  try {
    copy = parseLook(JSON.parse(readItem(WINDOW_KEYS.look, storage) ?? 'null'))
  } catch {
    // A damaged copy: the legacy keys, else the system.
  }
  return { ...(legacyLook(storage) ?? {}), ...copy }
}

/** cacheLook keeps a copy of the person's look for the next first frame. */
export function cacheLook(look: LookSettings, storage: WindowStorage | undefined = browserStorage()): void {
  writeItem(WINDOW_KEYS.look, JSON.stringify({ theme: look.theme, language: look.language }), storage)
}
