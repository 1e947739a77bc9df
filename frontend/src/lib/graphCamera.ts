// The graph's camera and the panel's size: the camera fitted to the drawing, the
// moment a camera move has been drawn, and a new drawing when the panel changes size.
import type Sigma from 'sigma'
import { debounce } from './debounce'
import { framePainted } from './frames'
import type { EdgeAttrs, NodeAttrs } from './graphModel'

type Renderer = Sigma<NodeAttrs, EdgeAttrs>

/** home is the camera's state at which sigma frames every node in the panel. */
function home() {
  return { x: 0.5, y: 0.5, ratio: 1, angle: 0 }
}

/** homeCamera puts the camera at home at once. */
export function homeCamera(renderer: Renderer) {
  renderer.getCamera().setState(home())
}

/**
 * fitCamera puts the camera where it shows the whole drawing in the panel,
 * `animate`d or at once.
 */
export function fitCamera(renderer: Renderer, animate: boolean): Promise<void> {
  const camera = renderer.getCamera()
  if (!animate) {
    camera.setState(home())
    return Promise.resolve()
  }
  // A newer move of the camera cuts this one short: do not wait for it then.
  return Promise.race([camera.animate(home(), { duration: 300 }), new Promise<void>((r) => setTimeout(r, 600))])
}

/**
 * stillAndDrawn resolves once the camera of renderer() has stopped and a frame has
 * been drawn where it stopped. The camera's last step sets its place inside an
 * animation frame, and sigma draws that place (and the picking layer a click is read
 * from) in the next.
 */
export async function stillAndDrawn(renderer: () => Renderer | null): Promise<void> {
  for (let i = 0; i < 100 && renderer()?.getCamera().isAnimated(); i++) await framePainted()
  await framePainted()
}

/** aspectOf is the panel's width over its height (1 before it has a size). */
export function aspectOf(container: HTMLElement | null): number {
  const w = container?.clientWidth ?? 0
  const h = container?.clientHeight ?? 0
  return w > 0 && h > 0 ? w / h : 1
}

/** What followSize needs of the renderer. */
export interface SizeDeps {
  /** The graph on screen is busy (see graphSigma's BUSY): drawn only once the size settles. */
  busy: () => boolean
  /** Resolves once the window has nothing of the person's to show first. */
  quiet: () => Promise<void>
  /** Fits the camera again, at once. */
  fit: () => void
}

/**
 * followSize draws the graph again, fitted, when the pane changes size (a splitter, a
 * panel opened or closed): sigma follows the window's size only. It returns a function
 * that stops following.
 *
 * The labels' grid is cut to the panel's size when sigma indexes the graph: once the
 * size stops changing, index again (which draws). A busy graph is drawn only then,
 * not at every step: each drawing of one costs a second or more in software WebGL,
 * and drawn in the frame that changed the panel's size (a note opened beside it
 * narrows it) it would hold that frame, the note with it, as long.
 */
export function followSize(container: HTMLElement, renderer: () => Renderer | null, deps: SizeDeps): () => void {
  const regrid = debounce(() => void deps.quiet().then(() => renderer()?.refresh()), 250)
  const resizer = new ResizeObserver(() => {
    const r = renderer()
    if (!r || container.clientWidth === 0 || container.clientHeight === 0) return
    const { width, height } = r.getDimensions()
    if (width === container.clientWidth && height === container.clientHeight) return
    deps.fit()
    if (!deps.busy()) r.scheduleRender()
    regrid()
  })
  resizer.observe(container)
  return () => {
    resizer.disconnect()
    regrid.cancel()
  }
}
