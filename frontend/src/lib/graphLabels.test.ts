import { describe, expect, test } from 'vitest'
import { labelAlpha, placeLabels, type Box, type LabelCandidate, type PlacedLabel } from './graphLabels'

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

  test('a label stays inside the panel: at the right edge it goes left, at the left edge right', () => {
    const area = { w: 300, h: 200, avoid: [] }
    const right = placeLabels([cand('Research notes', 290, 100)], width, 12, [], undefined, area)[0]!
    expect(right.box.x + right.box.w).toBeLessThanOrEqual(300)
    expect(right.textX).toBeLessThan(290)
    const left = placeLabels([cand('Research notes', 5, 100)], width, 12, [], undefined, area)[0]!
    expect(left.box.x).toBeGreaterThanOrEqual(0)
    // Without the area, the right-edge label takes its usual spot, past the edge.
    expect(placeLabels([cand('Research notes', 290, 100)], width, 12)[0]!.box.x + 10).toBeGreaterThan(300)
  })

  test('no label under the legend; a forced one finds a spot off it when there is one', () => {
    const legend: Box = { x: 0, y: 150, w: 120, h: 50 }
    const area = { w: 300, h: 200, avoid: [legend] }
    expect(placeLabels([cand('hidden', 40, 170)], width, 12, [], undefined, area)).toHaveLength(0)
    const forced = placeLabels([cand('Open', 125, 160, { forced: true })], width, 12, [], undefined, area)[0]!
    expect(overlap(forced.box, legend)).toBe(false)
    expect(forced.textX).toBeGreaterThan(125)
  })

  test('a label does not cover another node’s disc when it has a free spot', () => {
    const placed = placeLabels([cand('abc', 100, 100)], width, 12, [{ x: 125, y: 100, size: 6 }])
    expect(placed[0]!.textX).toBeLessThan(100)
  })

  test('thousands of labels, forced ones too, cost a bounded number of checks each', () => {
    // A change set of thousands of notes forces every label of the graph diff: each
    // label may look only at what is near it, never at every label placed before.
    let seed = 7
    const rnd = () => ((seed = (seed * 16807) % 2147483647) / 2147483647)
    const cands = Array.from({ length: 20_000 }, (_, i) => cand(`note ${i}`, rnd() * 4000, rnd() * 4000, { size: 2 + rnd() * 8, forced: i % 2 === 0 }))
    const discs = cands.slice(0, 3000).map((c) => ({ x: c.x, y: c.y, size: c.size }))
    const stats = { checks: 0 }
    const placed = placeLabels(cands, width, 12, discs, stats)
    expect(placed.length).toBeGreaterThan(10_000)
    expect(stats.checks).toBeGreaterThan(0)
    expect(stats.checks / cands.length).toBeLessThan(100) // 15 measured; all placed before: thousands
  })

  test('placed as the plain rule says: the same labels at the same spots', () => {
    let seed = 11
    const rnd = () => ((seed = (seed * 16807) % 2147483647) / 2147483647)
    for (let round = 0; round < 5; round++) {
      const cands = Array.from({ length: 400 }, (_, i) => cand(`n${i}${'x'.repeat(Math.floor(rnd() * 20))}`, rnd() * 600 - 50, rnd() * 600 - 50, { size: 1 + rnd() * 10, forced: rnd() < 0.1 }))
      const discs = Array.from({ length: 300 }, () => ({ x: rnd() * 600, y: rnd() * 600, size: 1 + rnd() * 8 }))
      expect(placeLabels(cands, width, 12, discs)).toEqual(plainPlace(cands, width, 12, discs))
    }
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

/** The rule placeLabels follows, checked the plain way: every spot against every label placed and every disc. */
function plainPlace(cands: LabelCandidate[], width: (t: string) => number, height: number, discs: { x: number; y: number; size: number }[]): PlacedLabel[] {
  const order = [...cands].sort((a, b) => Number(b.forced) - Number(a.forced) || b.size - a.size || (a.key < b.key ? -1 : 1))
  const taken: Box[] = []
  const out: PlacedLabel[] = []
  const pad = 2
  for (const c of order) {
    if (c.text === '') continue
    const w = width(c.text)
    const gap = c.size + 3
    const bh = height + pad * 2
    const vgap = Math.max(gap, height / 2 + pad)
    const below = c.y + vgap
    const above = c.y - vgap - bh
    const spots = [
      { textX: c.x + gap, textY: c.y + height / 3, box: { x: c.x + gap - pad, y: c.y - height / 2 - pad, w: w + pad * 2, h: bh } },
      { textX: c.x - gap - w, textY: c.y + height / 3, box: { x: c.x - gap - w - pad, y: c.y - height / 2 - pad, w: w + pad * 2, h: bh } },
      { textX: c.x - w / 2, textY: below + pad + height * 0.8, box: { x: c.x - w / 2 - pad, y: below, w: w + pad * 2, h: bh } },
      { textX: c.x - w / 2, textY: above + pad + height * 0.8, box: { x: c.x - w / 2 - pad, y: above, w: w + pad * 2, h: bh } },
    ]
    const covers = (b: Box) => discs.some((d) => (d.x !== c.x || d.y !== c.y) && d.x + d.size > b.x && d.x - d.size < b.x + b.w && d.y + d.size > b.y && d.y - d.size < b.y + b.h)
    const free = spots.find((s) => !taken.some((t) => overlap(t, s.box)) && !covers(s.box))
    const spot = free ?? (c.forced ? (spots.find((s) => !taken.some((t) => overlap(t, s.box))) ?? spots[0]) : undefined)
    if (!spot) continue
    taken.push(spot.box)
    out.push({ ...c, ...spot })
  }
  return out
}
