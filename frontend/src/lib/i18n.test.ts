import { describe, expect, it, vi } from 'vitest'
import { en } from './messages/en'
import { zh } from './messages/zh'
import { format, formatDateTime, i18n, langTag, systemLocale, t, tn, translate } from './i18n.svelte'

describe('i18n', () => {
  it('maps system locales to English or Chinese', () => {
    expect(systemLocale('zh-CN')).toBe('zh')
    expect(systemLocale('zh-Hans-SG')).toBe('zh')
    expect(systemLocale('en-GB')).toBe('en')
    expect(systemLocale('fr')).toBe('en')
    expect(systemLocale(undefined)).toBe('en')
  })

  it('fills parameters and leaves unknown ones', () => {
    expect(format('{n} notes in {lib}', { n: 3, lib: 'demo' })).toBe('3 notes in demo')
    expect(format('{n} and {m}', { n: 1 })).toBe('1 and {m}')
  })

  it('switches language, and follows the system on auto', () => {
    vi.stubGlobal('navigator', { language: 'zh-TW' })
    try {
      i18n.choose('zh')
      expect(t('settings.language')).toBe('语言')
      i18n.choose('en')
      expect(t('settings.language')).toBe('Language')
      i18n.choose('auto')
      expect(i18n.locale).toBe('zh')
    } finally {
      vi.unstubAllGlobals()
      i18n.choose('en')
    }
  })

  it('has every English key translated, and no Chinese message left in English', () => {
    const same = new Set(['app.name', 'settings.language.en', 'settings.language.zh'])
    for (const k of Object.keys(en) as (keyof typeof en)[]) {
      expect(zh[k], k).toBeTruthy()
      // Parameters must survive translation.
      expect((zh[k].match(/\{\w+\}/g) ?? []).sort(), k).toEqual((en[k].match(/\{\w+\}/g) ?? []).sort())
      if (!same.has(k) && /[a-z]{4,}/i.test(en[k])) expect(zh[k], k).not.toBe(en[k])
    }
    expect(translate('zh', 'settings.language.auto')).toBe('跟随系统')
  })

  it('picks the plural form, and writes dates in the chosen language', () => {
    i18n.choose('en')
    expect(tn('git.files', 1)).toBe('1 file')
    expect(tn('git.files', 3)).toBe('3 files')
    expect(tn('git.notice.committed', 2, { hash: 'abc1234', tagged: '' })).toBe('Committed 2 files as abc1234.')
    const d = new Date(2026, 10, 23, 14, 5)
    const opts: Intl.DateTimeFormatOptions = { year: 'numeric', month: 'long', day: 'numeric' }
    expect(formatDateTime(d, opts)).toBe('November 23, 2026')
    expect(formatDateTime('not a date')).toBe('')
    i18n.choose('zh')
    try {
      expect(tn('git.files', 3)).toBe('3 个文件')
      expect(formatDateTime(d, opts)).toBe('2026年11月23日')
      expect(langTag(i18n.locale)).toBe('zh-CN')
    } finally {
      i18n.choose('en')
    }
    expect(langTag('en')).toBe('en')
  })
})
