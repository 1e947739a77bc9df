// Edges drawn straight from the graph payload's number array, without a graphology
// edge or a sigma edge record each: how a big graph's first drawing shows every edge
// at once. Sigma processes an edge in about 4 µs and graphology adds one in about 3 µs;
// on a 10k-note vault with 110k edges that was over a second before anything but the
// nodes could show. BulkEdges writes a line per edge into one vertex buffer (a few
// milliseconds) and draws it in sigma's edge layer, with sigma's camera matrix, through
// an edge program that sigma renders on every frame (bulkEdgeProgram). GraphView hands
// the edges to graphology and sigma a moment later, for everything else (edge labels,
// the local graph, the layout), and clears these.
//
// Not safe for concurrent use; it lives on the window's main thread like sigma.
import type Sigma from 'sigma'
import type { RenderParams } from 'sigma/types'
import type { AbstractEdgeProgram } from 'sigma/rendering'
import { parseColor } from 'sigma/utils'
import { LINKS_TO } from './graphModel'

/** The edges BulkEdges draws: the payload's node ids and edge triples. */
export interface BulkEdgeData {
  nodes: readonly string[]
  /** Triples: source node index, target node index, index into relations. */
  edges: ArrayLike<number>
  relations: readonly string[]
}

/**
 * How the bulk edges look, read on each rebuild: the colour of a relation's edges (a
 * CSS colour, or null to leave them out); the nodes whose edges alone are shown (the
 * search's matches), or null for all; the node whose edges take the accent colour.
 */
export interface BulkEdgeStyle {
  relationColor(relation: string): string | null
  only: ReadonlySet<string> | null
  focus: string | null
  accent: string
}

const VERTEX_SHADER = `
attribute vec2 a_position;
attribute vec4 a_color;
uniform mat3 u_matrix;
varying vec4 v_color;
void main() {
  gl_Position = vec4((u_matrix * vec3(a_position, 1)).xy, 0, 1);
  v_color = a_color;
}
`

const FRAGMENT_SHADER = `
precision mediump float;
varying vec4 v_color;
void main(void) {
  gl_FragColor = v_color;
}
`

interface GlState {
  gl: WebGLRenderingContext
  program: WebGLProgram
  positions: WebGLBuffer
  colors: WebGLBuffer
  aPosition: number
  aColor: number
  uMatrix: WebGLUniformLocation
}

/**
 * BulkEdges holds the edges of a graph shown by sigma without its edges, and draws
 * them as one-pixel lines. set gives it the edges; clear lets go of them; invalidate
 * makes the next frame rebuild the lines (positions or styles changed).
 */
export class BulkEdges {
  private data: BulkEdgeData | null = null
  private style: () => BulkEdgeStyle = () => ({ relationColor: () => null, only: null, focus: null, accent: '' })
  private renderer: Sigma | null = null
  private glState: GlState | null = null
  private dirty = true
  private colorCache = new Map<string, [number, number, number, number]>()
  /** How many lines the last rebuild wrote. */
  drawn = 0

  /** set gives the edges to draw; they are drawn from the next frame on. */
  set(data: BulkEdgeData, style: () => BulkEdgeStyle) {
    this.data = data
    this.style = style
    this.dirty = true
  }

  /** clear stops drawing bulk edges (the graph's own edges have taken over). */
  clear() {
    this.data = null
    this.drawn = 0
    this.dirty = true
  }

  /** active tells whether there are bulk edges to draw. */
  get active(): boolean {
    return this.data !== null
  }

  /** count is the number of edges held (drawn or left out by the style). */
  get count(): number {
    return this.data ? Math.floor(this.data.edges.length / 3) : 0
  }

  /** invalidate makes the next frame rebuild the lines. */
  invalidate() {
    this.dirty = true
  }

  /** attach binds to sigma's edge layer; called by the program sigma creates. */
  attach(gl: WebGLRenderingContext, renderer: Sigma) {
    this.renderer = renderer
    if (this.glState?.gl !== gl) this.glState = null
    this.dirty = true
  }

  /** detach forgets the layer (sigma killed the program). */
  detach() {
    const s = this.glState
    if (s) {
      s.gl.deleteBuffer(s.positions)
      s.gl.deleteBuffer(s.colors)
      s.gl.deleteProgram(s.program)
    }
    this.glState = null
    this.renderer = null
  }

  private rgba(color: string): [number, number, number, number] {
    let c = this.colorCache.get(color)
    if (!c) {
      const { r, g, b, a } = parseColor(color)
      c = [r, g, b, Math.round(a * 255)]
      this.colorCache.set(color, c)
    }
    return c
  }

  /** compile makes the shader program the first time there is something to draw. */
  private compile(gl: WebGLRenderingContext): GlState {
    const shader = (type: number, src: string) => {
      const s = gl.createShader(type)
      if (!s) throw new Error('bulk edges: cannot create a shader')
      gl.shaderSource(s, src)
      gl.compileShader(s)
      if (!gl.getShaderParameter(s, gl.COMPILE_STATUS)) throw new Error(`bulk edges: ${gl.getShaderInfoLog(s)}`)
      return s
    }
    const program = gl.createProgram()
    const positions = gl.createBuffer()
    const colors = gl.createBuffer()
    if (!program || !positions || !colors) throw new Error('bulk edges: cannot create a WebGL program')
    gl.attachShader(program, shader(gl.VERTEX_SHADER, VERTEX_SHADER))
    gl.attachShader(program, shader(gl.FRAGMENT_SHADER, FRAGMENT_SHADER))
    gl.linkProgram(program)
    if (!gl.getProgramParameter(program, gl.LINK_STATUS)) throw new Error(`bulk edges: ${gl.getProgramInfoLog(program)}`)
    const uMatrix = gl.getUniformLocation(program, 'u_matrix')
    if (!uMatrix) throw new Error('bulk edges: no u_matrix')
    return {
      gl,
      program,
      positions,
      colors,
      aPosition: gl.getAttribLocation(program, 'a_position'),
      aColor: gl.getAttribLocation(program, 'a_color'),
      uMatrix,
    }
  }

  /** rebuild writes every edge the style keeps as two vertices, from sigma's node positions. */
  private rebuild(s: GlState) {
    const d = this.data
    const r = this.renderer
    if (!d || !r) return
    const lines = bulkLines(d, (id) => r.getNodeDisplayData(id), this.style(), (c) => this.rgba(c))
    const gl = s.gl
    gl.bindBuffer(gl.ARRAY_BUFFER, s.positions)
    gl.bufferData(gl.ARRAY_BUFFER, lines.positions, gl.STATIC_DRAW)
    gl.bindBuffer(gl.ARRAY_BUFFER, s.colors)
    gl.bufferData(gl.ARRAY_BUFFER, lines.colors, gl.STATIC_DRAW)
    this.drawn = lines.count
  }

  /** render draws the lines with sigma's camera; sigma calls it on every frame. */
  render(params: RenderParams, gl: WebGLRenderingContext) {
    if (!this.data || !this.renderer) return
    const s = (this.glState ??= this.compile(gl))
    if (this.dirty) {
      this.rebuild(s)
      this.dirty = false
    }
    if (this.drawn === 0) return
    gl.bindFramebuffer(gl.FRAMEBUFFER, null)
    gl.viewport(0, 0, params.width * params.pixelRatio, params.height * params.pixelRatio)
    gl.enable(gl.BLEND)
    gl.useProgram(s.program)
    gl.uniformMatrix3fv(s.uMatrix, false, params.matrix)
    gl.bindBuffer(gl.ARRAY_BUFFER, s.positions)
    gl.enableVertexAttribArray(s.aPosition)
    gl.vertexAttribPointer(s.aPosition, 2, gl.FLOAT, false, 0, 0)
    gl.bindBuffer(gl.ARRAY_BUFFER, s.colors)
    gl.enableVertexAttribArray(s.aColor)
    gl.vertexAttribPointer(s.aColor, 4, gl.UNSIGNED_BYTE, true, 0, 0)
    gl.drawArrays(gl.LINES, 0, this.drawn * 2)
    gl.disableVertexAttribArray(s.aPosition)
    gl.disableVertexAttribArray(s.aColor)
  }
}

/** The vertices of the bulk lines: x, y per vertex; RGBA bytes per vertex. */
export interface BulkLines {
  positions: Float32Array
  colors: Uint8Array
  count: number
}

/**
 * bulkLines writes a line (two vertices) for every edge of d whose ends have a
 * position and that the style keeps. Edges naming no node are skipped.
 */
export function bulkLines(
  d: BulkEdgeData,
  positionOf: (id: string) => { x: number; y: number; hidden?: boolean } | undefined,
  style: BulkEdgeStyle,
  rgba: (color: string) => readonly [number, number, number, number],
): BulkLines {
  const n = d.nodes.length
  // The positions once per node, not twice per edge.
  const xy = new Float32Array(n * 2)
  const known = new Uint8Array(n)
  for (let i = 0; i < n; i++) {
    const p = positionOf(d.nodes[i]!)
    if (!p || p.hidden) continue
    xy[i * 2] = p.x
    xy[i * 2 + 1] = p.y
    known[i] = 1
  }
  // The style by relation and by node, so the loop over the edges reads numbers only.
  const colors = d.relations.map((r) => {
    const c = style.relationColor(r)
    return c === null ? null : rgba(c)
  })
  const only = style.only
  const shownEnd = new Uint8Array(n)
  for (let i = 0; i < n; i++) if (!only || only.has(d.nodes[i]!)) shownEnd[i] = 1
  // An edge with no known relation is a plain link, as graphModel.addEdges has it.
  const unknown = style.relationColor(LINKS_TO)
  const unknownColor = unknown === null ? null : rgba(unknown)
  const focus = style.focus === null ? -1 : d.nodes.indexOf(style.focus)
  const accent = rgba(style.accent)
  const e = d.edges
  const m = Math.floor(e.length / 3)
  const pos = new Float32Array(m * 4)
  const col = new Uint8Array(m * 8)
  let k = 0
  for (let i = 0; i < m; i++) {
    const a = e[i * 3]!
    const b = e[i * 3 + 1]!
    if (!(a >= 0 && a < n && b >= 0 && b < n) || !known[a] || !known[b]) continue
    const rel = e[i * 3 + 2]!
    let c = rel >= 0 && rel < colors.length ? colors[rel] : unknownColor
    if (!c || !(shownEnd[a] || shownEnd[b])) continue
    if (a === focus || b === focus) c = accent
    pos[k * 4] = xy[a * 2]!
    pos[k * 4 + 1] = xy[a * 2 + 1]!
    pos[k * 4 + 2] = xy[b * 2]!
    pos[k * 4 + 3] = xy[b * 2 + 1]!
    const o = k * 8
    col[o] = col[o + 4] = c[0]
    col[o + 1] = col[o + 5] = c[1]
    col[o + 2] = col[o + 6] = c[2]
    col[o + 3] = col[o + 7] = c[3]
    k++
  }
  return { positions: pos.subarray(0, k * 4), colors: col.subarray(0, k * 8), count: k }
}

/**
 * bulkEdgeProgram makes the sigma edge program class that draws `bulk`: register it
 * under an edge type no edge has, and sigma renders it with its edge layer on every
 * frame (hidden while the camera moves when hideEdgesOnMove is set, as sigma's own
 * edges). It never receives an edge of its own.
 */
export function bulkEdgeProgram(bulk: BulkEdges) {
  return class BulkEdgeProgram implements AbstractEdgeProgram {
    drawLabel = undefined
    private gl: WebGLRenderingContext
    constructor(gl: WebGLRenderingContext, _pickingBuffer: WebGLFramebuffer | null, renderer: Sigma) {
      this.gl = gl
      bulk.attach(gl, renderer)
    }
    reallocate(_capacity: number) {}
    process() {}
    render(params: RenderParams) {
      bulk.render(params, this.gl)
    }
    kill() {
      bulk.detach()
    }
  }
}

/**
 * UnusedEdgeProgram takes the place of sigma's default arrow program, which no edge
 * here uses: sigma compiles every registered program when it starts (the arrow is
 * four WebGL programs, a noticeable part of the window's start in software WebGL).
 * It draws nothing.
 */
export class UnusedEdgeProgram implements AbstractEdgeProgram {
  drawLabel = undefined
  constructor(_gl: WebGLRenderingContext, _pickingBuffer: WebGLFramebuffer | null, _renderer: Sigma) {}
  reallocate(_capacity: number) {}
  process() {}
  render(_params: RenderParams) {}
  kill() {}
}
