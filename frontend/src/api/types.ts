import type { BackupSettings } from './conflictTypes'

// Shapes exchanged with the backend (Go package backend/uiapi), written by hand to match
// its json tags. Both transports return exactly these.

/** A mounted library (vault folder). */
export interface LibraryInfo {
  name: string
  path: string
  notes: number
  is_default: boolean
}

/** What the window reports once a library's tree is rendered (the smoke test prints it). */
export interface RenderReport {
  library: string
  notes: number
  /** The panels open, as remembered ("sidebar graph side=git"). */
  layout: string
}

/** A vault the welcome offers: a recent one, or one Obsidian knows. */
export interface KnownVault {
  name: string
  path: string
  /** When it was last opened (RFC 3339), "" when unknown. */
  opened: string
  /** The folder is there now. */
  exists: boolean
  /** The open library that is this folder, "" when it is not open. */
  library: string
}

/** What the welcome and the vault switcher show (Vaults). */
export interface VaultsView {
  open: LibraryInfo[]
  recent: KnownVault[]
  obsidian: KnownVault[]
  /** Vaults may be opened and closed here (not in `serve --library`). */
  can_open: boolean
  /** The system's folder chooser is there (the desktop app). */
  can_pick_folder: boolean
  /** RevealNote works (the desktop app). */
  can_reveal: boolean
  /** Problems met before the window opened. */
  notices: string[]
}

/**
 * One file of a library, as listed by Files (kept short: a 100k-note vault lists as
 * many; a note's name is its path without ".md").
 */
export interface FileEntry {
  /** Vault-relative, slash-separated: "people/Ada Lovelace.md". */
  path: string
  is_note: boolean
  /** The note's entity type; absent for an untyped note, another file, and every file while the first scan runs. */
  entity_type?: string
}

/**
 * A library's files as the backend sends them (Go: uiapi.FileList): tables, not one
 * object per file (at 100k notes, a third less to send and to parse). readFileList
 * makes the FileEntry list of it.
 */
export interface FileList {
  /** Every file's vault path, sorted. */
  paths: string[]
  /** Indexes into paths of the files that are not notes. */
  attachments: number[]
  /** The entity types the notes carry. */
  types: string[]
  /** Pairs: an index into paths, one into types; one pair per typed note. */
  typed: number[]
}

export type LinkKind = 'wiki' | 'embed' | 'markdown'

/** One outgoing link of a note. */
export interface LinkView {
  kind: LinkKind
  target: string
  subpath: string
  display: string
  /** UTF-8 byte offsets into NoteView.content, end exclusive. */
  start: number
  end: number
  line: number
  /** The vault path it resolves to, or "" when unresolved. */
  resolved: string
}

/** One link pointing at a note from another. */
export interface BacklinkView {
  path: string
  name: string
  line: number
  /** The source line's text. */
  context: string
}

export interface Heading {
  level: number
  text: string
  line: number
}

export interface Warning {
  line: number
  message: string
}

/** Everything the window shows of one note. */
export interface NoteView {
  library: string
  path: string
  name: string
  /** The raw file text. */
  content: string
  hash: string
  entity_type: string
  aliases: string[]
  tags: string[]
  summary: string
  /** Decoded front matter; null or empty when the note has none. */
  properties: Record<string, unknown> | null
  /** UTF-8 byte offset where the body starts (after the front matter). */
  body_start: number
  links: LinkView[]
  backlinks: BacklinkView[]
  /** How many backlinks there are; more than backlinks.length when the list was cut. */
  backlinks_total?: number
  headings: Heading[]
  warnings: Warning[]
  /**
   * The library's first scan is still running: the note's links are not resolved
   * (links is empty) nor its backlinks known. Asked again once the scan ends.
   */
  partial?: boolean
}

/** The outcome of saving the editor's text (Go: uiapi.SaveResult). */
export interface SaveResult {
  /** The note's hash after the save, or, on a conflict, of the version on disk. */
  hash: string
  /** True when the note changed on disk since it was loaded: nothing was written. */
  conflict: boolean
  /** The text on disk, on a conflict. */
  current?: string
  /** True, with conflict, when the note was deleted meanwhile. */
  deleted?: boolean
}

/**
 * The whole graph of a library, compact (backend/uiapi/graph.go): nodes are numbered
 * by their position in `nodes`, each edge is three numbers in `edges`.
 */
export interface GraphData {
  /** The library the graph is of (the default one's name for a request of ""). */
  library: string
  /**
   * Node ids: a note's vault path, an attachment's vault path, or "unresolved:<name>"
   * for a missing link target; notes first, then attachments, then unresolved names.
   */
  nodes: string[]
  /** The name shown for each node, parallel to nodes. */
  labels: string[]
  /** Entity types; types[0] is "" (untyped). */
  types: string[]
  /** An index into types for each node. */
  node_types: ArrayLike<number>
  /** Nodes from this index to first_unresolved are attachments (absent: none). */
  first_attachment?: number
  /** Nodes from this index on are unresolved names. */
  first_unresolved: number
  /** The tags notes carry, without "#" (absent: none). */
  tags?: string[]
  /** Pairs: a node index and an index into tags (absent: none). */
  note_tags?: ArrayLike<number>
  /** Edge types: "links to", "embeds" or a relation type. */
  relations: string[]
  /**
   * Triples: source node, target node, index into relations (an Int32Array when the
   * graph was read off the window's thread, see graphFetch.ts).
   */
  edges: ArrayLike<number>
  /** Aliases of the notes that have some, by node index. */
  aliases: Record<string, string[]>
}

// The graph's settings and a change set's before-state (backend/uiapi/graphsettings.go,
// graphdiff.go).

/** A colour group: the notes a query matches, in a colour ("#rrggbb"). */
export interface ColorGroup {
  query: string
  color: string
}

/** The layout's forces, as Obsidian's sliders name them. */
export interface GraphForces {
  center: number
  repel: number
  link_strength: number
  link_distance: number
}

/** How a library's graph is shown: Obsidian's graph settings and the legend's hidden groups. */
export interface GraphViewSettings {
  color_groups: ColorGroup[]
  /** Only the notes this query matches ("" for all). */
  search: string
  show_orphans: boolean
  show_unresolved: boolean
  show_attachments: boolean
  show_tags: boolean
  show_arrows: boolean
  /** Moves the zoom at which labels appear, -3 (sooner) to 3 (later). */
  text_fade: number
  node_size: number
  link_thickness: number
  forces: GraphForces
  /** Colour groups (by query) the legend hides. */
  hidden_groups: string[]
}

/** A vault's canvas settings (canvas.Settings, .memotree/canvas.json). */
export interface CanvasSettings {
  /** The token budget of every view (0 when saved: the default). */
  budget: number
  /** When a model is configured, notes created or updated without a summary get one. */
  auto_summary: boolean
}

/**
 * Every setting of a vault (uiapi.VaultSettings), one section per file of its
 * .memotree folder. A section is saved whole.
 */
export interface VaultSettings {
  graph: GraphViewSettings
  canvas: CanvasSettings
  backup: BackupSettings
}

/** A vault's settings as the backend serves them: whole, and the defaults beside them. */
export interface VaultSettingsView {
  library: string
  settings: VaultSettings
  /** The settings of a vault that has none of its own. */
  defaults: VaultSettings
  /** Whether MemoTree has graph settings of its own (else Obsidian's are shown). */
  graph_saved: boolean
  /** What .obsidian/graph.json says; null when the vault has none. */
  obsidian: GraphViewSettings | null
  /** What could not be read, and why (each ignored). */
  warnings: string[]
}

/** The sections of a vault's settings to save; the others stay as they are. */
export interface VaultSettingsPatch {
  graph?: GraphViewSettings
  canvas?: CanvasSettings
  backup?: BackupSettings
}

/** How the window looks (settings.Look): 'auto' follows the system. */
export interface LookSettings {
  theme: 'auto' | 'light' | 'dark'
  language: 'auto' | 'en' | 'zh'
}

/** The person's settings that hold no secret (settings.Person). */
export interface PersonSettings {
  look: LookSettings
}

/** The person's settings as served: whole, the defaults beside them, and their file. */
export interface PersonSettingsView {
  settings: PersonSettings
  defaults: PersonSettings
  path: string
}

/** A note as the last commit has it: whether it existed, and its edges then. */
export interface NoteBefore {
  path: string
  existed: boolean
  edges: { to: string; relation: string }[]
}

// The agent's chat (backend/uiapi/chat*.go, backend/agent/session.go).

/** A prompt for the agent. */
export interface ChatSendInput {
  /** Continue this session; "" starts a new one. */
  session: string
  prompt: string
  /** The note open in the window, for the agent's sensory block. */
  library: string
  active_note: string
}

/** A turn that started. */
export interface ChatTurn {
  session: string
  turn: string
}

/** A saved session in a list. */
export interface ChatSessionInfo {
  id: string
  title: string
  created: string
  updated: string
  messages: number
}

/** One tool call of a stored assistant message. */
export interface ChatRecordCall {
  id: string
  name: string
  arguments: string
}

/** One stored message, with the time it was made. */
export interface ChatRecord {
  time: string
  role: 'user' | 'assistant' | 'tool' | 'system'
  content?: string
  /** A reasoning model's thinking before this answer, kept apart from it. */
  reasoning?: string
  tool_calls?: ChatRecordCall[]
  tool_call_id?: string
}

/** A saved session with every message. */
export interface ChatSessionView {
  id: string
  title: string
  created: string
  updated: string
  /** The person's system prompt for this conversation (set in `memotree chat`), if any. */
  system?: string
  messages: ChatRecord[]
  /** The turn running in this session, or "". */
  running: string
}

/** The turn in progress, for a window that attaches while it runs. */
export interface ChatLiveView {
  session: string
  /** "" when no turn is running. */
  turn: string
  prompt: string
  started: string
  /** The chat:* events published so far: deltas merged, approvals only while they wait. */
  events: { topic: string; data: unknown }[]
}

/** A local model server that answered. */
export interface LocalServer {
  name: string
  base_url: string
  models: string[] | null
}

/** The endpoint settings as the window sees them (never the key itself). */
export interface ChatSettingsView {
  base_url: string
  model: string
  /** The model of semantic search's vectors; "" leaves semantic search off. */
  embedding_model: string
  key_set: boolean
  key_hint: string
  path: string
  from_env: string[]
  detected: LocalServer[]
}

/** What the settings form sends; an empty api_key keeps the saved key. */
export interface ChatSettingsInput {
  base_url: string
  model: string
  embedding_model: string
  api_key: string
  clear_key: boolean
}

/** The outcome of "test connection". */
export interface ChatCheck {
  ok: boolean
  models: string[]
  message: string
}

/** One node of the agent's canvas (uiapi.CanvasNode). */
export interface CanvasNode {
  /** The node id: "people/", "people/[2]", "people/Ada Lovelace", "Note#Heading", "/". */
  id: string
  kind: 'folder' | 'page' | 'note' | 'heading'
  level: 'title' | 'summary' | 'full'
  depth: number
  /** Held by the view (expanded, pinned or asked for) rather than shown as context. */
  held: boolean
  pinned: boolean
  /** A folder or page listing its children. */
  open: boolean
  tokens: number
}

/** What the agent sees of a library (uiapi.CanvasView). */
export interface CanvasView {
  library: string
  view: string
  text: string
  tokens: number
  budget: number
  header_tokens: number
  nodes: CanvasNode[]
  collapsed: string[]
  views: string[]
}

/** One note offered by the quick switcher (uiapi.SwitchItem). */
export interface SwitchItem {
  path: string
  name: string
  /** The alias that matched, if the note matched by an alias. */
  alias?: string
  score: number
}

/** Options of a search (uiapi.SearchOptions). */
export interface SearchOptions {
  /** fulltext (default), pattern, relation, semantic or hybrid. */
  type: string
  entity_types: string[]
  tags: string[]
  max: number
}

/** One note found by Search; preview marks matches with **. */
export interface SearchHit {
  entity_name: string
  path: string
  score: number
  entity_type: string
  tags: string[] | null
  preview: string
  line: number
}

/** The answer to Search. */
export interface SearchResults {
  hits: SearchHit[]
  message: string
  partial: boolean
}
