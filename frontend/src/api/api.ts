import type { ApprovalEvent, EventPayloads, TaskProgress, Topic, Unsubscribe } from './events'
import { gitFromCaller, type GitApi, type GitMethod } from './git'
import type {
  ChatCheck,
  FileList,
  ChatSendInput,
  ChatSessionInfo,
  ChatLiveView,
  ChatSessionView,
  ChatSettingsInput,
  ChatSettingsView,
  CanvasView,
  ChatTurn,
  FileEntry,
  GraphData,
  NoteBefore,
  PersonSettings,
  PersonSettingsView,
  LibraryInfo,
  NoteView,
  RenderReport,
  VaultsView,
  SaveResult,
  SearchOptions,
  SearchResults,
  SwitchItem,
  VaultSettingsPatch,
  VaultSettingsView,
} from './types'

/**
 * Api is everything the window asks of the backend. Two transports implement it: the
 * Wails bindings inside the desktop app and HTTP against `memotree serve` in a browser.
 * Method names map one to one onto the Go methods (libraries → Libraries, ...).
 */
export interface Api {
  libraries(): Promise<LibraryInfo[]>
  files(library: string): Promise<FileEntry[]>
  note(library: string, path: string): Promise<NoteView>
  graph(library: string): Promise<GraphData>
  /** Every setting of a vault, whole (the graph's: saved, else Obsidian's, else the defaults). */
  vaultSettings(library: string): Promise<VaultSettingsView>
  /** Saves the sections the patch names, each in its file of .memotree. */
  saveVaultSettings(library: string, patch: VaultSettingsPatch): Promise<VaultSettingsView>
  /** The person's settings that hold no secret (the look). */
  personSettings(): Promise<PersonSettingsView>
  savePersonSettings(settings: PersonSettings): Promise<PersonSettingsView>
  /** The notes at `paths` as the last commit has them (a change set's before-state). */
  graphBefore(library: string, paths: string[]): Promise<NoteBefore[]>
  /**
   * Saves a note's text if it still has the hash it was loaded with (`baseHash`; ""
   * creates a note that must not exist). On a conflict nothing is written.
   */
  saveNote(library: string, path: string, content: string, baseHash: string): Promise<SaveResult>
  /** Notes whose names or aliases match query fuzzily, best first. */
  quickSwitch(library: string, query: string, limit: number): Promise<SwitchItem[]>
  /** Ranked search (search_nodes) with snippets. */
  search(library: string, query: string, options: SearchOptions): Promise<SearchResults>
  /** Tells a waiting smoke test that a library's file tree rendered. */
  reportRendered(report: RenderReport): Promise<void>
  /** Tells a waiting smoke test that the window shows the welcome. */
  reportWelcome(): Promise<void>
  /** What the welcome and the vault switcher show. */
  vaults(): Promise<VaultsView>
  /** Opens a folder as a vault (or finds it open); refused with a reason for a bad path. */
  openVault(path: string): Promise<LibraryInfo>
  /** Opens the demo vault. */
  openDemoVault(): Promise<LibraryInfo>
  /** Shows the system's folder chooser (desktop only); "" when cancelled. */
  pickFolder(): Promise<string>
  /** Closes an open vault. */
  closeVault(library: string): Promise<void>
  /** Remembers the vault the window shows, so it opens first next time. */
  activateVault(library: string): Promise<void>
  /** Removes a folder from the recent vaults. */
  forgetVault(path: string): Promise<void>
  /** Shows a note in the system's file manager (desktop only). */
  revealNote(library: string, path: string): Promise<void>
  /** Long work in progress (and work that failed), for a window that opens during it. */
  tasks(): Promise<TaskProgress[]>
  /** The source-control panel's methods. */
  git: GitApi
  /** Starts an agent turn; its progress arrives as chat:* events. */
  chatSend(input: ChatSendInput): Promise<ChatTurn>
  /** Stops a turn ("" for the running one). */
  chatStop(turn: string): Promise<void>
  /** Answers an approval request from a chat:approval event. */
  chatApprove(id: string, approve: boolean): Promise<void>
  chatSessions(): Promise<ChatSessionInfo[]>
  chatSession(id: string): Promise<ChatSessionView>
  /** The turn in progress with its events so far (turn "" when none): a reloaded window attaches to it. */
  chatLive(): Promise<ChatLiveView>
  chatSettings(): Promise<ChatSettingsView>
  saveChatSettings(input: ChatSettingsInput): Promise<ChatSettingsView>
  testChatConnection(input: ChatSettingsInput): Promise<ChatCheck>
  /** Calls of other processes (MCP clients) waiting for the person's approval here. */
  approvals(): Promise<ApprovalEvent[]>
  /** Answers a request from an approval:waiting event. */
  answerApproval(id: string, approve: boolean): Promise<void>
  /** The agent's canvas: a view of a library ("" for the default view). */
  canvas(library: string, view: string): Promise<CanvasView>
  canvasExpand(library: string, view: string, id: string, level: string): Promise<CanvasView>
  canvasCollapse(library: string, view: string, id: string): Promise<CanvasView>
  canvasPin(library: string, view: string, id: string, pinned: boolean): Promise<CanvasView>
  /** Subscribes to a topic; returns the function that unsubscribes. */
  on<T extends Topic>(topic: T, cb: (e: EventPayloads[T]) => void): Unsubscribe
}

/** The Go method name for each Api method, shared by both transports. */
export const GO_METHODS = {
  libraries: 'Libraries',
  files: 'Files',
  note: 'Note',
  graph: 'Graph',
  vaultSettings: 'VaultSettings',
  saveVaultSettings: 'SaveVaultSettings',
  personSettings: 'PersonSettings',
  savePersonSettings: 'SavePersonSettings',
  graphBefore: 'GraphBefore',
  saveNote: 'SaveNote',
  quickSwitch: 'QuickSwitch',
  search: 'Search',
  reportRendered: 'ReportRendered',
  reportWelcome: 'ReportWelcome',
  vaults: 'Vaults',
  openVault: 'OpenVault',
  openDemoVault: 'OpenDemoVault',
  pickFolder: 'PickFolder',
  closeVault: 'CloseVault',
  activateVault: 'ActivateVault',
  forgetVault: 'ForgetVault',
  revealNote: 'RevealNote',
  tasks: 'Tasks',
  chatSend: 'ChatSend',
  chatStop: 'ChatStop',
  chatApprove: 'ChatApprove',
  chatSessions: 'ChatSessions',
  chatSession: 'ChatSession',
  chatLive: 'ChatLive',
  chatSettings: 'ChatSettings',
  saveChatSettings: 'SaveChatSettings',
  testChatConnection: 'TestChatConnection',
  approvals: 'Approvals',
  answerApproval: 'AnswerApproval',
  canvas: 'Canvas',
  canvasExpand: 'CanvasExpand',
  canvasCollapse: 'CanvasCollapse',
  canvasPin: 'CanvasPin',
} as const satisfies Record<Exclude<keyof Api, 'on' | 'git'>, string>

export type GoMethod = (typeof GO_METHODS)[keyof typeof GO_METHODS] | GitMethod

/** readFileList makes one FileEntry per file of a FileList. */
export function readFileList(l: FileList): FileEntry[] {
  const out: FileEntry[] = new Array(l.paths.length)
  for (let i = 0; i < l.paths.length; i++) out[i] = { path: l.paths[i]!, is_note: true }
  for (const i of l.attachments) out[i]!.is_note = false
  for (let k = 0; k + 1 < l.typed.length; k += 2) out[l.typed[k]!]!.entity_type = l.types[l.typed[k + 1]!]
  return out
}

/** Builds an Api from a function that calls a Go method with positional arguments. */
export function apiFromCaller(
  call: (method: GoMethod, args: unknown[]) => Promise<unknown>,
  on: Api['on'],
): Api {
  return {
    libraries: () => call(GO_METHODS.libraries, []) as Promise<LibraryInfo[]>,
    files: async (library) => readFileList((await call(GO_METHODS.files, [library])) as FileList),
    note: (library, path) => call(GO_METHODS.note, [library, path]) as Promise<NoteView>,
    graph: (library) => call(GO_METHODS.graph, [library]) as Promise<GraphData>,
    vaultSettings: (library) => call(GO_METHODS.vaultSettings, [library]) as Promise<VaultSettingsView>,
    saveVaultSettings: (library, patch) => call(GO_METHODS.saveVaultSettings, [library, patch]) as Promise<VaultSettingsView>,
    personSettings: () => call(GO_METHODS.personSettings, []) as Promise<PersonSettingsView>,
    savePersonSettings: (settings) => call(GO_METHODS.savePersonSettings, [settings]) as Promise<PersonSettingsView>,
    graphBefore: (library, paths) => call(GO_METHODS.graphBefore, [library, paths]) as Promise<NoteBefore[]>,
    saveNote: (library, path, content, baseHash) =>
      call(GO_METHODS.saveNote, [library, path, content, baseHash]) as Promise<SaveResult>,
    quickSwitch: (library, query, limit) =>
      call(GO_METHODS.quickSwitch, [library, query, limit]) as Promise<SwitchItem[]>,
    search: (library, query, options) => call(GO_METHODS.search, [library, query, options]) as Promise<SearchResults>,
    reportRendered: async (report) => {
      await call(GO_METHODS.reportRendered, [report])
    },
    reportWelcome: async () => {
      await call(GO_METHODS.reportWelcome, [])
    },
    vaults: () => call(GO_METHODS.vaults, []) as Promise<VaultsView>,
    openVault: (path) => call(GO_METHODS.openVault, [path]) as Promise<LibraryInfo>,
    openDemoVault: () => call(GO_METHODS.openDemoVault, []) as Promise<LibraryInfo>,
    pickFolder: () => call(GO_METHODS.pickFolder, []) as Promise<string>,
    closeVault: async (library) => {
      await call(GO_METHODS.closeVault, [library])
    },
    activateVault: async (library) => {
      await call(GO_METHODS.activateVault, [library])
    },
    forgetVault: async (path) => {
      await call(GO_METHODS.forgetVault, [path])
    },
    revealNote: async (library, path) => {
      await call(GO_METHODS.revealNote, [library, path])
    },
    tasks: () => call(GO_METHODS.tasks, []) as Promise<TaskProgress[]>,
    git: gitFromCaller(call),
    chatSend: (input) => call(GO_METHODS.chatSend, [input]) as Promise<ChatTurn>,
    chatStop: async (turn) => {
      await call(GO_METHODS.chatStop, [turn])
    },
    chatApprove: async (id, approve) => {
      await call(GO_METHODS.chatApprove, [id, approve])
    },
    chatSessions: () => call(GO_METHODS.chatSessions, []) as Promise<ChatSessionInfo[]>,
    chatSession: (id) => call(GO_METHODS.chatSession, [id]) as Promise<ChatSessionView>,
    chatLive: () => call(GO_METHODS.chatLive, []) as Promise<ChatLiveView>,
    chatSettings: () => call(GO_METHODS.chatSettings, []) as Promise<ChatSettingsView>,
    saveChatSettings: (input) => call(GO_METHODS.saveChatSettings, [input]) as Promise<ChatSettingsView>,
    testChatConnection: (input) => call(GO_METHODS.testChatConnection, [input]) as Promise<ChatCheck>,
    approvals: () => call(GO_METHODS.approvals, []) as Promise<ApprovalEvent[]>,
    answerApproval: async (id, approve) => {
      await call(GO_METHODS.answerApproval, [id, approve])
    },
    canvas: (library, view) => call(GO_METHODS.canvas, [library, view]) as Promise<CanvasView>,
    canvasExpand: (library, view, id, level) =>
      call(GO_METHODS.canvasExpand, [library, view, id, level]) as Promise<CanvasView>,
    canvasCollapse: (library, view, id) => call(GO_METHODS.canvasCollapse, [library, view, id]) as Promise<CanvasView>,
    canvasPin: (library, view, id, pinned) =>
      call(GO_METHODS.canvasPin, [library, view, id, pinned]) as Promise<CanvasView>,
    on,
  }
}
