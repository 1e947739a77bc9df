// Pure helpers of the review panel's conflicts and backups: what the window says of a
// conflict and of how a vault's backup stands.
import type { BackupState, ConflictKind, ConflictSide } from '../api'
import { i18n, langTag, formatDateTime, t, type MessageKey } from './i18n.svelte'

/** Whether an RFC 3339 time is Go's zero time (never), or unreadable. */
export function isZeroTime(iso: string): boolean {
  const d = new Date(iso)
  return Number.isNaN(d.getTime()) || d.getUTCFullYear() <= 1
}

/** relativeTime says how long ago iso was, in the window's language ("3 minutes ago"). */
export function relativeTime(iso: string, now: Date = new Date()): string {
  if (isZeroTime(iso)) return ''
  const secs = Math.round((new Date(iso).getTime() - now.getTime()) / 1000)
  const f = new Intl.RelativeTimeFormat(langTag(i18n.locale), { numeric: 'auto' })
  const abs = Math.abs(secs)
  if (abs < 45) return f.format(0, 'second')
  if (abs < 45 * 60) return f.format(Math.round(secs / 60), 'minute')
  if (abs < 22 * 3600) return f.format(Math.round(secs / 3600), 'hour')
  return f.format(Math.round(secs / 86400), 'day')
}

const kinds: Record<ConflictKind, MessageKey> = {
  content: 'conflict.kind.content',
  binary: 'conflict.kind.binary',
  deleted_by_us: 'conflict.kind.deleted_by_us',
  deleted_by_them: 'conflict.kind.deleted_by_them',
  added_by_us: 'conflict.kind.added_by_us',
  added_by_them: 'conflict.kind.added_by_them',
}

/** kindText says what kind of conflict a note has. */
export function kindText(k: ConflictKind): string {
  return kinds[k] ? t(kinds[k]) : k
}

/** sideText is what a side of a whole-file conflict shows: its text, or why none. */
export function sideText(s: ConflictSide): string {
  if (!s.exists) return t('conflict.absent')
  if (s.binary) return t('conflict.binary')
  if (s.too_large) return t('conflict.tooLarge')
  return s.text
}

/** The kinds of a backup's line in the status bar, most pressing first. */
export type BackupMood = 'failed' | 'waiting' | 'running' | 'ok'

/** backupMood says what the status bar leads with for a backup. */
export function backupMood(s: BackupState): BackupMood {
  if (s.error) return 'failed'
  if (s.waiting) return 'waiting'
  if (s.running) return 'running'
  return 'ok'
}

/** backupLine is the status bar's words for a backup (its ahead and behind apart). */
export function backupLine(s: BackupState, now: Date = new Date()): string {
  switch (backupMood(s)) {
    case 'failed': {
      const retry = isZeroTime(s.retry_at) ? '' : ` (${t('backup.retry', { time: formatDateTime(s.retry_at, { timeStyle: 'short' }) })})`
      return t('backup.failed', { error: s.error }) + retry
    }
    case 'waiting':
      return t('backup.waiting', { why: s.waiting })
    case 'running':
      return t('backup.running')
  }
  return isZeroTime(s.last_sync) ? t('backup.never') : t('backup.synced', { when: relativeTime(s.last_sync, now) })
}
