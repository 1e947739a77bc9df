// Simplified Chinese messages: the same keys as en.ts.
import type { en } from './en'

export const zh: Record<keyof typeof en, string> = {
  'app.name': 'MemoTree',
  'settings.language': '语言',
  'settings.language.auto': '跟随系统',
  'settings.language.en': 'English',
  'settings.language.zh': '简体中文',
}
