import { afterEach, beforeEach, expect, test, vi } from 'vitest'
import type { Api } from '../api'
import type { EventPayloads, TaskProgress } from '../api/events'
import type { CanvasView, FileEntry, GraphData, NoteBefore, NoteView, SaveResult, SearchResults, SwitchItem, VaultSettingsView } from '../api/types'
import { colorForType, typeColors, UNTYPED_COLOR } from '../lib/colors'
import { note, vaultSettingsView } from '../lib/testdata'
import { settled, waitFor } from '../lib/testing'
import { GraphStore } from './graph.svelte'
import { connectLive, LIVE_DEBOUNCE_MS } from './live'
import { QUIET_LIMIT_MS, VaultStore } from './vault.svelte'

/** A hand-written fake of the backend over an in-memory vault. */
class FakeApi implements Api {
  notes = new Map<string, NoteView>()
  calls: string[] = []
  rendered: string[] = []
  listeners: { topic: keyof EventPayloads; cb: (e: never) => void }[] = []
  // The git panel has its own store and tests (git.test.ts).
  git = {} as Api['git']

  put(n: NoteView) {
    this.notes.set(n.path, n)
  }
  /** The open libraries; the first is the default. */
  libs = ['demo']
  activated: string[] = []
  async libraries() {
    if (this.librariesGate) await this.librariesGate
    return this.libs.map((name, i) => ({ name, path: `/v/${name}`, notes: this.notes.size, is_default: i === 0 }))
  }
  /** The library of every files call ("" for the default). */
  filesAsked: string[] = []
  /** When set, libraries() waits for it (a slow answer). */
  librariesGate: Promise<void> | null = null
  async files(library = ''): Promise<FileEntry[]> {
    this.calls.push('files')
    this.filesAsked.push(library)
    return [...this.notes.values()]
      .sort((a, b) => a.path.localeCompare(b.path))
      .map((n) => ({ path: n.path, is_note: true, ...(n.entity_type ? { entity_type: n.entity_type } : {}) }))
  }
  async note(_lib: string, path: string): Promise<NoteView> {
    this.calls.push(`note ${path}`)
    const n = this.notes.get(path)
    if (!n) throw new Error(`read note ${path}: not found`)
    return n
  }
  /** The library of every graph call ("" for the default). */
  graphAsked: string[] = []
  async graph(library = ''): Promise<GraphData> {
    this.calls.push('graph')
    this.graphAsked.push(library)
    const nodes = [...this.notes.keys()]
    return {
      library: library || 'demo',
      nodes,
      labels: nodes,
      types: [''],
      node_types: nodes.map(() => 0),
      first_unresolved: nodes.length,
      relations: [],
      edges: [],
      aliases: {},
    }
  }
  async reportRendered(r: { library: string; notes: number }) {
    this.rendered.push(`${r.library}:${r.notes}`)
  }
  reportWelcome = async () => {}
  vaults = () => Promise.reject(new Error('no vault switcher in this fake'))
  openVault = () => Promise.reject(new Error('no vault switcher in this fake'))
  openDemoVault = this.openVault
  pickFolder = async () => ''
  closeVault = async () => {}
  activateVault = async (library: string) => {
    this.activated.push(library)
  }
  forgetVault = async () => {}
  revealNote = async () => {}
  async tasks(): Promise<TaskProgress[]> {
    return []
  }
  // The editor has its own store and tests (editor.test.ts).
  async saveNote(): Promise<SaveResult> {
    throw new Error('not used here')
  }
  // The chat is not exercised here (see chat.test.ts).
  // The vault's and the person's settings have their own tests (settings.test.ts).
  vaultSettings = async (library: string): Promise<VaultSettingsView> => vaultSettingsView(library || 'demo')
  saveVaultSettings = this.vaultSettings
  personSettings = () => Promise.reject(new Error('no person settings in this fake'))
  savePersonSettings = this.personSettings
  graphBefore = async (): Promise<NoteBefore[]> => []
  chatSend = () => Promise.reject(new Error('no chat'))
  chatStop = async () => {}
  chatApprove = async () => {}
  approvals = async () => []
  answerApproval = async () => {}
  chatSessions = async () => []
  chatSession = () => Promise.reject(new Error('no chat'))
  chatLive = () => Promise.resolve({ session: '', turn: '', prompt: '', started: '', events: [] })
  chatSettings = () => Promise.reject(new Error('no chat'))
  saveChatSettings = () => Promise.reject(new Error('no chat'))
  testChatConnection = () => Promise.reject(new Error('no chat'))
  canvas = (): Promise<CanvasView> => Promise.reject(new Error('no canvas in this fake'))
  canvasExpand = this.canvas
  canvasCollapse = this.canvas
  canvasPin = this.canvas
  async quickSwitch(): Promise<SwitchItem[]> {
    return []
  }
  async search(): Promise<SearchResults> {
    return { hits: [], message: '', partial: false }
  }
  on<T extends keyof EventPayloads>(topic: T, cb: (e: EventPayloads[T]) => void) {
    const l = { topic, cb: cb as (e: never) => void }
    this.listeners.push(l)
    return () => {
      this.listeners = this.listeners.filter((x) => x !== l)
    }
  }
  emit(e: EventPayloads['vault:changed']) {
    for (const l of this.listeners) if (l.topic === 'vault:changed') (l.cb as (e: EventPayloads['vault:changed']) => void)(e)
  }
  emitTask(p: TaskProgress) {
    for (const l of this.listeners) if (l.topic === 'task:progress') (l.cb as (e: TaskProgress) => void)(p)
  }
}

let api: FakeApi
beforeEach(() => {
  api = new FakeApi()
  api.put(note('a.md', 'A links [[b]] and embeds\n\n![[b]]', { b: 'b.md' }))
  api.put(note('b.md', 'Bee'))
})
afterEach(() => {
  vi.useRealTimers()
})

test('init loads the default library and opens the initial note with its embeds', async () => {
  const v = new VaultStore(api)
  await v.init('a.md')
  expect(v.library).toBe('demo')
  expect(v.files.map((f) => f.path)).toEqual(['a.md', 'b.md'])
  expect(v.note?.path).toBe('a.md')
  expect([...v.embeds.keys()]).toEqual(['b.md'])
  expect(v.resolver('b')).toBe('b.md')
})

test('init asks for the default library\'s files beside the libraries, not after them, and only once', async () => {
  let open = () => {}
  api.librariesGate = new Promise<void>((r) => (open = r))
  const v = new VaultStore(api)
  const done = v.init()
  // The list of libraries is not in yet; the files are asked for already.
  await waitFor(() => expect(api.filesAsked).toEqual(['']))
  open()
  await done
  expect(v.library).toBe('demo')
  expect(v.files.map((f) => f.path)).toEqual(['a.md', 'b.md'])
  expect(api.filesAsked).toEqual([''])
})

test('init lists the files by name when the early answer failed', async () => {
  const files = api.files.bind(api)
  api.files = async (library = '') => {
    if (library === '') {
      api.filesAsked.push(library)
      throw new Error('no library is open')
    }
    return files(library)
  }
  const v = new VaultStore(api)
  await v.init()
  expect(v.files.map((f) => f.path)).toEqual(['a.md', 'b.md'])
  expect(api.filesAsked).toEqual(['', 'demo'])
  expect(v.error).toBeNull()
})

test('a note that fails to load shows an error, not a stale note', async () => {
  const v = new VaultStore(api)
  await v.init()
  await v.open('missing.md')
  expect(v.note).toBeNull()
  expect(v.noteError).toContain('not found')
})

test('the slower of two opens does not win', async () => {
  const v = new VaultStore(api)
  await v.init()
  const first = v.open('a.md')
  const second = v.open('b.md')
  await Promise.all([first, second])
  expect(v.note?.path).toBe('b.md')
})

test('a deleted open note is reported', async () => {
  const v = new VaultStore(api)
  await v.init('b.md')
  api.notes.delete('b.md')
  await v.applyChange({ library: 'demo', rescan: false })
  expect(v.note).toBeNull()
  expect(v.noteError).toContain('b.md')
})

test('the tree and the note colour entity types as the graph does, even types whose usual colours collide', async () => {
  const api = new FakeApi()
  // "memory" usually takes person's colour (graphModel.test.ts); in one library they differ.
  api.put(note('p.md', 'P', {}, { entity_type: 'person' }))
  api.put(note('m.md', 'M', {}, { entity_type: 'Memory' }))
  const v = new VaultStore(api)
  await v.init('')
  expect(colorForType('memory')).toBe(colorForType('person')) // the collision this test is about
  const graphColors = typeColors(['person', 'Memory'])
  expect(v.colorOf('memory')).toBe(graphColors.get('memory'))
  expect(v.colorOf('Memory ')).toBe(graphColors.get('memory'))
  expect(v.colorOf('person')).toBe(graphColors.get('person'))
  expect(v.colorOf('memory')).not.toBe(v.colorOf('person'))
  expect(v.colorOf('')).toBe(UNTYPED_COLOR)
})

test('reportRendered reports once per library', async () => {
  api.libs = ['demo', 'work']
  const v = new VaultStore(api)
  await v.init('')
  v.reportRendered(2)
  v.reportRendered(3)
  await v.switchLibrary('work')
  v.reportRendered(4)
  expect(api.rendered).toEqual(['demo:2', 'work:4'])
  expect(api.activated).toEqual(['work'])
})

test('libraries:changed shows a vault just opened, and the default or none when the one shown closes', async () => {
  api.put(note('a.md', 'A'))
  const v = new VaultStore(api)
  await v.init('a.md')
  expect(v.library).toBe('demo')
  expect(v.note?.path).toBe('a.md')

  api.libs = ['demo', 'work']
  expect(await v.applyLibraries({ libraries: api.libs, opened: 'work', closed: '', path: '/v/work', gone: false })).toBe('work')
  expect(v.libraries.map((l) => l.name)).toEqual(['demo', 'work'])
  expect(v.note).toBeNull()

  // Another library closing leaves the one shown.
  api.libs = ['work']
  expect(await v.applyLibraries({ libraries: api.libs, opened: '', closed: 'demo', path: '/v/demo', gone: false })).toBe('work')

  // The one shown is deleted: none is left, the tree is emptied, and the window says why.
  api.libs = []
  expect(await v.applyLibraries({ libraries: [], opened: '', closed: 'work', path: '/v/work', gone: true })).toBe('')
  expect(v.files).toEqual([])
  expect(v.filesLoaded).toBe(true)
  expect(v.goneNotice).toContain('/v/work')
  expect(v.libraries).toEqual([])
})

test('a burst of vault:changed events refetches files, note and graph once', async () => {
  vi.useFakeTimers()
  const v = new VaultStore(api)
  const g = new GraphStore(api)
  await v.init('a.md')
  const off = connectLive(api, v, g)
  api.calls = []
  api.put(note('a.md', 'A changed'))
  api.emit({ library: 'demo', paths: ['a.md'], rescan: false })
  api.emit({ library: 'demo', paths: ['a.md'], rescan: false })
  api.emit({ library: 'other', paths: ['x.md'], rescan: false })
  await vi.advanceTimersByTimeAsync(LIVE_DEBOUNCE_MS + 1)
  expect(api.calls.filter((c) => c === 'files')).toHaveLength(1)
  expect(api.calls.filter((c) => c === 'graph')).toHaveLength(1)
  expect(v.note?.content).toBe('A changed')
  expect(g.data?.nodes).toHaveLength(2)
  api.calls = []
  api.emit({ library: 'other', paths: ['x.md'], rescan: false })
  await vi.advanceTimersByTimeAsync(LIVE_DEBOUNCE_MS + 1)
  expect(api.calls).toEqual([])
  off()
  expect(api.listeners).toHaveLength(0)
})

test('the end of a first scan loads the files again (their types: the tree came from the folder)', async () => {
  const v = new VaultStore(api)
  await v.init('')
  const off = connectLive(api, v, new GraphStore(api))
  api.calls = []
  api.emitTask({ library: 'demo', kind: 'scan', done: 10, total: 20, final: false })
  api.emitTask({ library: 'other', kind: 'scan', done: 20, total: 20, final: true })
  api.emitTask({ library: 'demo', kind: 'search-index', done: 20, total: 20, final: true })
  expect(api.calls).toEqual([])
  api.emitTask({ library: 'demo', kind: 'scan', done: 20, total: 20, final: true })
  await waitFor(() => expect(api.calls).toEqual(['files']))
  off()
  expect(api.listeners).toHaveLength(0)
})

test('the end of a first scan loads a note opened during it again (its links and backlinks), and a full one not', async () => {
  api.put({ ...note('a.md', 'A'), partial: true })
  const v = new VaultStore(api)
  await v.init('a.md')
  expect(v.note?.partial).toBe(true)
  const off = connectLive(api, v, new GraphStore(api))
  api.calls = []
  api.put(note('a.md', 'A'))
  api.emitTask({ library: 'demo', kind: 'scan', done: 20, total: 20, final: true })
  await waitFor(() => expect(v.note?.partial).toBeFalsy())
  expect(api.calls.sort()).toEqual(['files', 'note a.md'])
  api.calls = []
  api.emitTask({ library: 'demo', kind: 'scan', done: 20, total: 20, final: true })
  await waitFor(() => expect(api.calls).toEqual(['files']))
  off()
})

test('quiet waits for a note being loaded and the frame that shows it, and no longer than its limit', async () => {
  const frames: (() => void)[] = []
  vi.stubGlobal('requestAnimationFrame', (cb: FrameRequestCallback) => frames.push(() => cb(0)))
  let release = () => {}
  const gate = new Promise<void>((r) => (release = r))
  const answer = api.note.bind(api)
  const asked: string[] = []
  api.note = async (lib, path) => (asked.push(path), await gate, answer(lib, path))
  const v = new VaultStore(api)
  await v.quiet() // nothing loading: at once
  let quiet = false
  const opening = v.open('a.md')
  void v.quiet().then(() => (quiet = true))
  await waitFor(() => expect(asked).toEqual(['a.md'])) // the note's answer is awaited
  await settled()
  expect(quiet).toBe(false)
  release()
  await opening
  expect(v.note?.path).toBe('a.md')
  await waitFor(() => expect(frames.length).toBeGreaterThan(0)) // the frame that shows it is asked for
  await settled()
  expect(quiet).toBe(false) // the frame that shows the note is not made yet
  for (const f of frames.splice(0)) f()
  await waitFor(() => expect(quiet).toBe(true))

  // A note whose answer never comes.
  vi.useFakeTimers()
  api.note = () => new Promise(() => {})
  void v.open('b.md')
  let late = false
  void v.quiet().then(() => (late = true))
  await vi.advanceTimersByTimeAsync(QUIET_LIMIT_MS - 10)
  expect(late).toBe(false)
  await vi.advanceTimersByTimeAsync(20)
  expect(late).toBe(true)
  vi.unstubAllGlobals()
})

test('the graph asked for before the library is known serves the first load of that library, not of another', async () => {
  const api = new FakeApi()
  const graph = new GraphStore(api)
  graph.prefetch()
  await graph.load('demo')
  expect(api.graphAsked).toEqual([''])
  expect(graph.data?.library).toBe('demo')
  await graph.load('demo')
  expect(api.graphAsked).toEqual(['', 'demo'])

  const other = new FakeApi()
  const g2 = new GraphStore(other)
  g2.prefetch()
  await g2.load('other')
  expect(other.graphAsked).toEqual(['', 'other'])
  expect(g2.data?.library).toBe('other')
})

test('the graph asked for early is shown as soon as it is in, and the first load of its library takes it as it is', async () => {
  const api = new FakeApi()
  const graph = new GraphStore(api)
  graph.prefetch()
  await waitFor(() => expect(graph.data?.library).toBe('demo'))
  const early = graph.data
  await graph.load('demo')
  expect(api.graphAsked).toEqual([''])
  expect(graph.data).toBe(early)
  // Later loads (a change in the vault) ask again.
  await graph.load('demo')
  expect(api.graphAsked).toEqual(['', 'demo'])

  // Another library's first load asks for its own graph.
  const other = new FakeApi()
  const g2 = new GraphStore(other)
  g2.prefetch()
  await waitFor(() => expect(g2.data?.library).toBe('demo'))
  await g2.load('other')
  expect(other.graphAsked).toEqual(['', 'other'])
  expect(g2.data?.library).toBe('other')
})

test('the graph store keeps the depth in range, toggles relations, and forgets a layout on a library switch', async () => {
  const api = new FakeApi()
  api.put(note('a.md', 'A'))
  const graph = new GraphStore(api)
  await graph.load('demo')
  expect(graph.data?.nodes).toEqual(['a.md'])
  graph.setDepth(7)
  expect(graph.depth).toBe(3)
  graph.setDepth(0)
  expect(graph.depth).toBe(1)
  graph.setDepth(2)
  expect(graph.depth).toBe(2)
  graph.toggleRelation('links to', false)
  graph.toggleRelation('part of', false)
  expect([...graph.hiddenRelations].sort()).toEqual(['links to', 'part of'])
  graph.toggleRelation('links to', true)
  expect([...graph.hiddenRelations]).toEqual(['part of'])
  graph.positions = new Map([['a.md', { x: 1, y: 2 }]])
  await graph.load('demo')
  expect(graph.positions?.size).toBe(1)
  await graph.load('other')
  expect(graph.positions).toBeNull()
})

test('init shows the default library\'s files as soon as they are in, before the list of libraries', async () => {
  let open = () => {}
  api.librariesGate = new Promise<void>((r) => (open = r))
  const v = new VaultStore(api)
  const done = v.init()
  // The list of libraries is not in yet; the tree has its files already.
  await waitFor(() => expect(v.filesLoaded).toBe(true))
  expect(v.files.map((f) => f.path)).toEqual(['a.md', 'b.md'])
  expect(v.library).toBe('')
  open()
  await done
  expect(v.library).toBe('demo')
  expect(v.files.map((f) => f.path)).toEqual(['a.md', 'b.md'])
  expect(api.filesAsked).toEqual([''])
})
