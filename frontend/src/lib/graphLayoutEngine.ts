// The graph's layout, as the layout worker runs it: ForceAtlas2 on each connected
// component apart, then a drawing a person can read.
//
// ForceAtlas2 on a whole vault at once reads badly: its repulsion pushes every
// component that is not linked to the rest (orphans, a pair of notes, a folder of
// attachments) outwards without end, so a few strays end far away while the camera,
// which fits every node, squeezes the rest into a corner; and its attraction piles a
// hub's leaves on one another. So each component is laid out on its own; each is then
// scaled to the same density, its nodes pushed apart until none sits closer than a set
// distance to another (a collision pass on a grid), and the components are packed as
// circles around the largest (d3-hierarchy's packSiblings), the orphans ringing the
// rest as in Obsidian. A fresh drawing is turned and stretched to the panel's shape.
//
// Pure: it takes and gives the flat arrays ForceAtlas2 reads (graphModel.layoutArrays).
import iterate from 'graphology-layout-forceatlas2/iterate'
import { packSiblings } from 'd3-hierarchy'
import type { LayoutSettings } from './graphLayout'

/** Values per node and per edge in the arrays (graphModel.LAYOUT_NODE_STRIDE…). */
const PPN = 10
const PPE = 3

/**
 * The forces a person sets with the graph's sliders, as Obsidian names them:
 * center (gravity, 0–1), repel (0–20), link strength (0–1) and link distance (30–500).
 */
export interface Forces {
  center: number
  repel: number
  linkStrength: number
  linkDistance: number
}

/**
 * The link distance the spacing of a drawing was tuned at (Obsidian's default, as
 * the graph's settings have it): a longer one spreads the drawing out in proportion.
 * The forces themselves, defaults included, are the settings' (the backend's).
 */
export const SPACING_LINK_DISTANCE = 250

/** What a layout is asked for. */
export interface EngineInput {
  /** Per node: x, y, dx, dy, old dx, old dy, mass, convergence, size, fixed. */
  nodes: Float32Array
  /** Per edge: source offset, target offset, weight. */
  edges: Float32Array
  /** The panel's width over its height: a fresh drawing takes its shape. */
  aspect: number
  /** No node had a position: turn and stretch the drawing to the panel. */
  fresh: boolean
  forces: Forces
}

/** One connected component, laid out in arrays of its own. */
interface Component {
  /** Its nodes' indices in the input. */
  members: Int32Array
  nodes: Float32Array
  edges: Float32Array
  settings: LayoutSettings
  /** ForceAtlas2 iterations done and wanted. */
  done: number
  wanted: number
}

/** Iterations a component of n nodes gets (the largest may get fewer: time runs out). */
export function iterationsFor(n: number): number {
  if (n <= 3) return 0
  return Math.round(Math.min(500, 100 + 2 * n))
}

/** faSettings picks ForceAtlas2's settings for a component of `order` nodes. */
export function faSettings(order: number, f: Forces): LayoutSettings {
  const big = order > 1000
  return {
    linLogMode: false,
    outboundAttractionDistribution: false,
    adjustSizes: false,
    edgeWeightInfluence: 1,
    barnesHutTheta: 0.6,
    barnesHutOptimize: big,
    strongGravityMode: false,
    scalingRatio: 2 * Math.max(0.5, f.repel),
    gravity: Math.max(0.01, f.center),
    slowDown: 1 + Math.log(Math.max(order, 1)) / 2,
  }
}

/**
 * components numbers the connected components of a graph of `n` nodes with edges given
 * as node offsets (index × PPN): it returns each node's component, components
 * numbered by first appearance.
 */
export function components(n: number, edges: Float32Array): Int32Array {
  const parent = new Int32Array(n)
  for (let i = 0; i < n; i++) parent[i] = i
  const find = (i: number): number => {
    while (parent[i] !== i) {
      parent[i] = parent[parent[i]!]!
      i = parent[i]!
    }
    return i
  }
  for (let e = 0; e + 1 < edges.length; e += PPE) {
    const a = find(edges[e]! / PPN)
    const b = find(edges[e + 1]! / PPN)
    if (a !== b) parent[Math.max(a, b)] = Math.min(a, b)
  }
  const id = new Int32Array(n).fill(-1)
  const out = new Int32Array(n)
  let next = 0
  for (let i = 0; i < n; i++) {
    const r = find(i)
    if (id[r] === -1) id[r] = next++
    out[i] = id[r]!
  }
  return out
}

/**
 * LayoutEngine lays a graph out: run() does ForceAtlas2 iterations for a while,
 * positions() gives the drawing of the state reached (finished: scaled, spaced,
 * packed). Run it until run() says it is done.
 */
export class LayoutEngine {
  private readonly input: EngineInput
  private readonly comps: Component[]
  private readonly forces: Forces

  private readonly stretch: Stretch

  constructor(input: EngineInput) {
    this.input = input
    this.forces = input.forces
    this.stretch = stretchFor(input.aspect)
    this.comps = split(input, this.forces, input.fresh ? null : this.stretch)
  }

  /** run iterates for about `ms` milliseconds; true once every component is done. */
  run(ms: number): boolean {
    const end = performance.now() + ms
    // The small components first: each is cheap, and done at once.
    for (const c of this.comps) {
      while (c.done < c.wanted) {
        iterate(c.settings, c.nodes, c.edges)
        c.done++
        if ((c.members.length > 200 || c.done % 16 === 0) && performance.now() >= end) return false
      }
    }
    return true
  }

  /**
   * positions returns the drawing reached so far, in a copy of the input's node array;
   * a drawing that is not `final` spaces its nodes in fewer passes (it is a glimpse).
   */
  positions(final = true): Float32Array {
    const out = this.input.nodes.slice()
    const spacing = this.forces.linkDistance / SPACING_LINK_DISTANCE
    const passes = final ? 150 : 12
    const shapes = this.comps.map((c) => shape(c, spacing, this.stretch, this.input.fresh, passes))
    pack(shapes, out, this.stretch)
    return out
  }
}

/**
 * How a drawing takes the panel's shape: it is stretched along the panel's long side
 * by `k` and squeezed along the other by as much, keeping its area (so its density).
 */
export interface Stretch {
  /** The long side: x for a wide panel, y for a tall one. */
  axis: 'x' | 'y'
  /** From 1 (a square panel) to MAX_STRETCH. */
  k: number
}

/** A drawing is stretched at most this much (the long side over the short one). */
export const MAX_STRETCH = 2

/** stretchFor gives the stretch for a panel of width/height `aspect`. */
export function stretchFor(aspect: number): Stretch {
  if (!(aspect > 0) || !Number.isFinite(aspect)) return { axis: 'x', k: 1 }
  const long = aspect >= 1 ? aspect : 1 / aspect
  return { axis: aspect >= 1 ? 'x' : 'y', k: Math.min(MAX_STRETCH, long) }
}

/** applyStretch scales points (x, y pairs) by the stretch, or by its inverse. */
export function applyStretch(xy: Float64Array | Float32Array, st: Stretch, inverse = false, stride = 2) {
  const f = Math.sqrt(st.k)
  const along = inverse ? 1 / f : f
  const across = inverse ? f : 1 / f
  const [ax, ay] = st.axis === 'x' ? [along, across] : [across, along]
  for (let o = 0; o + 1 < xy.length; o += stride) {
    xy[o]! *= ax
    xy[o + 1]! *= ay
  }
}

/**
 * split cuts the input into its components, smallest first, each centred on 0, 0; a
 * drawing made before (`unstretch`) is unstretched, so ForceAtlas2 starts from its
 * own shape and the stretch is not applied twice.
 */
function split(input: EngineInput, f: Forces, unstretch: Stretch | null): Component[] {
  const n = input.nodes.length / PPN
  const comp = components(n, input.edges)
  // Numbered by first appearance: the last new number is the count less one. (No
  // Math.max(...comp): a call takes at most 65,536 arguments in WebKit.)
  let count = 0
  for (let i = 0; i < n; i++) if (comp[i]! >= count) count = comp[i]! + 1
  const sizes = new Int32Array(count)
  for (let i = 0; i < n; i++) sizes[comp[i]!]!++
  const members = Array.from({ length: count }, (_, k) => new Int32Array(sizes[k]!))
  const fill = new Int32Array(count)
  const local = new Int32Array(n)
  for (let i = 0; i < n; i++) {
    const k = comp[i]!
    local[i] = fill[k]!
    members[k]![fill[k]!++] = i
  }
  const edgeCount = new Int32Array(count)
  for (let e = 0; e + 1 < input.edges.length; e += PPE) edgeCount[comp[input.edges[e]! / PPN]!]!++
  const edges = Array.from({ length: count }, (_, k) => new Float32Array(edgeCount[k]! * PPE))
  const efill = new Int32Array(count)
  for (let e = 0; e + 2 < input.edges.length; e += PPE) {
    const s = input.edges[e]! / PPN
    const k = comp[s]!
    const o = efill[k]!
    edges[k]![o] = local[s]! * PPN
    edges[k]![o + 1] = local[input.edges[e + 1]! / PPN]! * PPN
    edges[k]![o + 2] = input.edges[e + 2]! * Math.max(0.05, f.linkStrength)
    efill[k] = o + PPE
  }
  const out: Component[] = []
  for (let k = 0; k < count; k++) {
    const m = members[k]!
    const nodes = new Float32Array(m.length * PPN)
    let cx = 0
    let cy = 0
    for (let j = 0; j < m.length; j++) {
      const src = m[j]! * PPN
      for (let v = 0; v < PPN; v++) nodes[j * PPN + v] = input.nodes[src + v]!
      cx += nodes[j * PPN]!
      cy += nodes[j * PPN + 1]!
    }
    // Centred, since ForceAtlas2's gravity pulls towards 0, 0.
    cx /= m.length
    cy /= m.length
    for (let j = 0; j < m.length; j++) {
      nodes[j * PPN] = nodes[j * PPN]! - cx
      nodes[j * PPN + 1] = nodes[j * PPN + 1]! - cy
      nodes[j * PPN + 2] = nodes[j * PPN + 3] = nodes[j * PPN + 4] = nodes[j * PPN + 5] = 0
      // ForceAtlas2's mass is 1 + degree, and repulsion grows with the product of two
      // masses: a hub of 2,000 links pushes its own leaves into a thin ring around a
      // hole. The square root keeps hubs apart from each other without the hole.
      nodes[j * PPN + 6] = 1 + Math.sqrt(Math.max(0, nodes[j * PPN + 6]! - 1))
    }
    if (unstretch) applyStretch(nodes, unstretch, true, PPN)
    out.push({ members: m, nodes, edges: edges[k]!, settings: faSettings(m.length, f), done: 0, wanted: iterationsFor(m.length) })
  }
  // Small first, so run() finishes them before the long work.
  return out.sort((a, b) => a.members.length - b.members.length || a.members[0]! - b.members[0]!)
}

/** A component's finished drawing: positions around 0, 0 and the radius it takes. */
interface Shape {
  members: Int32Array
  xy: Float64Array
  r: number
}

/** The least distance between two nodes' centres, in layout units (one unit²: one node's share). */
export const MIN_GAP = 1

/**
 * shape scales a component to one node per hexagon of side MIN_GAP × spacing within
 * the disc holding 90% of its nodes, turns (a fresh drawing) and stretches it to the
 * panel, and pushes its nodes apart to that gap (more for big nodes). Its radius is
 * measured unstretched, as pack places the components.
 */
function shape(c: Component, spacing: number, st: Stretch, fresh: boolean, passes: number): Shape {
  const n = c.members.length
  const xy = new Float64Array(n * 2)
  const radii = new Float64Array(n)
  const gap = MIN_GAP * Math.max(0.3, spacing)
  for (let j = 0; j < n; j++) {
    xy[j * 2] = c.nodes[j * PPN]!
    xy[j * 2 + 1] = c.nodes[j * PPN + 1]!
    // Sizes run from about 2.5 (a leaf) to 11.5 (a hub): a hub keeps a little more room.
    radii[j] = (gap / 2) * (0.85 + 0.03 * (c.nodes[j * PPN + 8]! || 2.5))
  }
  if (n <= 3) smallShape(xy, n, gap)
  else {
    centre(xy)
    const r90 = quantileRadius(xy, 0.9)
    // The disc that holds every node, each in a hexagon as wide as its diameter, with
    // a tenth to spare; 90% of the nodes in the part of it they would take.
    let area = 0
    for (let j = 0; j < n; j++) area += 0.866 * (2 * radii[j]!) ** 2
    const full = Math.sqrt((1.1 * area) / Math.PI)
    const target = full * Math.sqrt(0.9)
    const k = r90 > 0 ? target / r90 : 1
    for (let i = 0; i < xy.length; i++) xy[i]! *= k
    equalise(xy, full, evenness(n))
    if (fresh) turn(xy, st.axis)
    applyStretch(xy, st)
    separate(xy, radii, passes)
    centre(xy)
  }
  // The radius in unstretched space, where the components are packed as circles.
  const plain = xy.slice()
  applyStretch(plain, st, true)
  let r = 0
  const f = Math.sqrt(st.k)
  for (let j = 0; j < n; j++) r = Math.max(r, Math.hypot(plain[j * 2]!, plain[j * 2 + 1]!) + radii[j]! * f)
  return { members: c.members, xy, r }
}

/** turn rotates points about 0, 0 so that their principal axis lies along `axis`. */
export function turn(xy: Float64Array, axis: 'x' | 'y') {
  const n = xy.length / 2
  let sxx = 0
  let syy = 0
  let sxy = 0
  for (let j = 0; j < n; j++) {
    const x = xy[j * 2]!
    const y = xy[j * 2 + 1]!
    sxx += x * x
    syy += y * y
    sxy += x * y
  }
  const theta = 0.5 * Math.atan2(2 * sxy, sxx - syy)
  const a = (axis === 'x' ? 0 : Math.PI / 2) - theta
  const cos = Math.cos(a)
  const sin = Math.sin(a)
  for (let j = 0; j < n; j++) {
    const x = xy[j * 2]!
    const y = xy[j * 2 + 1]!
    xy[j * 2] = x * cos - y * sin
    xy[j * 2 + 1] = x * sin + y * cos
  }
}

/** smallShape lays out 1–3 nodes: a point, a segment, a triangle. */
function smallShape(xy: Float64Array, n: number, gap: number) {
  for (let j = 0; j < n; j++) {
    const a = (j / Math.max(n, 1)) * Math.PI * 2
    const r = n === 1 ? 0 : n === 2 ? gap * 0.6 : gap * 0.7
    xy[j * 2] = Math.cos(a) * r
    xy[j * 2 + 1] = Math.sin(a) * r
  }
}

function centre(xy: Float64Array) {
  const n = xy.length / 2
  if (n === 0) return
  let cx = 0
  let cy = 0
  for (let j = 0; j < n; j++) {
    cx += xy[j * 2]!
    cy += xy[j * 2 + 1]!
  }
  cx /= n
  cy /= n
  for (let j = 0; j < n; j++) {
    xy[j * 2]! -= cx
    xy[j * 2 + 1]! -= cy
  }
}

/** quantileRadius is the distance from 0, 0 within which a fraction q of the nodes lie. */
export function quantileRadius(xy: Float64Array, q: number): number {
  const n = xy.length / 2
  const d = new Float64Array(n)
  for (let j = 0; j < n; j++) d[j] = Math.hypot(xy[j * 2]!, xy[j * 2 + 1]!)
  d.sort()
  return d[Math.min(n - 1, Math.floor(q * n))] ?? 0
}

/**
 * separate pushes apart every two nodes closer than the sum of their radii, `passes`
 * times at most (each pass moves both by half the overlap), finding neighbours on a
 * grid of cells as wide as the largest diameter.
 */
export function separate(xy: Float64Array, radii: Float64Array, passes: number) {
  const n = radii.length
  if (n < 2) return
  let maxR = 0
  for (let j = 0; j < n; j++) maxR = Math.max(maxR, radii[j]!)
  if (!(maxR > 0)) return
  const next = new Int32Array(n)
  const cellOf = new Int32Array(n)
  for (let p = 0; p < passes; p++) {
    let minX = Infinity
    let minY = Infinity
    let maxX = -Infinity
    let maxY = -Infinity
    for (let j = 0; j < n; j++) {
      minX = Math.min(minX, xy[j * 2]!)
      maxX = Math.max(maxX, xy[j * 2]!)
      minY = Math.min(minY, xy[j * 2 + 1]!)
      maxY = Math.max(maxY, xy[j * 2 + 1]!)
    }
    // Cells of at least one diameter, and no more of them than four per node.
    let cell = maxR * 2
    const area = (maxX - minX + cell) * (maxY - minY + cell)
    if (area / (cell * cell) > 4 * n) cell = Math.sqrt(area / (4 * n))
    const cols = Math.floor((maxX - minX) / cell) + 1
    const rows = Math.floor((maxY - minY) / cell) + 1
    const heads = new Int32Array(cols * rows).fill(-1)
    for (let j = 0; j < n; j++) {
      const c = Math.floor((xy[j * 2]! - minX) / cell) * rows + Math.floor((xy[j * 2 + 1]! - minY) / cell)
      cellOf[j] = c
      next[j] = heads[c]!
      heads[c] = j
    }
    let moved = 0
    for (let j = 0; j < n; j++) {
      const cx = Math.floor(cellOf[j]! / rows)
      const cy = cellOf[j]! % rows
      for (let dx = -1; dx <= 1; dx++) {
        const x = cx + dx
        if (x < 0 || x >= cols) continue
        for (let dy = -1; dy <= 1; dy++) {
          const y = cy + dy
          if (y < 0 || y >= rows) continue
          for (let i = heads[x * rows + y]!; i >= 0; i = next[i]!) {
            if (i <= j) continue
            const vx = xy[i * 2]! - xy[j * 2]!
            const vy = xy[i * 2 + 1]! - xy[j * 2 + 1]!
            const want = radii[i]! + radii[j]!
            const d = Math.hypot(vx, vy)
            if (d >= want) continue
            let ux = vx / d
            let uy = vy / d
            if (d < 1e-9) {
              // Two nodes on one spot: part them along a direction of their own.
              const a = ((i * 7919 + j * 104729) % 360) * (Math.PI / 180)
              ux = Math.cos(a)
              uy = Math.sin(a)
            }
            const push = (want - d) / 2
            xy[i * 2]! += ux * push
            xy[i * 2 + 1]! += uy * push
            xy[j * 2]! -= ux * push
            xy[j * 2 + 1]! -= uy * push
            moved++
          }
        }
      }
    }
    if (moved === 0) return
  }
}

/**
 * equalise evens out how dense a drawing centred on 0, 0 is from its middle to its
 * edge: each node keeps its direction and its rank by distance, and moves a share
 * `alpha` of the way to the radius that rank has in a disc of uniform density and
 * radius `r`. A big graph's force layout is a dense core in a thin halo (nodes piled
 * in the middle, the rest of the panel nearly empty); this spreads it evenly.
 */
export function equalise(xy: Float64Array, r: number, alpha: number) {
  const n = xy.length / 2
  if (n < 2 || !(alpha > 0)) return
  const order = Array.from({ length: n }, (_, j) => j)
  const dist = new Float64Array(n)
  for (let j = 0; j < n; j++) dist[j] = Math.hypot(xy[j * 2]!, xy[j * 2 + 1]!)
  order.sort((a, b) => dist[a]! - dist[b]! || a - b)
  for (let k = 0; k < n; k++) {
    const j = order[k]!
    const d = dist[j]!
    const want = r * Math.sqrt((k + 0.5) / n)
    const to = d + alpha * (want - d)
    if (d < 1e-9) {
      const a = j * 2.399963
      xy[j * 2] = Math.cos(a) * to
      xy[j * 2 + 1] = Math.sin(a) * to
    } else {
      xy[j * 2]! *= to / d
      xy[j * 2 + 1]! *= to / d
    }
  }
}

/** How much a component of n nodes is evened out (see equalise): none below 500 nodes. */
export function evenness(n: number): number {
  return n < 500 ? 0 : Math.min(0.9, (n - 500) / 1500)
}

/**
 * pack places the components as circles (in unstretched space), the largest in the
 * middle and the others around it (packSiblings), and writes every node's position to
 * `out`, the centres stretched back.
 */
function pack(shapes: Shape[], out: Float32Array, st: Stretch) {
  const margin = MIN_GAP * 0.3
  const circles = shapes
    .map((s, i) => ({ i, r: s.r + margin, x: 0, y: 0 }))
    .sort((a, b) => b.r - a.r || shapes[a.i]!.members[0]! - shapes[b.i]!.members[0]!)
  packSiblings(circles)
  const at = new Float64Array(2)
  for (const c of circles) {
    const s = shapes[c.i]!
    at[0] = c.x
    at[1] = c.y
    applyStretch(at, st)
    for (let j = 0; j < s.members.length; j++) {
      const o = s.members[j]! * PPN
      out[o] = s.xy[j * 2]! + at[0]!
      out[o + 1] = s.xy[j * 2 + 1]! + at[1]!
    }
  }
}
