// Event topics, mirrored from backend/event/event.go (a test checks the two agree).

/** Every topic the backend publishes. */
export const TOPICS = ['vault:changed', 'search:embedding'] as const

export type Topic = (typeof TOPICS)[number]

/** Payload of "vault:changed": files of a library changed on disk. */
export interface VaultChange {
  library: string
  paths: string[]
  /** The whole library was re-read: refetch everything. */
  rescan: boolean
}

/** Payload of "search:embedding": notes being embedded for semantic search. */
export interface EmbeddingProgress {
  library: string
  done: number
  total: number
  /** The last event of a pass; error says why it stopped early. */
  final: boolean
  error?: string
}

/** The payload type of each topic. */
export interface EventPayloads {
  'vault:changed': VaultChange
  'search:embedding': EmbeddingProgress
}

export type Unsubscribe = () => void
