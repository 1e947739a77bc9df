import { expect, test } from 'vitest'
import { affineBetween, type Point } from './graphGlide'

// A camera as sigma's maps see it: graph = (viewport - offset) / scale, rotated by angle.
function camera(scale: number, ox: number, oy: number, angle = 0) {
  const cos = Math.cos(angle)
  const sin = Math.sin(angle)
  return {
    toGraph: (p: Point): Point => {
      const x = (p.x - ox) / scale
      const y = (p.y - oy) / scale
      return { x: x * cos + y * sin, y: -x * sin + y * cos }
    },
    toViewport: (g: Point): Point => {
      const x = g.x * cos - g.y * sin
      const y = g.x * sin + g.y * cos
      return { x: x * scale + ox, y: y * scale + oy }
    },
  }
}

function apply(m: readonly [number, number, number, number, number, number], p: Point): Point {
  const [a, b, c, d, e, f] = m
  return { x: a * p.x + c * p.y + e, y: b * p.x + d * p.y + f }
}

test('the matrix moves every drawn point to where the new camera draws it', () => {
  const before = camera(2, 10, 20, 0.3)
  const after = camera(3.5, -40, 70, 0.5)
  const m = affineBetween(before.toGraph, after.toViewport, 460, 776)
  for (const g of [{ x: 0, y: 0 }, { x: 12.5, y: -3 }, { x: -100, y: 250 }]) {
    const drawn = before.toViewport(g)
    const want = after.toViewport(g)
    const got = apply(m, drawn)
    expect(got.x).toBeCloseTo(want.x, 6)
    expect(got.y).toBeCloseTo(want.y, 6)
  }
})

test('an unmoved camera gives the identity', () => {
  const c = camera(1.7, 5, 6)
  const m = affineBetween(c.toGraph, c.toViewport, 300, 200)
  expect(m.map((v) => Math.round(v * 1e9) / 1e9 + 0)).toEqual([1, 0, 0, 1, 0, 0])
})
