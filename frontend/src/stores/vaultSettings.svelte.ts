// The open vault's settings in the window: every section (the graph's, the canvas's,
// the backup's) as the backend serves them, whole, its defaults filled in there
// (backend/settings: the window holds no default of its own). A change shows at once
// and is saved, its section whole, once changes to it pause. Talks only to src/api.
import type { Api, VaultSettings, VaultSettingsView } from '../api'
import { debounce, type Debounced } from '../lib/debounce'

/** How long changes to a section (a slider dragged) pause before it is saved. */
export const SAVE_PAUSE_MS = 400

type Section = keyof VaultSettings

/** A section's save, waiting for its changes to pause. */
interface Pending {
  run: Debounced<[]>
  /** Who waits for the save (update's promises). */
  waiting: (() => void)[]
  /** How many changes were made, to tell a save's answer from a newer change. */
  changes: number
}

export class VaultSettingsStore {
  /** The vault's settings; null until the backend has answered. */
  view = $state.raw<VaultSettingsView | null>(null)
  /** What could not be read, and why (each ignored: its defaults are shown). */
  warnings = $state.raw<string[]>([])
  /** Why the last save failed (null once one succeeds): what is kept is shown again. */
  error = $state<string | null>(null)
  private seq = 0
  /** Per section: the save waiting for changes to pause, and who waits for it. */
  private saves = new Map<Section, Pending>()

  constructor(private readonly api: Api) {}

  /** The library the settings are of ("" until known). */
  get library(): string {
    return this.view?.library ?? ''
  }

  /** The settings (null until loaded). */
  get settings(): VaultSettings | null {
    return this.view?.settings ?? null
  }

  /** load reads a library's settings ("" for the default library); a newer call wins. */
  async load(library: string): Promise<void> {
    const seq = ++this.seq
    this.flush()
    try {
      const v = await this.api.vaultSettings(library)
      if (seq !== this.seq) return
      this.view = v
      this.warnings = v.warnings
    } catch (e) {
      if (seq === this.seq) this.error = e instanceof Error ? e.message : String(e)
    }
  }

  /** clear forgets the settings shown (no library is open). */
  clear() {
    this.seq++
    this.flush()
    this.view = null
    this.warnings = []
    this.error = null
  }

  /** flush saves at once the changes still waiting to pause (before another vault's are shown). */
  private flush() {
    for (const [section, s] of this.saves) {
      if (s.waiting.length === 0) continue
      s.run.cancel()
      void this.save(section, s)
    }
  }

  /**
   * update changes a section at once and saves it once changes to it pause; the
   * promise settles when it is saved (or could not be: see error).
   */
  update<S extends Section>(section: S, patch: Partial<VaultSettings[S]>): Promise<void> {
    const v = this.view
    if (!v) return Promise.resolve()
    this.view = { ...v, settings: { ...v.settings, [section]: { ...v.settings[section], ...patch } } }
    let s = this.saves.get(section)
    if (!s) {
      const entry: Pending = { run: debounce(() => void this.save(section, entry), SAVE_PAUSE_MS), waiting: [], changes: 0 }
      s = entry
      this.saves.set(section, s)
    }
    s.changes++
    const saved = new Promise<void>((resolve) => s.waiting.push(resolve))
    s.run()
    return saved
  }

  private async save(section: Section, s: Pending) {
    const v = this.view
    const waiting = s.waiting.splice(0)
    const changes = s.changes
    if (!v) return waiting.forEach((w) => w())
    try {
      const saved = await this.api.saveVaultSettings(v.library, { [section]: v.settings[section] })
      // The backend bounds what it keeps (a number out of range, a colour it cannot
      // read): shown unless the section was changed again meanwhile.
      const now = this.view
      if (now?.library !== saved.library) return
      if (s.changes === changes && JSON.stringify(now.settings[section]) !== JSON.stringify(saved.settings[section])) {
        this.view = { ...now, settings: { ...now.settings, [section]: saved.settings[section] } }
      }
      this.warnings = saved.warnings
      this.error = null
    } catch (e) {
      this.error = e instanceof Error ? e.message : String(e)
      // Refused (a budget too small) or not written: show what the vault keeps.
      if (this.view?.library === v.library) await this.load(v.library)
    } finally {
      waiting.forEach((w) => w())
    }
  }
}
