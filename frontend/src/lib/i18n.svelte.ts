// The window's language: English or Simplified Chinese, following the system's
// locale unless the person picked one in the settings (the person's settings, kept by
// the backend: see stores/person.svelte.ts, which sets `choice`). Until the backend
// answers, the copy the window keeps of the person's look (lib/windowState.ts) is
// used. t(key) reads the current locale, so a template that calls it redraws on a
// switch.
import { en } from './messages/en'
import { zh } from './messages/zh'
import { cachedLook } from './windowState'

export type Locale = 'en' | 'zh'
export type LocaleChoice = Locale | 'auto'
export type MessageKey = keyof typeof en
/** A message with a singular and a plural form: keys `${base}.one` and `${base}.other`. */
export type PluralKey = { [K in MessageKey]: K extends `${infer B}.one` ? B : never }[MessageKey]

const catalogues: Record<Locale, Record<MessageKey, string>> = { en, zh }

/** systemLocale maps a BCP 47 tag (navigator.language) to a supported locale. */
export function systemLocale(tag: string | undefined): Locale {
  return tag?.toLowerCase().startsWith('zh') ? 'zh' : 'en'
}

class I18n {
  /** The person's choice ('auto' follows the system, as the window does until it knows). */
  choice = $state<LocaleChoice>(cachedLook().language ?? 'auto')
  locale = $derived<Locale>(this.choice === 'auto' ? systemLocale(globalThis.navigator?.language) : this.choice)

  /** choose shows the window in a language ('auto' follows the system); PersonStore saves it. */
  choose(c: LocaleChoice) {
    this.choice = c
  }
}

export const i18n = new I18n()

/** format fills {name} parameters in a message; unknown ones stay as written. */
export function format(msg: string, params?: Record<string, string | number>): string {
  if (!params) return msg
  return msg.replace(/\{(\w+)\}/g, (m, k: string) => (k in params ? String(params[k]) : m))
}

/** t returns the message for key in the current language. */
export function t(key: MessageKey, params?: Record<string, string | number>): string {
  return format(catalogues[i18n.locale][key] ?? en[key], params)
}

/** translate is t for a given locale (tests, and text rendered outside the window's locale). */
export function translate(locale: Locale, key: MessageKey, params?: Record<string, string | number>): string {
  return format(catalogues[locale][key] ?? en[key], params)
}

/** tn picks the singular or plural form of a message for n (also passed as {n}). */
export function tn(base: PluralKey, n: number, params?: Record<string, string | number>): string {
  const key = `${base}.${n === 1 ? 'one' : 'other'}` as MessageKey
  return t(key, { n, ...params })
}

/** langTag is the BCP 47 tag of a locale, for <html lang> and Intl. */
export function langTag(l: Locale): string {
  return l === 'zh' ? 'zh-CN' : 'en'
}

/** formatDateTime writes a date and time in the window's language ('' for an unreadable date). */
export function formatDateTime(d: Date | string, opts: Intl.DateTimeFormatOptions = { dateStyle: 'medium', timeStyle: 'short' }): string {
  const date = typeof d === 'string' ? new Date(d) : d
  if (Number.isNaN(date.getTime())) return ''
  return new Intl.DateTimeFormat(langTag(i18n.locale), opts).format(date)
}
