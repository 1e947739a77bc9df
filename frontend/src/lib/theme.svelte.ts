// The window's look: light or dark, following the system unless the person picked one
// in the settings (the person's settings, kept by the backend: see
// stores/person.svelte.ts, which sets `choice`; until the backend answers, the copy of
// lib/windowState.ts). bindDocument writes the choice, and the language, onto <html>
// (data-theme, lang); style.css reads data-theme.
import { i18n, langTag } from './i18n.svelte'
import { cachedLook } from './windowState'

export type Theme = 'light' | 'dark'
export type ThemeChoice = Theme | 'auto'

/** The window event sent after data-theme changed, so canvases can re-read their colours. */
export const THEME_EVENT = 'memotree:themechange'

/** resolveTheme is the theme a choice gives on a system that is (or is not) dark. */
export function resolveTheme(choice: ThemeChoice, systemDark: boolean): Theme {
  if (choice === 'auto') return systemDark ? 'dark' : 'light'
  return choice
}

/** parseThemeChoice reads a stored choice; anything unknown follows the system. */
export function parseThemeChoice(v: string | null | undefined): ThemeChoice {
  return v === 'light' || v === 'dark' ? v : 'auto'
}

class Appearance {
  /** The person's choice ('auto' follows the system, as the window does until it knows). */
  choice = $state<ThemeChoice>(parseThemeChoice(cachedLook().theme))
  /** Whether the system asks for dark (kept up to date by bindDocument). */
  systemDark = $state(false)
  theme = $derived<Theme>(resolveTheme(this.choice, this.systemDark))

  /** choose shows the window in a theme ('auto' follows the system); PersonStore saves it. */
  choose(c: ThemeChoice) {
    this.choice = c
  }
}

export const appearance = new Appearance()

/** The parts of document and window bindDocument uses (tests pass small fakes). */
export interface DocumentLike {
  documentElement: { lang: string; dataset: DOMStringMap }
}
export interface WindowLike {
  matchMedia?: (q: string) => Pick<MediaQueryList, 'matches' | 'addEventListener' | 'removeEventListener'>
  dispatchEvent: (e: Event) => boolean
}

/**
 * bindDocument keeps <html lang> and data-theme in step with the language and theme,
 * follows the system's dark mode, and sends THEME_EVENT on the window after each
 * change of data-theme. It returns a function that stops all that.
 */
export function bindDocument(doc: DocumentLike = document, win: WindowLike = window): () => void {
  const mq = win.matchMedia?.('(prefers-color-scheme: dark)')
  appearance.systemDark = mq?.matches ?? false
  const onSystem = (e: MediaQueryListEvent) => {
    appearance.systemDark = e.matches
  }
  mq?.addEventListener('change', onSystem)
  const stop = $effect.root(() => {
    $effect(() => {
      doc.documentElement.lang = langTag(i18n.locale)
    })
    $effect(() => {
      const theme = appearance.theme
      const root = doc.documentElement
      if (root.dataset.theme === theme) return
      root.dataset.theme = theme
      win.dispatchEvent(new CustomEvent(THEME_EVENT, { detail: theme }))
    })
  })
  return () => {
    mq?.removeEventListener('change', onSystem)
    stop()
  }
}
