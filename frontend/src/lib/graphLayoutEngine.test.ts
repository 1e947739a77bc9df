import { describe, expect, test } from 'vitest'
import { applyStretch, components, faSettings, LayoutEngine, separate, stretchFor, turn, type Forces } from './graphLayoutEngine'

/** Forces as a test sets them (the defaults are the backend's). */
const FORCES: Forces = { center: 0.5, repel: 10, linkStrength: 1, linkDistance: 250 }

const PPN = 10

/** A graph in the layout arrays: n nodes seeded on a small disc, edges as index pairs. */
function arrays(n: number, pairs: [number, number][]) {
  const nodes = new Float32Array(n * PPN)
  for (let i = 0; i < n; i++) {
    const a = i * 2.399
    const r = Math.sqrt(i + 1)
    nodes[i * PPN] = Math.cos(a) * r
    nodes[i * PPN + 1] = Math.sin(a) * r
    nodes[i * PPN + 6] = 1
    nodes[i * PPN + 7] = 1
    nodes[i * PPN + 8] = 3
  }
  const edges = new Float32Array(pairs.length * 3)
  pairs.forEach(([s, t], k) => {
    edges[k * 3] = s * PPN
    edges[k * 3 + 1] = t * PPN
    edges[k * 3 + 2] = 1
    nodes[s * PPN + 6]! += 1
    nodes[t * PPN + 6]! += 1
  })
  return { nodes, edges }
}

/**
 * The figures the end-to-end test reads, for a drawing fitted (as sigma does at its
 * initial camera) into a panel of w × h pixels with `pad` around.
 */
function figures(out: Float32Array, w: number, h: number, pad = 28) {
  const n = out.length / PPN
  let minX = Infinity
  let maxX = -Infinity
  let minY = Infinity
  let maxY = -Infinity
  for (let j = 0; j < n; j++) {
    minX = Math.min(minX, out[j * PPN]!)
    maxX = Math.max(maxX, out[j * PPN]!)
    minY = Math.min(minY, out[j * PPN + 1]!)
    maxY = Math.max(maxY, out[j * PPN + 1]!)
  }
  const s = Math.min((w - 2 * pad) / (maxX - minX || 1), (h - 2 * pad) / (maxY - minY || 1))
  const pts = Array.from({ length: n }, (_, j) => ({ x: w / 2 + (out[j * PPN]! - (minX + maxX) / 2) * s, y: h / 2 + (out[j * PPN + 1]! - (minY + maxY) / 2) * s }))
  const cells = new Set(pts.map((p) => Math.min(19, Math.floor((p.x / w) * 20)) * 20 + Math.min(19, Math.floor((p.y / h) * 20))))
  const piled = pts.filter((p, i) => pts.some((q, j) => j !== i && Math.hypot(p.x - q.x, p.y - q.y) < 8)).length
  return { piled: piled / n, spread: cells.size / 400 }
}

function layOut(n: number, pairs: [number, number][], aspect = 460 / 776) {
  const { nodes, edges } = arrays(n, pairs)
  const e = new LayoutEngine({ nodes, edges, aspect, fresh: true, forces: FORCES })
  for (let i = 0; i < 1000 && !e.run(50); i++);
  return e.positions()
}

describe('components', () => {
  test('numbers components by first appearance, orphans alone', () => {
    const { edges } = arrays(6, [
      [0, 2],
      [3, 4],
      [2, 5],
    ])
    expect([...components(6, edges)]).toEqual([0, 1, 0, 2, 2, 0])
  })

  test('no edges: every node its own', () => {
    expect([...components(3, new Float32Array())]).toEqual([0, 1, 2])
  })
})

describe('separate', () => {
  test('leaves no two nodes closer than their radii, even on one spot', () => {
    const xy = new Float64Array(200)
    for (let i = 0; i < 100; i++) xy[i * 2] = (i % 3) * 0.01
    const radii = new Float64Array(100).fill(0.5)
    separate(xy, radii, 500)
    let closest = Infinity
    for (let i = 0; i < 100; i++)
      for (let j = i + 1; j < 100; j++) closest = Math.min(closest, Math.hypot(xy[i * 2]! - xy[j * 2]!, xy[i * 2 + 1]! - xy[j * 2 + 1]!))
    expect(closest).toBeGreaterThan(0.99)
  })
})

describe('stretch and turn', () => {
  test('a tall panel stretches along y, keeping the area; the inverse undoes it', () => {
    const st = stretchFor(0.5)
    expect(st).toEqual({ axis: 'y', k: 2 })
    const xy = new Float64Array([1, 1])
    applyStretch(xy, st)
    expect(xy[0]! * xy[1]!).toBeCloseTo(1)
    expect(xy[1]! / xy[0]!).toBeCloseTo(2)
    applyStretch(xy, st, true)
    expect([...xy].map((v) => +v.toFixed(6))).toEqual([1, 1])
    expect(stretchFor(NaN)).toEqual({ axis: 'x', k: 1 })
  })

  test('turn lays the long axis along the one asked for', () => {
    const xy = new Float64Array([-10, -10, 10, 10, -1, 1, 1, -1])
    turn(xy, 'y')
    expect(Math.abs(xy[0]!)).toBeLessThan(1e-9)
    expect(Math.abs(xy[1]!)).toBeCloseTo(Math.hypot(10, 10))
  })
})

describe('LayoutEngine: the drawing reads on graphs of every shape', () => {
  // Each shape in the graph panel's default size (460 × 776): few piled nodes, spread out.
  const shapes: Record<string, () => [number, [number, number][]]> = {
    'a hub with 2,000 links and 50 orphans': () => [2051, Array.from({ length: 2000 }, (_, i) => [0, i + 1] as [number, number])],
    'many small clusters': () => {
      const pairs: [number, number][] = []
      let n = 0
      for (let c = 0; c < 150; c++) {
        const base = n
        const k = 2 + (c % 7)
        n += k
        for (let i = 1; i < k; i++) pairs.push([base, base + i])
      }
      return [n, pairs]
    },
    'no links at all': () => [300, []],
    'half of the nodes unresolved leaves': () => [
      400,
      Array.from({ length: 200 }, (_, i) => [
        [i, 200 + i],
        [(i * 7) % 200, (i * 13 + 5) % 200],
      ]).flat() as [number, number][],
    ],
  }
  for (const [name, make] of Object.entries(shapes)) {
    test(name, () => {
      const [n, pairs] = make()
      const f = figures(layOut(n, pairs), 460, 776)
      expect(f.piled).toBeLessThanOrEqual(0.15)
      expect(f.spread).toBeGreaterThanOrEqual(0.15)
    }, 120000)
  }

  test('a graph of more nodes than a function takes arguments splits into components', () => {
    // WebKit (the desktop window) takes at most 65,536 arguments per call, V8 some
    // 120,000: no step may spread a per-node array into a call.
    const { nodes, edges } = arrays(200_000, [[0, 1]])
    const e = new LayoutEngine({ nodes, edges, aspect: 1, fresh: true, forces: FORCES })
    expect(e.run(1)).toBe(true)
  })

  test('one node, and none, lay out without error', () => {
    expect([...layOut(1, [])].slice(0, 2).every(Number.isFinite)).toBe(true)
    expect(layOut(0, []).length).toBe(0)
  })

  test('every position is a finite number', () => {
    const out = layOut(60, [
      [0, 1],
      [1, 2],
      [2, 0],
      [3, 4],
    ])
    expect([...out].every(Number.isFinite)).toBe(true)
  })
})

describe('forces', () => {
  test('the sliders map onto ForceAtlas2: repel scales repulsion, center is gravity', () => {
    const a = faSettings(100, { ...FORCES, repel: 4, center: 0.2 })
    const b = faSettings(100, { ...FORCES, repel: 16, center: 0.9 })
    expect(b.scalingRatio).toBeGreaterThan(a.scalingRatio)
    expect(b.gravity).toBeGreaterThan(a.gravity)
  })

  test('a longer link distance spaces the nodes further apart', () => {
    const ring: [number, number][] = Array.from({ length: 30 }, (_, i) => [i, (i + 1) % 30])
    const extent = (linkDistance: number) => {
      const { nodes, edges } = arrays(30, ring)
      const e = new LayoutEngine({ nodes, edges, aspect: 1, fresh: true, forces: { ...FORCES, linkDistance } })
      while (!e.run(50));
      const out = e.positions()
      let max = 0
      for (let j = 0; j < 30; j++) max = Math.max(max, Math.hypot(out[j * PPN]!, out[j * PPN + 1]!))
      return max
    }
    expect(extent(500)).toBeGreaterThan(extent(125) * 2)
  })
})
