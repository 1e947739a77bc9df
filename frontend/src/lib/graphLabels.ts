// Node labels that never overprint one another. Sigma picks the labels worth showing
// (one or so per cell of its label grid, plus those forced on) and draws each where it
// is asked to, so a long name runs into its neighbour's, and the open note's label,
// drawn last, covers whatever lies under it. Here sigma's drawing function only
// collects the labels; once sigma has drawn a frame they are placed, the forced and the
// biggest first, each at the first of four spots around its node (right, left, below,
// above) where it overlaps no label placed before it and no node's disc, or left out.
// A label fades in as its node grows past the size at which labels show (zooming in).
import type { Attributes } from 'graphology-types'
import type Sigma from 'sigma'
import type { NodeLabelDrawingFunction } from 'sigma/rendering'

/** A label to place: its node's position and size on screen, its text, its priority. */
export interface LabelCandidate {
  key: string
  x: number
  y: number
  /** The node's radius on screen. */
  size: number
  text: string
  /** Forced labels (the open note, search matches) are placed first. */
  forced: boolean
}

/** A label's box on screen. */
export interface Box {
  x: number
  y: number
  w: number
  h: number
}

/** A placed label: where its text starts (baseline) and the box it takes. */
export interface PlacedLabel extends LabelCandidate {
  textX: number
  textY: number
  box: Box
}

function overlaps(a: Box, b: Box): boolean {
  return a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h
}

/** The side of a cell of the grids that find what lies near a box, in pixels. */
const CELL = 64

/**
 * Grid files items by the cells of CELL pixels their boxes touch, so that what may
 * overlap a box is found among the items of a few cells, not among all of them.
 */
class Grid<T> {
  private readonly cells = new Map<number, T[]>()

  add(b: Box, item: T) {
    const [x0, x1, y0, y1] = span(b)
    for (let x = x0; x <= x1; x++)
      for (let y = y0; y <= y1; y++) {
        const k = x * 1_000_003 + y
        const list = this.cells.get(k)
        if (list) list.push(item)
        else this.cells.set(k, [item])
      }
  }

  /** some tells whether an item filed in a cell the box b touches passes test. */
  some(b: Box, test: (item: T) => boolean): boolean {
    const [x0, x1, y0, y1] = span(b)
    for (let x = x0; x <= x1; x++)
      for (let y = y0; y <= y1; y++) {
        const list = this.cells.get(x * 1_000_003 + y)
        if (list && list.some(test)) return true
      }
    return false
  }
}

/** LabelArea is where labels may go: the panel's size, less the boxes drawn over it. */
export interface LabelArea {
  w: number
  h: number
  avoid: readonly Box[]
}

/** span gives the first and last column and row of the cells a box touches. */
function span(b: Box): [number, number, number, number] {
  return [Math.floor(b.x / CELL), Math.floor((b.x + b.w) / CELL), Math.floor(b.y / CELL), Math.floor((b.y + b.h) / CELL)]
}

/**
 * placeLabels places labels without overlap: the forced first, then by node size
 * (bigger first), each at the first free spot of right, left, below and above its
 * node; `width` measures a text, `height` is a line's. Labels with no free spot are
 * left out. `discs` are other nodes' circles a label should not cover. Each spot is
 * checked against the labels and discs near it only (a grid), so thousands of forced
 * labels (a big change set's) are placed in a frame; `stats`, when given, counts the
 * checks. With an `area`, a spot is free only inside it (w × h from 0, 0) and off its
 * `avoid` boxes (the legend drawn over the graph), so no label is cut by the panel's
 * edge or hidden under the legend.
 */
export function placeLabels(
  cands: readonly LabelCandidate[],
  width: (text: string) => number,
  height: number,
  discs: readonly { x: number; y: number; size: number }[] = [],
  stats?: { checks: number },
  area?: LabelArea,
): PlacedLabel[] {
  const order = [...cands].sort((a, b) => Number(b.forced) - Number(a.forced) || b.size - a.size || (a.key < b.key ? -1 : 1))
  const taken = new Grid<Box>()
  const near = new Grid<{ x: number; y: number; size: number }>()
  for (const d of discs) near.add({ x: d.x - d.size, y: d.y - d.size, w: 2 * d.size, h: 2 * d.size }, d)
  const out: PlacedLabel[] = []
  const pad = 2
  const count = () => {
    if (stats) stats.checks++
  }
  for (const c of order) {
    if (c.text === '') continue
    const w = width(c.text)
    const gap = c.size + 3
    const bh = height + pad * 2
    // Below and above clear a label beside a node on the same line.
    const vgap = Math.max(gap, height / 2 + pad)
    const below = c.y + vgap
    const above = c.y - vgap - bh
    const spots: { textX: number; textY: number; box: Box }[] = [
      { textX: c.x + gap, textY: c.y + height / 3, box: { x: c.x + gap - pad, y: c.y - height / 2 - pad, w: w + pad * 2, h: bh } },
      { textX: c.x - gap - w, textY: c.y + height / 3, box: { x: c.x - gap - w - pad, y: c.y - height / 2 - pad, w: w + pad * 2, h: bh } },
      { textX: c.x - w / 2, textY: below + pad + height * 0.8, box: { x: c.x - w / 2 - pad, y: below, w: w + pad * 2, h: bh } },
      { textX: c.x - w / 2, textY: above + pad + height * 0.8, box: { x: c.x - w / 2 - pad, y: above, w: w + pad * 2, h: bh } },
    ]
    const clash = (b: Box) => taken.some(b, (t) => (count(), overlaps(t, b)))
    const covers = (b: Box) =>
      near.some(b, (d) => (count(), (d.x !== c.x || d.y !== c.y) && d.x + d.size > b.x && d.x - d.size < b.x + b.w && d.y + d.size > b.y && d.y - d.size < b.y + b.h))
    const outside = (b: Box) =>
      area !== undefined && (b.x < 0 || b.y < 0 || b.x + b.w > area.w || b.y + b.h > area.h || area.avoid.some((a) => overlaps(a, b)))
    const free = spots.find((s) => !outside(s.box) && !clash(s.box) && !covers(s.box))
    // A forced label is always drawn: at its first spot free of labels (inside the area
    // if it can be), or its usual one.
    const spot = free ?? (c.forced ? (spots.find((s) => !outside(s.box) && !clash(s.box)) ?? spots.find((s) => !clash(s.box)) ?? spots[0]) : undefined)
    if (!spot) continue
    taken.add(spot.box, spot.box)
    out.push({ ...c, ...spot })
  }
  return out
}

/** labelAlpha fades a label in as its node grows past the size labels show at. */
export function labelAlpha(size: number, threshold: number, forced: boolean): number {
  if (forced) return 1
  return Math.max(0.25, Math.min(1, 0.25 + (0.75 * (size - threshold)) / Math.max(1, threshold)))
}

/**
 * LabelLayer draws sigma's node labels without overlap. Give drawLabel to sigma as its
 * defaultDrawNodeLabel; attach() hooks it to the renderer's frames. `placed` holds the
 * labels of the last frame (for the tests).
 */
export class LabelLayer<N extends Attributes, E extends Attributes> {
  private pending: LabelCandidate[] = []
  private settings: { labelSize: number; labelFont: string; labelWeight: string; labelColor: { color?: string }; labelRenderedSizeThreshold: number } | null = null
  placed: PlacedLabel[] = []

  /** sigma calls this for each label it would draw: collect it. */
  readonly drawLabel: NodeLabelDrawingFunction<N, E> = (_ctx, data, settings) => {
    if (!data.label) return
    this.settings = settings
    this.pending.push({ key: data.key, x: data.x, y: data.y, size: data.size, text: data.label, forced: data.forceLabel === true })
  }

  /**
   * attach places and draws the collected labels after each of sigma's frames, inside
   * the renderer's panel and off the boxes `obstacles` gives (in the panel's pixels).
   */
  attach(renderer: Sigma<N, E>, discs: () => { x: number; y: number; size: number }[], obstacles: () => Box[] = () => []): () => void {
    const before = () => (this.pending = [])
    const after = () => {
      const s = this.settings
      const ctx = renderer.getCanvases().labels?.getContext('2d')
      if (!s || !ctx || this.pending.length === 0) {
        this.placed = []
        return
      }
      ctx.font = `${s.labelWeight} ${s.labelSize}px ${s.labelFont}`
      const widths = new Map<string, number>()
      const width = (t: string) => widths.get(t) ?? (widths.set(t, ctx.measureText(t).width), widths.get(t)!)
      const { width: w, height: h } = renderer.getDimensions()
      this.placed = placeLabels(this.pending, width, s.labelSize, discs(), undefined, { w, h, avoid: obstacles() })
      ctx.fillStyle = s.labelColor.color ?? '#000'
      for (const p of this.placed) {
        ctx.globalAlpha = labelAlpha(p.size, s.labelRenderedSizeThreshold, p.forced)
        ctx.fillText(p.text, p.textX, p.textY)
      }
      ctx.globalAlpha = 1
      this.pending = []
    }
    renderer.on('beforeRender', before)
    renderer.on('afterRender', after)
    return () => {
      renderer.off('beforeRender', before)
      renderer.off('afterRender', after)
    }
  }
}

/**
 * labelDiscs are the nodes on screen a label should not cover: their position and
 * radius in pixels (none above `max` nodes, where checking costs too much).
 */
export function labelDiscs<N extends Attributes, E extends Attributes>(
  r: Sigma<N, E>,
  g: { order: number; forEachNode(cb: (id: string) => void): void } | null,
  max: number,
): { x: number; y: number; size: number }[] {
  if (!g || g.order > max) return []
  const { width, height } = r.getDimensions()
  const out: { x: number; y: number; size: number }[] = []
  g.forEachNode((id) => {
    const d = r.getNodeDisplayData(id)
    if (!d || d.hidden) return
    const p = r.framedGraphToViewport(d)
    if (p.x < -20 || p.y < -20 || p.x > width + 20 || p.y > height + 20) return
    out.push({ x: p.x, y: p.y, size: r.scaleSize(d.size) })
  })
  return out
}

/**
 * overlayBoxes are where the elements matching `selector` beside the canvas (the
 * graph's toolbar and legend) cover it, in the canvas's pixels: no label goes under them.
 */
export function overlayBoxes(canvas: HTMLElement, selector: string): Box[] {
  const root = canvas.parentElement
  if (!root) return []
  const c = canvas.getBoundingClientRect()
  const out: Box[] = []
  for (const el of root.querySelectorAll(selector)) {
    const r = el.getBoundingClientRect()
    if (r.width > 0 && r.height > 0) out.push({ x: r.left - c.left, y: r.top - c.top, w: r.width, h: r.height })
  }
  return out
}
