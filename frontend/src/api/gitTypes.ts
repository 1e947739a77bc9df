// Shapes of the source-control panel's API (Go: backend/uiapi/git.go and the types it
// returns from backend/gitrepo), written by hand to match their json tags.
import type { ConflictSummary, Operation } from './conflictTypes'

/** How a path differs from the last commit. */
export type ChangeState = 'added' | 'modified' | 'deleted' | 'renamed' | 'untracked' | 'conflicted'

/** One path with pending changes. */
export interface Change {
  path: string
  state: ChangeState
  /** For a rename, the path in the last commit. */
  from?: string
}

/** The pending changes one actor made in one turn (or session): reviewed together. */
export interface ChangeSet {
  /** "actor" or "actor@turn", or "external" (outside edits), or "journey". */
  id: string
  /** "agent", "user", "mcp:<client>", "script", "cli", "external" or "journey". */
  actor: string
  turn?: string
  /** The chat session (or MCP connection) of the turn: the person's feedback goes there. */
  session?: string
  /** RFC 3339 time of the newest journey entry; the zero time for outside edits. */
  latest: string
  changes: Change[]
}

/** What the panel shows of a library. */
export interface GitStatus {
  library: string
  /** False when the folder is not a git repository yet (offer GitInit). */
  is_repo: boolean
  /** The checked-out branch, "" when HEAD is detached. */
  branch: string
  /** The last commit's hash, "" before the first commit. */
  head: string
  change_sets: ChangeSet[]
  total: number
  /** The remotes, origin first; push and pull use the first. */
  remotes: Remote[]
  /** A pull's conflicts await a commit. */
  merging: boolean
  /** The notes a pull (MemoTree's or git's) left conflicted. */
  conflicts: ConflictSummary[]
  /** What git is in the middle of, and what finishes it. */
  operation: Operation
}

export interface Remote {
  name: string
  url: string
}

export interface PushResult {
  remote: string
  branch: string
  up_to_date: boolean
}

export type PullOutcome = 'up_to_date' | 'fast_forward' | 'merged' | 'conflict'

export interface PullResult {
  remote: string
  branch: string
  outcome: PullOutcome
  head: string
  /** Files the pull wrote or removed. */
  updated: string[]
  /** Files that keep both versions between conflict markers. */
  conflicts: string[]
}

/** A piece of a changed line; `changed` marks words that differ from its pair. */
export interface Segment {
  text: string
  changed?: boolean
}

export type LineKind = 'context' | 'add' | 'del'

export interface DiffLine {
  kind: LineKind
  /** 1-based line number in the last commit; absent on added lines. */
  old?: number
  /** 1-based line number in the working tree; absent on deleted lines. */
  new?: number
  text: string
  /** Word-level pieces, when the line replaces (or is replaced by) a similar one. */
  segments?: Segment[]
  /** The last line of its side, without a line break. */
  no_newline?: boolean
}

/** A front matter property a hunk changes; old or new absent where it is absent. */
export interface PropertyChange {
  key: string
  old?: string
  new?: string
}

export interface Hunk {
  /** Counts the file's hunks from 1 in file order: what Keep and Undo name. */
  number: number
  old_start: number
  old_lines: number
  new_start: number
  new_lines: number
  lines: DiffLine[]
  /** For a hunk of front matter only: the properties it changes, shown instead of its lines. */
  properties?: PropertyChange[]
}

/** The diff of one pending change. */
export interface FileDiff {
  path: string
  from?: string
  binary?: boolean
  too_large?: boolean
  added: number
  deleted: number
  hunks: Hunk[]
  /** The hash of the working-tree file the diff was made from (sent back with an undo). */
  base?: string
  /** Hunks can be undone one by one (modified text); otherwise the change is undone whole. */
  hunk_undo?: boolean
}

/** Hunks of a pending change to put back as last committed (GitUndoHunks). */
export interface GitHunkUndo {
  path: string
  /** A rename's old path, or "". */
  from: string
  hunks: number[]
  /** The base of the diff the numbers come from. */
  base: string
}

/** What an undo of hunks did. */
export interface GitHunkUndone {
  /** The hunks put back, as they were. */
  undone: Hunk[]
  /** The note changed since its diff was made: nothing was written; diff is the note's diff now. */
  stale: boolean
  diff: FileDiff
}

/** One line of a blame: its commit's hash, "" for a line not committed yet. */
export interface BlameLine {
  line: number
  text: string
  commit: string
}

/** A commit lines are blamed on (or the pending change, hash ""). */
export interface BlameCommit {
  hash: string
  date: string
  author: string
  email?: string
  summary?: string
  /** The MemoTree-Actor trailer, else the author; for the pending change its change set's id. */
  actor: string
  turn?: string
  /** The file's path in the commit and in its parent (the commit's diff compares them). */
  path?: string
  previous?: string
  previous_path?: string
}

/** Who last changed each line of a note. */
export interface Blame {
  path: string
  lines: BlameLine[]
  commits: Record<string, BlameCommit>
  pending?: BlameCommit
  binary?: boolean
  too_large?: boolean
}

export interface GitCommitRequest {
  /** Change paths to commit; empty commits every pending change. */
  paths: string[]
  message: string
  /** A tag for the new commit, or "". */
  tag: string
  /** With a tag, its description: the tag is then an annotated one carrying it. */
  tag_description?: string
}

export interface GitCommitResult {
  hash: string
  paths: string[]
  trailers: Record<string, string>
  /** True when nothing was committed because git names nobody to sign with. */
  needs_identity: boolean
  /** Why nothing was committed, when needs_identity. */
  refused?: string
  /** The pending changes a commit of every change left out, each with why. */
  warnings: string[]
}

/** Who signs a library's commits, as git's configuration says. */
export interface GitIdentity {
  name: string
  email: string
  missing: boolean
}

/** One commit of a history. */
export interface Commit {
  hash: string
  subject: string
  message: string
  author: string
  email: string
  when: string
  trailers?: Record<string, string>
  tags?: string[]
}

/** A note's content at a revision. */
export interface GitRevision {
  path: string
  rev: string
  exists: boolean
  content: string
}

/** A saved access token: the one host it goes to, and its last four characters. */
export interface GitCredentialView {
  /** "protocol://host": the only place the token is sent. */
  url: string
  token_hint: string
  /** It may go over plain HTTP (a server on this machine only). */
  allow_http: boolean
  /** MEMOTREE_GIT_TOKEN with MEMOTREE_GIT_HOST: wins over a saved token for that host. */
  from_env: boolean
}

/** A library's remote and how a push or pull to it signs in. */
export interface GitRemoteView {
  library: string
  name: string
  url: string
  sign_in: 'token' | 'helper' | 'ssh' | 'none' | 'local'
  /** With sign_in token: the "protocol://host" of the token used. */
  credential?: string
}

/** How push and pull sign in to remotes; no token ever leaves the backend. */
export interface GitSettingsView {
  credentials: GitCredentialView[]
  remotes: GitRemoteView[]
  /** MEMOTREE_GIT_TOKEN is set without MEMOTREE_GIT_HOST: it goes to no remote. */
  env_unbound: boolean
  /** A token an earlier version saved for no host: sent nowhere; the next save drops it. */
  legacy_token: boolean
  /** The settings file. */
  path: string
}

/** What the git settings form sends: a token and where it is for, or remove to forget one. */
export interface GitSettingsInput {
  /** A remote's URL, or its protocol and host ("https://github.com"). */
  url: string
  token: string
  /** Lets the token go over plain HTTP (accepted for this machine's own server only). */
  allow_http: boolean
  /** The "protocol://host" whose saved token to forget. */
  remove: string
}
