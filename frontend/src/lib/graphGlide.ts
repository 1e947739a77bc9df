// Moving the picture of a big graph with the camera, and drawing it again once the
// camera rests.
//
// In software WebGL (headless Chromium, a machine without a GPU) drawing 100k edges
// takes a second or more, and the window waits for it: a graph redrawn on every camera
// step pans at one frame per second. While the camera moves, the last picture is moved
// and scaled by the compositor instead (a CSS transform on sigma's layers, the same
// affine map the camera applies to the graph), and the graph is drawn again, whole, a
// moment after the camera stops. Parts that come into view during a pan stay blank
// until then.
import type Sigma from 'sigma'
import type { CameraState } from 'sigma/types'

/** A point in the viewport (CSS pixels from the top left of the graph's container). */
export interface Point {
  x: number
  y: number
}

/**
 * affineBetween returns the CSS matrix (a, b, c, d, e, f) that moves what was drawn
 * through `from` (viewport → graph) to where `to` (graph → viewport) puts it, for a
 * viewport of width×height. Camera maps are affine, so three corners determine it.
 */
export function affineBetween(
  from: (p: Point) => Point,
  to: (p: Point) => Point,
  width: number,
  height: number,
): [number, number, number, number, number, number] {
  const q0 = to(from({ x: 0, y: 0 }))
  const q1 = to(from({ x: width, y: 0 }))
  const q2 = to(from({ x: 0, y: height }))
  const w = width || 1
  const h = height || 1
  return [(q1.x - q0.x) / w, (q1.y - q0.y) / w, (q2.x - q0.x) / h, (q2.y - q0.y) / h, q0.x, q0.y]
}

export interface Glide {
  /** Stops gliding for good: the camera draws the graph on every step again. */
  stop(): void
}

/**
 * glide makes `renderer`'s camera move the last drawn picture while `active()` says so,
 * and draw the graph again `settleMs` after its last step. Layers are sigma's canvases
 * under `container`, except the mouse layer (it receives the events). When `active()`
 * is false, every camera step draws, as sigma does by itself.
 */
export function glide<N extends object, E extends object>(
  renderer: Sigma<N, E>,
  container: HTMLElement,
  active: () => boolean,
  settleMs = 150,
): Glide {
  const camera = renderer.getCamera()
  // sigma draws on every camera step through its own listener: ours replaces it.
  const own = camera.listeners('updated') as ((s: CameraState) => void)[]
  for (const l of own) camera.removeListener('updated', l)

  let drawn: CameraState | null = null
  let moved = false
  let timer: ReturnType<typeof setTimeout> | undefined

  const layers = () =>
    [...container.querySelectorAll('canvas')].filter((c) => !c.classList.contains('sigma-mouse')) as HTMLElement[]

  const place = (transform: string) => {
    for (const c of layers()) {
      c.style.transformOrigin = '0 0'
      c.style.transform = transform
    }
  }

  const afterRender = () => {
    drawn = camera.getState()
    if (moved) {
      moved = false
      place('')
    }
  }
  renderer.on('afterRender', afterRender)

  const settle = () => {
    timer = undefined
    renderer.scheduleRender()
  }

  const onCamera = () => {
    if (!active() || drawn === null) {
      renderer.scheduleRender()
      return
    }
    const { width, height } = renderer.getDimensions()
    const before = drawn
    const m = affineBetween(
      (p) => renderer.viewportToFramedGraph(p, { cameraState: before }),
      (p) => renderer.framedGraphToViewport(p, { cameraState: camera.getState() }),
      width,
      height,
    )
    moved = true
    place(`matrix(${m.map((v) => (Number.isFinite(v) ? v : 0)).join(',')})`)
    clearTimeout(timer)
    timer = setTimeout(settle, settleMs)
  }
  camera.on('updated', onCamera)

  return {
    stop() {
      clearTimeout(timer)
      camera.removeListener('updated', onCamera)
      renderer.off('afterRender', afterRender)
      for (const l of own) camera.on('updated', l)
      if (moved) place('')
    },
  }
}
