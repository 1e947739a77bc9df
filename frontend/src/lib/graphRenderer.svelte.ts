// The graph view's renderer: it makes sigma, puts the library's graph on screen (a big
// one in two steps, its edges drawn straight from the payload first), lays it out,
// follows the open note, the pending notes, the relation filter, the settings and a
// change set's diff, and keeps the camera fitted. GraphView.svelte owns the panel and
// calls it from its effects; what the panel shows around the canvas (the relation
// counts, the groups, a tooltip) are its reactive fields.
//
// The order of the steps is the window's timing, tuned for a 100k-note vault in
// software WebGL (see the git log of GraphView.svelte): sigma is made only once the
// tree is on screen (start, called when `hold` lets go); the first drawing, the
// completion of a big graph, the open note's highlight and the redraw at a new size
// wait for the next frame and for the window to be quiet (nothing of the person's to
// show first: see VaultStore.quiet), and a layout's positions wait behind that gate.
//
// Its parts: graphCamera (fitting, the panel's size), graphPointer (clicks, hover,
// edge labels), graphLayoutRun (one layout at a time), graphDiffView (a change set's
// diff), graphReducers (how each node and edge is drawn) and graphCanvas (sigma made).
import Sigma from 'sigma'
import type { ChangeSet, ChangeState, GraphData, GraphViewSettings } from '../api'
import type { GraphStore } from '../stores/graph.svelte'
import { afterNextFrame } from './frames'
import { BulkEdges, bulkEdgeProgram } from './graphBulkEdges'
import { aspectOf, fitCamera, followSize, homeCamera, stillAndDrawn } from './graphCamera'
import type { GraphDiff } from './graphDiff'
import { diffOver } from './graphDiffView'
import { glide } from './graphGlide'
import { applyGroups, groupsFor, type ActiveGroup } from './graphGroups'
import { LabelLayer, labelDiscs, overlayBoxes } from './graphLabels'
import { LayoutRunner } from './graphLayoutRun'
import {
  addEdgesInSlices,
  buildGraph,
  localGraph,
  payloadRelationCounts,
  positionsOf,
  relationCounts,
  sameNodes,
  searchNodes,
  type EdgeAttrs,
  type ModelGraph,
  type NodeAttrs,
  type Positions,
  type RelationCount,
} from './graphModel'
import { bulkStyle, reduceEdge, reduceNode, type ReducerState } from './graphReducers'
import { edgeLabels, listenPointer, type EdgeTip, type PointerState } from './graphPointer'
import { BIG, BUSY, globalLayoutMs, LABEL_DISCS, labelThreshold, localLayoutMs, renderOnBareRefresh, sizeSettings } from './graphSigma'
import { drawArrows, makeSigma, refreshNodes, ringNodes } from './graphCanvas'
import { followTheme, readTheme, type GraphTheme } from './graphTheme'
import { graphFilter, layoutForces, viewChange } from './graphViewSettings'
import { diffHook, graphHooks, newGraphState, type GraphState } from './graphHooks'

const emptyData: GraphData = { library: '', nodes: [], labels: [], types: [''], node_types: [], first_unresolved: 0, relations: [], edges: [], aliases: {} }

/** What the renderer is given by its panel. */
export interface RendererDeps {
  store: GraphStore
  /** Resolves once the window has nothing of the person's to show first (VaultStore.quiet). */
  quiet: () => Promise<void>
  /** Opens a note the person clicked. */
  onopen: (path: string) => void
}

export class GraphRenderer implements ReducerState, PointerState {
  /** Set once sigma exists, so the panel's effects run (again) then. */
  ready = $state(false)
  tip = $state<EdgeTip | null>(null)
  relations = $state.raw<RelationCount[]>([])
  groups = $state.raw<ActiveGroup[]>([])
  matchCount = $state<number | null>(null)
  localEmpty = $state(false)
  diffLabel = $state('')

  // What sigma draws and the reducers read: plain values, not reactive, since the
  // reducers run once per node and edge on every refresh.
  theme: GraphTheme = readTheme()
  thin = false
  diff: GraphDiff | null = null
  marked: ReadonlyMap<string, ChangeState> = new Map()
  matches: Set<string> | null = null
  current: string | null = null
  hovered: string | null = null
  /** The graph on screen: `full`, or a local graph copied from it. */
  shown: ModelGraph | null = null
  hidden: ReadonlySet<string> = new Set()
  groupOf: Map<string, number> = new Map()
  hiddenGroups: ReadonlySet<string> = new Set()
  /** How many edges are on screen: the shown graph's, or the bulk edges. */
  shownEdges = 0

  private readonly store: GraphStore
  private readonly quiet: () => Promise<void>
  private readonly onopen: (path: string) => void
  private container: HTMLDivElement | null = null
  private renderer: Sigma<NodeAttrs, EdgeAttrs> | null = null
  /** The library's whole graph. */
  private full: ModelGraph | null = null
  private readonly layout: LayoutRunner
  /** What start set going (label layer, size, theme, glide), stopped by destroy. */
  private stops: (() => void)[] = []
  /** The graph with a diff's ghosts (null when none). */
  private diffGraph: ModelGraph | null = null
  private diffSeq = 0
  private dataSeq = 0
  private readonly labels = new LabelLayer<NodeAttrs, EdgeAttrs>()
  private best: string[] = []
  /** A big graph's edges for its first drawing, before graphology and sigma have them. */
  private readonly bulk = new BulkEdges()
  /** Whether the first drawing is no longer held back (see GraphView's hold). */
  private released = false
  private readonly hooks: GraphState = newGraphState()

  constructor(deps: RendererDeps) {
    this.store = deps.store
    this.quiet = deps.quiet
    this.onopen = deps.onopen
    this.layout = new LayoutRunner(this.hooks, this.quiet)
  }

  /** The graph's settings, as the reducers read them. */
  get view() {
    return this.store.view
  }

  /** Whether a drawing was made (the first one is no longer held back). */
  get started(): boolean {
    return this.renderer !== null
  }

  /** colour applies the colour groups to a graph built from d. */
  private colour(g: ModelGraph, d: GraphData) {
    const view = this.store.view
    const r = applyGroups(g, groupsFor(d, view?.color_groups ?? []).groups)
    this.groups = r.active
    this.groupOf = r.groupOf
    this.hiddenGroups = new Set(view?.hidden_groups)
  }

  /**
   * runLayout lays `g` out for at most `ms`; `fresh` when no node had a position (the
   * drawing then takes the panel's shape). The camera fits the drawing once it is done.
   */
  private runLayout(g: ModelGraph, ms: number, fresh: boolean) {
    this.layout.stop()
    const view = this.store.view
    if (g.order < 2 || !view) return
    this.layout.run(g, ms, { aspect: aspectOf(this.container), fresh, forces: layoutForces(view) }, () => {
      if (g === this.full) this.store.positions = positionsOf(g)
      // Settled once the camera has fitted the drawing and a frame shows it there:
      // nodes stay where they are drawn, and a click finds them where they are seen.
      if (g === this.shown) {
        void this.fit(true)
          .then(() => stillAndDrawn(() => this.renderer))
          .then(() => (this.hooks.layout = this.layout.active))
      } else this.hooks.layout = false
    })
  }

  /**
   * fit puts the camera where it shows the whole drawing in the panel (sigma frames
   * every node in the panel at the camera's initial state), `animate`d or at once.
   */
  fit(animate: boolean): Promise<void> {
    if (!this.renderer) return Promise.resolve()
    this.hooks.fits++
    return fitCamera(this.renderer, animate)
  }

  /**
   * show puts a graph on screen, with the settings its size calls for; `edges` is how
   * many edges are on screen (the bulk edges, for the nodes of a big graph shown
   * before graphology has its edges).
   */
  private show(g: ModelGraph, resetCamera: boolean, edges = g.size) {
    const renderer = this.renderer
    if (!renderer) return
    this.shown = g
    this.shownEdges = edges
    graphHooks().__memotreeGraph = g
    this.hooks.nodes = g.order
    this.hooks.edges = edges
    // Each changed setting costs a refresh: change only what differs.
    const want = sizeSettings(edges, this.store.view?.text_fade ?? 0)
    for (const k of ['hideEdgesOnMove', 'hideLabelsOnMove', 'enableEdgeEvents', 'labelRenderedSizeThreshold'] as const) {
      if (renderer.getSetting(k) !== want[k]) renderer.setSetting(k, want[k])
    }
    this.thin = edges > BIG
    renderer.setGraph(g)
    this.computeMatches()
    if (resetCamera) homeCamera(renderer)
  }

  /**
   * setData builds the library's graph from new data, keeping the positions it had. A
   * big graph shown for the first time is drawn in two steps: its nodes with every edge
   * drawn straight from the payload (bulk), at once; and, once that is on screen, the
   * edges (the bulk of the work) added to graphology and sigma, which take over.
   */
  private setData(d: GraphData) {
    const view = this.store.view
    if (!view) return
    const seq = ++this.dataSeq
    const prev = this.full
    const positions = prev ? positionsOf(prev) : (this.store.positions ?? undefined)
    if (!prev && this.store.mode === 'global' && d.edges.length / 3 > BIG) {
      const nodes = buildGraph(d, positions, { edges: false, filter: graphFilter(view) })
      this.relations = payloadRelationCounts(d)
      this.colour(nodes, d)
      this.bulk.set(d, () => bulkStyle(this))
      this.show(nodes, true, this.bulk.count)
      // setGraph has drawn the nodes and the bulk edges, synchronously.
      performance.mark('graph:drawn')
      this.hooks.drawnAt ??= performance.now()
      this.hooks.nodesDrawnAt ??= this.hooks.drawnAt
      const complete = async () => {
        if (seq !== this.dataSeq || !this.renderer) return
        // A test holds the bulk drawing on screen to look at it.
        if (graphHooks().__memotreeHoldGraphEdges) return void setTimeout(complete, 50)
        // The edges go into graphology in slices, the window's thread free between
        // them (a second of work at 100k edges, more in a busy window), while sigma,
        // let go of the graph's events, goes on drawing what it has: the bulk edges.
        // show takes the graph back whole (setGraph binds its events again), as does
        // a newer setData that supersedes this one.
        ;(this.renderer as unknown as { unbindGraphHandlers?: () => void }).unbindGraphHandlers?.()
        const stale = () => seq !== this.dataSeq || !this.renderer
        if (!(await addEdgesInSlices(nodes, d, positions ?? new Map(), stale))) return
        if (stale()) return
        this.buildAndShow(d, prev, positions, nodes)
      }
      afterNextFrame(() => void this.quiet().then(complete))
      return
    }
    this.buildAndShow(d, prev, positions)
  }

  /**
   * buildAndShow builds the graph of d (or takes `nodesOnly`, whose nodes are drawn
   * already and whose edges setData has added since) and puts it on screen.
   */
  private buildAndShow(d: GraphData, prev: ModelGraph | null, positions: Positions | undefined, nodesOnly?: ModelGraph) {
    performance.mark('graph:build')
    let next: ModelGraph
    if (nodesOnly && this.renderer) {
      // Its edges are in (setData's complete), sigma let go of its events meanwhile:
      // sigma takes it back whole (show), through an empty graph, since setGraph does
      // nothing for the graph it has; all in this task, so no frame shows the empty one.
      this.bulk.clear()
      this.renderer.setGraph(buildGraph(emptyData))
      next = nodesOnly
    } else {
      const view = this.store.view
      if (!view) return
      next = buildGraph(d, positions, { filter: graphFilter(view) })
    }
    performance.mark('graph:built')
    const known = prev ? sameNodes(prev, next) : positions !== undefined && next.order === positions.size
    const layoutRunning = this.layout.active && this.shown === prev
    this.full = next
    graphHooks().__memotreeGraphFull = next
    this.relations = relationCounts(next)
    this.colour(next, d)
    if (this.store.mode === 'global') {
      this.layout.stop()
      this.show(next, !prev)
      // setGraph has drawn it, synchronously.
      if (this.hooks.drawnAt === null) performance.mark('graph:drawn')
      this.hooks.drawnAt ??= performance.now()
      this.hooks.nodesDrawnAt ??= this.hooks.drawnAt
      performance.mark('graph:complete')
      this.hooks.completeAt ??= performance.now()
      // A layout still running (a refresh came during the first seconds) goes on too.
      if (!known || layoutRunning) this.runLayout(next, globalLayoutMs(next), !prev && positions === undefined)
    } else {
      this.showLocal()
    }
  }

  private readonly follow = (relation: string) => !this.hidden.has(relation)

  /** showLocal draws the notes around the open one, and lays them out. */
  private showLocal() {
    const full = this.full
    if (!full || !this.renderer) return
    this.layout.stop()
    const centre = this.current && full.hasNode(this.current) ? this.current : null
    this.localEmpty = centre === null
    const g = centre ? localGraph(this.diffGraph ?? full, centre, this.store.depth, this.follow) : buildGraph(emptyData)
    this.show(g, true)
    this.runLayout(g, localLayoutMs(g), true)
  }

  /** showGlobal draws the library's graph again, laid out as it was (with a diff's ghosts). */
  private showGlobal() {
    const full = this.full
    if (!full) return
    this.localEmpty = false
    this.layout.stop()
    this.show(this.diffGraph ?? full, true)
    if (!this.store.positions) this.runLayout(full, globalLayoutMs(full), false)
  }

  private computeMatches() {
    this.best = this.shown ? searchNodes(this.shown, this.store.query) : []
    this.matches = this.store.query.trim() === '' ? null : new Set(this.best)
    this.matchCount = this.matches ? this.matches.size : null
  }

  /** openBest opens the best match of the search box (a note, not a missing name). */
  openBest() {
    const id = this.best.find((n) => !this.shown?.getNodeAttribute(n, 'unresolved'))
    if (id) this.onopen(id)
  }

  private readonly onTheme = () => {
    this.theme = readTheme()
    this.renderer?.setSetting('labelColor', { color: this.theme.label })
    this.renderer?.setSetting('edgeLabelColor', { color: this.theme.label })
    this.renderer?.refresh({})
  }

  /**
   * start makes sigma in the panel's container: once the tree is on screen (the
   * panel's hold), since its WebGL contexts and shaders take a tenth of a second of
   * the window's thread, and more of the GPU process's, that the tree's first paint
   * should not wait for.
   */
  start(container: HTMLDivElement) {
    this.container = container
    this.full = null
    this.shown = buildGraph(emptyData)
    const renderer = makeSigma(this.shown, container, {
      theme: this.theme,
      themeNow: () => this.theme,
      drawLabel: this.labels.drawLabel,
      drawEdgeLabel: edgeLabels(this, () => this.renderer?.getCamera().ratio ?? 1),
      bulk: bulkEdgeProgram(this.bulk),
      arrows: this.store.view?.show_arrows ?? false,
      nodeReducer: (node, a) => reduceNode(this, node, a),
      edgeReducer: (edge, a) => reduceEdge(this, edge, a),
    })
    this.renderer = renderer
    renderOnBareRefresh(renderer)
    const detachLabels = this.labels.attach(
      renderer,
      () => labelDiscs(renderer, this.shown, LABEL_DISCS),
      () => overlayBoxes(container, '[data-testid="graph-toolbar"], [data-testid="graph-legend"]'),
    )
    renderer.on('afterRender', () => this.outlineChanged())
    // Positions or reducers changed: the bulk edges follow.
    renderer.on('afterProcess', () => this.bulk.invalidate())
    renderer.on('afterRender', () => (this.hooks.bulkEdges = this.bulk.drawn))
    // A big graph is drawn once per camera move, not on every step: see graphGlide.
    const glider = glide(renderer, container, () => this.shownEdges > BUSY)
    listenPointer(renderer, container, this, (path) => this.onopen(path))
    const stopFollowingSize = followSize(container, () => this.renderer, {
      busy: () => this.shownEdges > BUSY,
      quiet: this.quiet,
      fit: () => void this.fit(false),
    })
    graphHooks().__memotreeSigma = renderer
    graphHooks().__memotreeGraphState = this.hooks
    graphHooks().__memotreeGraphLabels = this.labels
    this.stops = [stopFollowingSize, detachLabels, followTheme(this.onTheme), () => glider.stop()]
    this.ready = true
  }

  /** destroy lets sigma go, keeping the global graph's layout for the next panel. */
  destroy() {
    for (const stop of this.stops.splice(0)) stop()
    if (this.full && this.store.mode === 'global' && !this.layout.active) this.store.positions = positionsOf(this.full)
    this.layout.stop()
    this.renderer?.kill()
    this.renderer = null
  }

  /**
   * data shows new data from the store: rebuilt, keeping the positions of known
   * nodes. After the next frame: what the window has ready to show (the tree, a note
   * just opened) is painted first, as a big graph's drawing then holds the thread for
   * a second or more in software WebGL.
   */
  data(d: GraphData) {
    this.released = true
    afterNextFrame(() => void this.quiet().then(() => this.store.data === d && this.renderer && this.setData(d)))
  }

  /** Whether the first drawing has been let go (see GraphView's hold). */
  get isReleased(): boolean {
    return this.released
  }

  /** mode shows the global or the local graph (around `selected`). */
  mode(mode: string, selected: string | null) {
    this.current = selected
    this.hooks.mode = mode
    if (mode === 'local') this.showLocal()
    else if (this.shown !== this.full) this.showGlobal()
  }

  /**
   * redraw applies the reducers again after a change that concerns only `nodes` (and
   * their edges): on a big graph just those, not every node and edge.
   */
  private redraw(nodes: Iterable<string | null>) {
    const g = this.shown
    const renderer = this.renderer
    if (!renderer || !g) return
    this.bulk.invalidate()
    refreshNodes(renderer, g, nodes, this.shownEdges > BIG)
  }

  /**
   * select highlights the open note, once the frame that shows the note has been made:
   * in software WebGL (no GPU) each drawing of a big graph holds the window's thread
   * for a second or more, and the note must not wait behind it.
   */
  select(selected: string | null) {
    const before = this.current
    this.current = selected
    afterNextFrame(() => this.redraw([before, selected]))
  }

  /** mark marks the notes with pending changes. */
  mark(pending: ReadonlyMap<string, ChangeState>) {
    const before = this.marked
    this.marked = pending
    this.redraw([...before.keys(), ...pending.keys()])
  }

  /** hideRelations applies the relation filter: a local graph follows only the shown relations. */
  hideRelations(h: ReadonlySet<string>) {
    if (h === this.hidden) return
    this.hidden = h
    if (this.store.mode === 'local') this.showLocal()
    else this.renderer?.refresh({ skipIndexation: true })
  }

  /**
   * settings follows a change of the graph's settings from `before`: filters and
   * groups build the graph again (positions kept), forces lay it out again, the rest
   * is drawn again.
   */
  settings(before: GraphViewSettings | null, v: GraphViewSettings | null) {
    const renderer = this.renderer
    if (v === before || !v || !before) return
    if (v.show_arrows && !before.show_arrows && renderer) drawArrows(renderer)
    const change = viewChange(before, v)
    this.hiddenGroups = new Set(v.hidden_groups)
    if (change.rebuild) {
      if (this.store.data && this.released) this.setData(this.store.data)
      return
    }
    if (change.layout && this.shown) this.runLayout(this.shown, this.shown === this.full ? globalLayoutMs(this.shown) : 1500, false)
    if (!change.look || !renderer) return
    // Each setting changed costs sigma a whole indexing: only when it differs.
    const threshold = labelThreshold(this.shownEdges > BIG, v.text_fade)
    if (renderer.getSetting('labelRenderedSizeThreshold') !== threshold) renderer.setSetting('labelRenderedSizeThreshold', threshold)
    else renderer.refresh({ skipIndexation: true })
  }

  /** applyDiff shows (or, with null, stops showing) a change set's diff over the whole graph. */
  async applyDiff(set: ChangeSet | null) {
    const seq = ++this.diffSeq
    const g = this.full
    // Nothing shown and nothing to show: drawing the graph again would only cost time.
    if (!set && !this.diff) return
    if (!set || !g) {
      this.diff = null
      this.diffGraph = null
      this.diffLabel = ''
      graphHooks().__memotreeGraphDiff = null
    } else {
      const shown = await diffOver(this.store, g, set, () => seq !== this.diffSeq || g !== this.full)
      if (!shown) return
      this.diff = shown.diff
      this.diffGraph = shown.graph
      this.diffLabel = shown.label
      graphHooks().__memotreeGraphDiff = diffHook(set.id, shown.diff)
    }
    if (this.store.mode === 'local') this.showLocal()
    else if (this.full) this.show(this.diffGraph ?? this.full, false)
  }

  /** outlineChanged rings the notes a shown change set changed, after each frame. */
  private outlineChanged() {
    const r = this.renderer
    const g = this.shown
    const diff = this.diff
    if (!diff || !r || !g || diff.changedNodes.size === 0) return
    ringNodes(r, g, diff.changedNodes, this.theme.pending)
  }

  /** search highlights what the search box matches. */
  search() {
    this.computeMatches()
    this.renderer?.refresh({ skipIndexation: true })
  }
}
