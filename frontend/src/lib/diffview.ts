// Pure helpers to show a FileDiff: hunk headers, line gutters, word marks.
import type { DiffLine, Hunk, Segment } from '../api'
import { t } from './i18n.svelte'

/** The unified diff header of a hunk: "@@ -3,7 +3,8 @@". */
export function hunkHeader(h: Hunk): string {
  return `@@ -${range(h.old_start, h.old_lines)} +${range(h.new_start, h.new_lines)} @@`
}

function range(start: number, n: number): string {
  return n === 1 ? String(start) : `${start},${n}`
}

/** The sign a unified diff puts before a line. */
export function lineSign(l: DiffLine): string {
  return l.kind === 'add' ? '+' : l.kind === 'del' ? '-' : ' '
}

/**
 * The pieces to render for a line: its word segments when it has them (changed words
 * marked), else the whole line, marked only when it has no unchanged counterpart.
 * Segments that do not add up to the line's text are ignored (the text wins).
 */
export function linePieces(l: DiffLine): Segment[] {
  const segs = l.segments ?? []
  if (segs.length > 0 && segs.map((s) => s.text).join('') === l.text) return segs
  return [{ text: l.text, changed: false }]
}

/** The words a screen reader says before a line. */
export function lineLabel(l: DiffLine): string {
  if (l.kind === 'add') return t('diff.line.add', { n: l.new ?? '' })
  if (l.kind === 'del') return t('diff.line.del', { n: l.old ?? '' })
  return t('diff.line', { n: l.new ?? '' })
}

/** A short summary of a diff's counts: "+3 −1". */
export function countsLabel(added: number, deleted: number): string {
  return `+${added} −${deleted}`
}
