// Shapes of the review panel's conflicts and backups (Go: backend/uiapi/gitconflict.go
// and gitbackup.go, and the types they return from backend/gitrepo and
// backend/autosync), written by hand to match their json tags.

/** How a conflicted file differs on the two sides, as `git status` names it. */
export type ConflictKind = 'content' | 'binary' | 'deleted_by_us' | 'deleted_by_them' | 'added_by_us' | 'added_by_them'

/** One note a pull left conflicted. */
export interface ConflictSummary {
  path: string
  kind: ConflictKind
  /** The conflict regions its file still holds (0 for a whole-file conflict). */
  hunks: number
}

/** What git is in the middle of (merge, rebase, cherry-pick, revert), and what ends it. */
export interface Operation {
  kind: '' | 'merge' | 'rebase' | 'cherry-pick' | 'revert'
  message: string
}

/** One version of a conflicted file. */
export interface ConflictSide {
  exists: boolean
  text: string
  binary?: boolean
  too_large?: boolean
}

/** One conflict region: both sides' lines, and the base's when known. */
export interface ConflictHunk {
  number: number
  /** 1-based line of its opening marker in the working file. */
  line: number
  ours: string
  base: string
  base_known: boolean
  theirs: string
  ours_label: string
  theirs_label: string
  /** The front matter property the hunk changes, when it lies in the front matter. */
  property?: string
}

/** What the three-way view shows of a conflicted note. */
export interface ConflictDetail {
  path: string
  kind: ConflictKind
  base: ConflictSide
  ours: ConflictSide
  theirs: ConflictSide
  working: ConflictSide
  /** The working file's hash, sent back with a resolution made from this view. */
  working_hash: string
  hunks: ConflictHunk[]
}

/** ours, theirs, both, or the file as the person edited it. */
export type ResolveTake = 'ours' | 'theirs' | 'both' | 'as_edited'

/** How the window resolves a conflicted note. */
export interface GitResolveRequest {
  path: string
  take: ResolveTake | ''
  /** The hunks' numbers; empty resolves them all. */
  hunks: number[]
  /** The note as resolved by hand. */
  content?: string
  if_hash: string
}

/** What a resolution did. */
export interface ResolveResult {
  path: string
  /** No conflict is left: the note is staged. */
  resolved: boolean
  remaining: number
  written: boolean
}

/** How the branch stands against the remote's copy as last fetched. */
export interface Divergence {
  tracked: boolean
  ahead: number
  behind: number
}

/** A vault's backup settings (.memotree/sync.json). */
export interface BackupSettings {
  pull_on_open: boolean
  push_on_commit: boolean
  /** 0: no timed sync. */
  interval_minutes: number
  /** Commit the person's own edits (never an agent's) before a timed sync. */
  commit_own: boolean
  /** {{date}}, {{count}}, {{notes}}. */
  message_template: string
}

/** How a vault's backup stands. */
export interface BackupState {
  settings: BackupSettings
  running: '' | 'pull' | 'push' | 'sync'
  /** RFC 3339; the zero time when never. */
  last_sync: string
  /** Why the last operation failed, kept until one succeeds. */
  error: string
  failures: number
  retry_at: string
  /** Why nothing is synced now (conflicts, a git operation in progress). */
  waiting: string
  divergence: Divergence
  committed: number
}

/** What the window shows of a library's backup. */
export interface GitBackup {
  library: string
  /** The remote backed up to; "" when the repository has none. */
  remote: string
  settings: BackupSettings
  state: BackupState
  /** This process backs the library up (the desktop app and `memotree serve` do). */
  serving: boolean
  warnings: string[]
}
