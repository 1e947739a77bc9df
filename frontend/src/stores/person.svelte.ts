// The person's settings in the window: their look (theme and language), kept by the
// backend in their settings file with the window's defaults (backend/settings), shown
// at once when changed and saved. A copy is kept in the browser for the next first
// frame (lib/windowState.ts); the look an earlier version kept in the browser is
// moved to the person's settings once. Talks only to src/api.
import type { Api, LookSettings, PersonSettingsView } from '../api'
import { i18n } from '../lib/i18n.svelte'
import { appearance } from '../lib/theme.svelte'
import { browserStorage, cacheLook, forgetLegacyLook, legacyLook, type WindowStorage } from '../lib/windowState'

export class PersonStore {
  /** The person's settings as the backend keeps them; null until it answered. */
  view = $state.raw<PersonSettingsView | null>(null)
  /** What could not be read or saved. */
  error = $state<string | null>(null)
  private seq = 0

  constructor(
    private readonly api: Api,
    private readonly storage: WindowStorage | undefined = browserStorage(),
  ) {}

  /**
   * load reads the person's settings and shows the window in their look. A look an
   * earlier version kept in the browser, where the backend has none but its defaults,
   * is saved as the person's and removed from the browser.
   */
  async load(): Promise<void> {
    const seq = ++this.seq
    try {
      let v = await this.api.personSettings()
      const legacy = legacyLook(this.storage)
      if (legacy && sameLook(v.settings.look, v.defaults.look)) {
        v = await this.api.savePersonSettings({ ...v.settings, look: { ...v.settings.look, ...legacy } })
      }
      if (legacy) forgetLegacyLook(this.storage)
      if (seq !== this.seq) return
      this.show(v)
      this.error = null
    } catch (e) {
      if (seq === this.seq) this.error = e instanceof Error ? e.message : String(e)
    }
  }

  /** setLook shows the window in a look at once and saves it as the person's. */
  async setLook(patch: Partial<LookSettings>): Promise<void> {
    const v = this.view
    if (!v) {
      // The backend has not answered (or could not): this window shows it, unsaved.
      if (patch.language) i18n.choose(patch.language)
      if (patch.theme) appearance.choose(patch.theme)
      return
    }
    const next: PersonSettingsView = { ...v, settings: { ...v.settings, look: { ...v.settings.look, ...patch } } }
    this.show(next)
    const seq = ++this.seq
    try {
      const saved = await this.api.savePersonSettings(next.settings)
      if (seq !== this.seq) return
      this.show(saved)
      this.error = null
    } catch (e) {
      if (seq === this.seq) this.error = e instanceof Error ? e.message : String(e)
    }
  }

  private show(v: PersonSettingsView) {
    this.view = v
    i18n.choose(v.settings.look.language)
    appearance.choose(v.settings.look.theme)
    cacheLook(v.settings.look, this.storage)
  }
}

function sameLook(a: LookSettings, b: LookSettings): boolean {
  return a.theme === b.theme && a.language === b.language
}
