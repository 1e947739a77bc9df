// Event topics, mirrored from backend/event/event.go (a test checks the two agree).

/** Every topic the backend publishes. */
export const TOPICS = [
  'vault:changed',
  'git:changed',
  'git:progress',
  'chat:delta',
  'chat:tool',
  'chat:approval',
  'chat:done',
  'search:embedding',
  'task:progress',
  'approval:waiting',
  'approval:closed',
  'libraries:changed',
  'window:command',
] as const

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

/** Payload of "chat:delta": streamed text of the agent's reply, numbered from 1. */
export interface ChatDeltaEvent {
  session: string
  turn: string
  seq: number
  text: string
  /** The text is the model's reasoning, shown folded apart from the answer. */
  reasoning?: boolean
}

/** Payload of "chat:tool": a tool call started or finished. */
export interface ChatToolEvent {
  session: string
  turn: string
  id: string
  name: string
  args: string
  phase: 'start' | 'end'
  /** At "end": success, partial or error. */
  status: string
  message: string
  /** At "end": the YAML the model reads. */
  result: string
}

/** Payload of "chat:approval": a destructive call waits for the person. */
export interface ChatApprovalEvent {
  session: string
  turn: string
  /** Answer with Api.chatApprove(id, ...). */
  id: string
  call_id: string
  /** Who asks, as the journey names actors ("agent"). */
  from: string
  /** The library the call acts on. */
  library: string
  name: string
  args: string
}

/** Payload of "chat:done": a turn ended. */
export interface ChatDoneEvent {
  session: string
  turn: string
  answer: string
  /** What went wrong and what to do; "" when the turn answered. */
  error: string
  stopped: boolean
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

/** Payload of "task:progress": long work of a library (kind "scan": reading the notes; "search-index": building the full-text index). */
export interface TaskProgress {
  library: string
  kind: string
  done: number
  total: number
  /** The last event of this piece of work; error says why it stopped early. */
  final: boolean
  error?: string
}

/** Payload of "libraries:changed": a vault was opened or closed while the app runs. */
export interface LibrariesChange {
  /** The libraries open now, the default first. */
  libraries: string[]
  /** The library just opened, "" when none was. */
  opened: string
  /** The library just closed, "" when none was. */
  closed: string
  /** The folder of the library opened or closed. */
  path: string
  /** The closed library's folder was deleted or moved away. */
  gone: boolean
}

/** Payload of "window:command": the desktop app's menu (or a second launch) asks the window to run a command, or ("notice") to show a message. */
export interface WindowCommandEvent {
  command: string
  message: string
}

/**
 * Payload of "approval:waiting": a call from outside the window (an MCP client that
 * cannot ask the person) waits for the person's approval; "approval:closed" carries
 * the id and library of one that no longer waits.
 */
export interface ApprovalEvent {
  /** Answer with Api.answerApproval(id, ...). */
  id: string
  library: string
  /** Who asks, as the journey names callers ("mcp:Claude Desktop"). */
  from?: string
  tool?: string
  /** The call's arguments as JSON (cut to a few KB). */
  args?: string
  created?: string
}

/** The payload type of each topic. */
export interface EventPayloads {
  'vault:changed': VaultChange
  'git:changed': GitChange
  'git:progress': GitProgressLine
  'chat:delta': ChatDeltaEvent
  'chat:tool': ChatToolEvent
  'chat:approval': ChatApprovalEvent
  'chat:done': ChatDoneEvent
  'search:embedding': EmbeddingProgress
  'task:progress': TaskProgress
  'approval:waiting': ApprovalEvent
  'approval:closed': ApprovalEvent
  'libraries:changed': LibrariesChange
  'window:command': WindowCommandEvent
}

export type Unsubscribe = () => void
