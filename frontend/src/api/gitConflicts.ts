import type { BackupSettings, ConflictDetail, GitBackup, GitResolveRequest, ResolveResult } from './conflictTypes'

/** The review panel's conflicts and backups (Go: backend/uiapi/gitconflict.go, gitbackup.go). */
export interface ConflictApi {
  /** A conflicted note's base, ours, theirs, the file now and its hunks. */
  conflict(library: string, path: string): Promise<ConflictDetail>
  /** Resolves hunks (or the whole note) of a conflicted note. */
  resolve(library: string, req: GitResolveRequest): Promise<ResolveResult>
  /** A library's backup settings and how the backup stands. */
  backup(library: string): Promise<GitBackup>
  /** Saves a library's backup settings (its .memotree/sync.json). */
  saveBackup(library: string, settings: BackupSettings): Promise<GitBackup>
}

/** The Go method name of each ConflictApi method. */
export const CONFLICT_METHODS = {
  conflict: 'GitConflict',
  resolve: 'GitResolve',
  backup: 'GitBackup',
  saveBackup: 'SaveGitBackup',
} as const satisfies Record<keyof ConflictApi, string>

type ConflictMethod = (typeof CONFLICT_METHODS)[keyof typeof CONFLICT_METHODS]

/** Builds the ConflictApi from a function that calls a Go method with positional arguments. */
export function conflictsFromCaller(call: (method: ConflictMethod, args: unknown[]) => Promise<unknown>): ConflictApi {
  const m = CONFLICT_METHODS
  return {
    conflict: (lib, path) => call(m.conflict, [lib, path]) as Promise<ConflictDetail>,
    resolve: (lib, req) => call(m.resolve, [lib, req]) as Promise<ResolveResult>,
    backup: (lib) => call(m.backup, [lib]) as Promise<GitBackup>,
    saveBackup: (lib, settings) => call(m.saveBackup, [lib, settings]) as Promise<GitBackup>,
  }
}
