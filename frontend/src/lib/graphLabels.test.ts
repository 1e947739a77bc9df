import { describe, expect, test } from 'vitest'
import { labelAlpha, placeLabels, type LabelCandidate } from './graphLabels'

const width = (t: string) => t.length * 7
const cand = (key: string, x: number, y: number, o: Partial<LabelCandidate> = {}): LabelCandidate => ({ key, x, y, size: 4, text: key, forced: false, ...o })

const overlap = (a: { x: number; y: number; w: number; h: number }, b: typeof a) => a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h

describe('placeLabels', () => {
  test('two long names side by side: the second moves, none overprints', () => {
    const placed = placeLabels([cand('Timeline of Computing', 100, 100), cand('中文笔记 and more', 130, 100)], width, 12)
    expect(placed).toHaveLength(2)
    expect(overlap(placed[0]!.box, placed[1]!.box)).toBe(false)
  })

  test('the forced label (the open note) is placed first, at its usual spot; a neighbour gives way', () => {
    const placed = placeLabels([cand('Neighbour', 120, 100, { size: 9 }), cand('Open note', 100, 100, { forced: true })], width, 12)
    const open = placed.find((p) => p.key === 'Open note')!
    expect(placed[0]!.key).toBe('Open note')
    expect(open.textX).toBeGreaterThan(100)
    const other = placed.find((p) => p.key === 'Neighbour')
    if (other) expect(overlap(open.box, other.box)).toBe(false)
  })

  test('a crowd: no two placed labels overlap, bigger nodes keep theirs', () => {
    const cands = Array.from({ length: 60 }, (_, i) => cand(`note ${i}`, 100 + (i % 6) * 20, 100 + Math.floor(i / 6) * 8, { size: i === 7 ? 10 : 3 }))
    const placed = placeLabels(cands, width, 12)
    expect(placed.some((p) => p.key === 'note 7')).toBe(true)
    for (let i = 0; i < placed.length; i++) for (let j = i + 1; j < placed.length; j++) expect(overlap(placed[i]!.box, placed[j]!.box)).toBe(false)
    expect(placed.length).toBeLessThan(cands.length)
  })

  test('a label does not cover another node’s disc when it has a free spot', () => {
    const placed = placeLabels([cand('abc', 100, 100)], width, 12, [{ x: 125, y: 100, size: 6 }])
    expect(placed[0]!.textX).toBeLessThan(100)
  })

  test('empty names are not placed', () => {
    expect(placeLabels([cand('', 0, 0)], width, 12)).toEqual([])
  })
})

test('labels fade in past the threshold; forced ones are opaque', () => {
  expect(labelAlpha(3.5, 3.5, false)).toBeCloseTo(0.25)
  expect(labelAlpha(20, 3.5, false)).toBe(1)
  expect(labelAlpha(5, 3.5, false)).toBeGreaterThan(labelAlpha(4, 3.5, false))
  expect(labelAlpha(0, 3.5, true)).toBe(1)
})
