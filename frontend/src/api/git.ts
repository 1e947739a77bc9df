import type {
  Commit,
  Blame,
  FileDiff,
  GitCommitRequest,
  GitCommitResult,
  GitHunkUndo,
  GitHunkUndone,
  GitIdentity,
  GitRevision,
  GitSettingsInput,
  GitSettingsView,
  GitStatus,
  PullResult,
  PushResult,
} from './gitTypes'
import { CONFLICT_METHODS, conflictsFromCaller, type ConflictApi } from './gitConflicts'

/** The source-control panel's part of the Api (Go: backend/uiapi/git.go). */
export interface GitApi extends ConflictApi {
  status(library: string): Promise<GitStatus>
  /** `from` is a rename's old path, or "". */
  diff(library: string, path: string, from: string): Promise<FileDiff>
  commit(library: string, req: GitCommitRequest): Promise<GitCommitResult>
  /** Sets user.name and user.email in the library's .git/config, as `git config` would. */
  setIdentity(library: string, name: string, email: string): Promise<GitIdentity>
  /** Returns the paths that changed on disk. The caller confirms first. */
  discard(library: string, paths: string[]): Promise<string[]>
  /** Puts hunks back as last committed, by compare-and-swap on the diff's base (Go: githunks.go). */
  undoHunks(library: string, req: GitHunkUndo): Promise<GitHunkUndone>
  /** Who last changed each line of a note. */
  blame(library: string, path: string): Promise<Blame>
  /** The change a commit made to a note (`previousPath`: its path in the parent, or ""). */
  commitDiff(library: string, rev: string, path: string, previousPath: string): Promise<FileDiff>
  log(library: string, path: string, limit: number): Promise<Commit[]>
  show(library: string, path: string, rev: string): Promise<GitRevision>
  /** Reports whether the note changed. */
  restore(library: string, path: string, rev: string): Promise<boolean>
  init(library: string): Promise<GitStatus>
  push(library: string): Promise<PushResult>
  /** Merges the remote's commits with local commits and edits, keeping both sides. */
  pull(library: string): Promise<PullResult>
  /** How push and pull sign in to HTTPS remotes (the token itself never comes back). */
  settings(): Promise<GitSettingsView>
  /** Saves or clears the access token; an empty token keeps the saved one. */
  saveSettings(input: GitSettingsInput): Promise<GitSettingsView>
}

/** The Go method name of each GitApi method. */
export const GIT_METHODS = {
  ...CONFLICT_METHODS,
  status: 'GitStatus',
  diff: 'GitDiff',
  commit: 'GitCommit',
  setIdentity: 'GitSetIdentity',
  discard: 'GitDiscard',
  undoHunks: 'GitUndoHunks',
  blame: 'GitBlame',
  commitDiff: 'GitCommitDiff',
  log: 'GitLog',
  show: 'GitShow',
  restore: 'GitRestore',
  init: 'GitInit',
  push: 'GitPush',
  pull: 'GitPull',
  settings: 'GitSettings',
  saveSettings: 'SaveGitSettings',
} as const satisfies Record<keyof GitApi, string>

export type GitMethod = (typeof GIT_METHODS)[keyof typeof GIT_METHODS]

/** Builds the GitApi from a function that calls a Go method with positional arguments. */
export function gitFromCaller(call: (method: GitMethod, args: unknown[]) => Promise<unknown>): GitApi {
  const m = GIT_METHODS
  return {
    ...conflictsFromCaller(call),
    status: (lib) => call(m.status, [lib]) as Promise<GitStatus>,
    diff: (lib, path, from) => call(m.diff, [lib, path, from]) as Promise<FileDiff>,
    commit: (lib, req) => call(m.commit, [lib, req]) as Promise<GitCommitResult>,
    setIdentity: (lib, name, email) => call(m.setIdentity, [lib, name, email]) as Promise<GitIdentity>,
    discard: async (lib, paths) => ((await call(m.discard, [lib, paths])) as string[] | null) ?? [],
    undoHunks: (lib, req) => call(m.undoHunks, [lib, req]) as Promise<GitHunkUndone>,
    blame: (lib, path) => call(m.blame, [lib, path]) as Promise<Blame>,
    commitDiff: (lib, rev, path, prev) => call(m.commitDiff, [lib, rev, path, prev]) as Promise<FileDiff>,
    log: async (lib, path, limit) => ((await call(m.log, [lib, path, limit])) as Commit[] | null) ?? [],
    show: (lib, path, rev) => call(m.show, [lib, path, rev]) as Promise<GitRevision>,
    restore: (lib, path, rev) => call(m.restore, [lib, path, rev]) as Promise<boolean>,
    init: (lib) => call(m.init, [lib]) as Promise<GitStatus>,
    push: (lib) => call(m.push, [lib]) as Promise<PushResult>,
    pull: (lib) => call(m.pull, [lib]) as Promise<PullResult>,
    settings: () => call(m.settings, []) as Promise<GitSettingsView>,
    saveSettings: (input) => call(m.saveSettings, [input]) as Promise<GitSettingsView>,
  }
}
