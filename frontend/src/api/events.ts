// Event topics, mirrored from backend/event/event.go (a test checks the two agree).

/** Every topic the backend publishes. */
export const TOPICS = ['vault:changed', 'git:changed', 'git:progress'] as const

export type Topic = (typeof TOPICS)[number]

/** Payload of "vault:changed": files of a library changed on disk. */
export interface VaultChange {
  library: string
  paths: string[]
  /** The whole library was re-read: refetch everything. */
  rescan: boolean
}

/** Payload of "git:changed": a library's repository changed (commit, checkout, index). */
export interface GitChange {
  library: string
}

/** Payload of "git:progress": a line a remote sent during a push or pull. */
export interface GitProgressLine {
  library: string
  text: string
}

/** The payload type of each topic. */
export interface EventPayloads {
  'vault:changed': VaultChange
  'git:changed': GitChange
  'git:progress': GitProgressLine
}

export type Unsubscribe = () => void
