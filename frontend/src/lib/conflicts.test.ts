import { describe, expect, it } from 'vitest'
import type { BackupState } from '../api'
import { backupLine, backupMood, isZeroTime, kindText, relativeTime, sideText } from './conflicts'

const zero = '0001-01-01T00:00:00Z'
const state = (o: Partial<BackupState> = {}): BackupState => ({
  settings: { pull_on_open: false, push_on_commit: true, interval_minutes: 0, commit_own: false, message_template: 'vault backup: {{date}}' },
  running: '',
  last_sync: zero,
  error: '',
  failures: 0,
  retry_at: zero,
  waiting: '',
  divergence: { tracked: true, ahead: 0, behind: 0 },
  committed: 0,
  ...o,
})

describe('backups in words', () => {
  const now = new Date('2026-12-07T10:00:00Z')
  it('reads the zero time as never', () => {
    expect(isZeroTime(zero)).toBe(true)
    expect(isZeroTime('garbage')).toBe(true)
    expect(isZeroTime('2026-12-07T09:00:00Z')).toBe(false)
    expect(relativeTime(zero, now)).toBe('')
  })
  it('says how long ago', () => {
    expect(relativeTime('2026-12-07T09:59:50Z', now)).toBe('now')
    expect(relativeTime('2026-12-07T09:57:00Z', now)).toBe('3 minutes ago')
    expect(relativeTime('2026-12-07T07:00:00Z', now)).toBe('3 hours ago')
    expect(relativeTime('2026-12-05T10:00:00Z', now)).toBe('2 days ago')
  })
  it('leads with a failure, then what waits, then the work, then the last sync', () => {
    expect(backupMood(state({ error: 'no', waiting: 'w', running: 'pull' }))).toBe('failed')
    expect(backupMood(state({ waiting: 'w', running: 'pull' }))).toBe('waiting')
    expect(backupMood(state({ running: 'push' }))).toBe('running')
    expect(backupLine(state(), now)).toBe('not synced yet')
    expect(backupLine(state({ last_sync: '2026-12-07T09:58:00Z' }), now)).toBe('synced 2 minutes ago')
    expect(backupLine(state({ error: 'the remote refused the sign-in' }), now)).toBe('Backup failed: the remote refused the sign-in')
    expect(backupLine(state({ error: 'x', retry_at: '2026-12-07T10:00:30Z' }), now)).toMatch(/^Backup failed: x \(trying again at .+\)$/)
    expect(backupLine(state({ waiting: '1 conflicted notes wait' }), now)).toBe('Backup waits: 1 conflicted notes wait')
  })
})

describe('conflicts in words', () => {
  it('names each kind and side', () => {
    expect(kindText('deleted_by_them')).toBe('Changed here, deleted by the pull')
    expect(sideText({ exists: false, text: '' })).toBe('no file')
    expect(sideText({ exists: true, text: '', binary: true })).toBe('binary content')
    expect(sideText({ exists: true, text: 'a\n' })).toBe('a\n')
  })
})
