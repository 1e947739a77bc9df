// The vaults store: what the welcome and the vault switcher show (the open vaults,
// the recent ones, Obsidian's), and opening and closing vaults. Talks only to src/api.
import type { Api, LibraryInfo, VaultsView } from '../api'

export class VaultsStore {
  view = $state.raw<VaultsView | null>(null)
  /** What went wrong with the last open or close, '' when nothing did. */
  error = $state('')
  busy = $state(false)
  private seq = 0

  constructor(private readonly api: Api) {}

  /** load refetches the lists. */
  async load(): Promise<void> {
    const seq = ++this.seq
    try {
      const v = await this.api.vaults()
      if (seq === this.seq) this.view = v
    } catch (e) {
      if (seq === this.seq) this.error = message(e)
    }
  }

  /** open opens the folder at path as a vault; null (and error set) when refused. */
  open(path: string): Promise<LibraryInfo | null> {
    const p = path.trim()
    if (!p) {
      this.error = ''
      return Promise.resolve(null)
    }
    return this.run(() => this.api.openVault(p))
  }

  /** openDemo opens the demo vault. */
  openDemo(): Promise<LibraryInfo | null> {
    return this.run(() => this.api.openDemoVault())
  }

  /** pick shows the system's folder chooser and opens the folder chosen. */
  async pick(): Promise<LibraryInfo | null> {
    let dir = ''
    try {
      dir = await this.api.pickFolder()
    } catch (e) {
      this.error = message(e)
      return null
    }
    return dir ? this.open(dir) : null
  }

  /** close closes the library named name. */
  async close(name: string): Promise<boolean> {
    return (await this.run(async () => {
      await this.api.closeVault(name)
      return { name, path: '', notes: 0, is_default: false }
    })) !== null
  }

  /** forget removes a folder from the recent vaults. */
  async forget(path: string): Promise<void> {
    await this.run(async () => {
      await this.api.forgetVault(path)
      return { name: '', path, notes: 0, is_default: false }
    })
  }

  private async run(fn: () => Promise<LibraryInfo>): Promise<LibraryInfo | null> {
    this.busy = true
    this.error = ''
    try {
      const li = await fn()
      void this.load()
      return li
    } catch (e) {
      this.error = message(e)
      return null
    } finally {
      this.busy = false
    }
  }
}

function message(e: unknown): string {
  return e instanceof Error ? e.message : String(e)
}
