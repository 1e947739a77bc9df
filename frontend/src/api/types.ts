// Shapes exchanged with the backend (Go package backend/uiapi), written by hand to match
// its json tags. Both transports return exactly these.

/** A mounted library (vault folder). */
export interface LibraryInfo {
  name: string
  path: string
  notes: number
  is_default: boolean
}

/** One file of a library, as listed by Files. */
export interface FileEntry {
  /** Vault-relative, slash-separated: "people/Ada Lovelace.md". */
  path: string
  /** The path without ".md": "people/Ada Lovelace". */
  name: string
  is_note: boolean
  /** The note's entity type, or "". */
  entity_type: string
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
  headings: Heading[]
  warnings: Warning[]
}

export interface GraphNode {
  /** The note's vault path, or "unresolved:<name>" for a missing link target. */
  id: string
  label: string
  /** Entity type, or "". */
  type: string
  unresolved: boolean
}

export interface GraphEdge {
  source: string
  target: string
  /** "links to", "embeds" or a relation type. */
  type: string
}

export interface GraphData {
  nodes: GraphNode[]
  edges: GraphEdge[]
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
