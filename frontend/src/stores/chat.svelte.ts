// The chat store: the session shown, the turn in progress (fed by chat:* events),
// the saved sessions and the endpoint settings. Talks only to src/api.
import type { Api, ChatCheck, ChatSessionInfo, ChatSettingsInput, ChatSettingsView, EventPayloads } from '../api'
import { applyApproval, applyDelta, applyTool, itemsFromRecords, newLive, removeApproval, type ChatItem, type Live } from '../lib/chat'

/** A chat event with its topic, as the store receives it. */
type ChatEvent = { [T in ChatTopic]: { topic: T; data: EventPayloads[T] } }[ChatTopic]
type ChatTopic = 'chat:delta' | 'chat:tool' | 'chat:approval' | 'chat:done'

export class ChatStore {
  /** The session shown; "" until the first prompt of a new conversation. */
  session = $state('')
  saved = $state.raw<ChatItem[]>([])
  live = $state.raw<Live | null>(null)
  sessions = $state.raw<ChatSessionInfo[]>([])
  /** What went wrong last, or how the last turn ended when it did not answer. */
  notice = $state<string | null>(null)
  settings = $state.raw<ChatSettingsView | null>(null)
  check = $state.raw<ChatCheck | null>(null)
  busy = $derived(this.live !== null)
  items = $derived([...this.saved, ...(this.live?.items ?? [])])

  private offs: (() => void)[] = []
  /** Events that arrived before chatSend returned their turn (a fast model), replayed then. */
  private early: ChatEvent[] = []

  constructor(private readonly api: Api) {}

  /** connect subscribes to the chat events; returns the unsubscribe. */
  connect(): () => void {
    const topics = ['chat:delta', 'chat:tool', 'chat:approval', 'chat:done'] as const
    this.offs = topics.map((topic) => this.api.on(topic, (data) => this.dispatch({ topic, data } as ChatEvent)))
    void this.attach()
    return () => {
      for (const off of this.offs) off()
      this.offs = []
    }
  }

  /** dispatch applies one event to the turn in progress, or keeps it for later. */
  private dispatch(e: ChatEvent): void {
    if (!this.live || e.data.turn !== this.live.turn) {
      if (this.early.length < 2000) this.early.push(e)
      return
    }
    switch (e.topic) {
      case 'chat:delta':
        this.live = applyDelta(this.live, e.data)
        break
      case 'chat:tool':
        this.live = applyTool(this.live, e.data)
        break
      case 'chat:approval':
        this.live = applyApproval(this.live, e.data)
        break
      case 'chat:done':
        this.notice = e.data.error || null
        void this.reload(e.data.session)
        break
    }
  }

  /** attach shows the turn already running (the window was reloaded mid-turn):
   * the saved session, the prompt, what the turn published so far, then the live
   * events that came meanwhile (those already in the replay are skipped). */
  async attach(): Promise<void> {
    try {
      const v = await this.api.chatLive()
      if (!v.turn || this.live) return
      const s = await this.api.chatSession(v.session)
      if (this.live) return
      this.session = v.session
      this.saved = itemsFromRecords(s.messages)
      this.live = newLive(v.turn, v.prompt, v.started)
      const early = this.early.filter((e) => e.data.turn === v.turn)
      this.early = []
      for (const e of [...(v.events as ChatEvent[]), ...early]) this.dispatch(e)
    } catch (e) {
      this.notice = message(e)
    }
  }

  /** send starts a turn with prompt. */
  async send(prompt: string, library: string, activeNote: string): Promise<boolean> {
    if (this.busy || prompt.trim() === '') return false
    this.notice = null
    this.early = []
    try {
      const t = await this.api.chatSend({ session: this.session, prompt, library, active_note: activeNote })
      this.session = t.session
      this.live = newLive(t.turn, prompt, new Date().toISOString())
      const early = this.early.filter((e) => e.data.turn === t.turn)
      this.early = []
      for (const e of early) this.dispatch(e)
      return true
    } catch (e) {
      this.notice = message(e)
      return false
    }
  }

  /**
   * tell sends prompt to a saved session as the person's next message (the review
   * panel's word on an undone change); false while a turn runs.
   */
  async tell(session: string, prompt: string, library: string, activeNote: string): Promise<boolean> {
    if (this.busy) return false
    if (session !== this.session) await this.open(session)
    if (this.session !== session) return false
    return this.send(prompt, library, activeNote)
  }

  /** stop stops the turn in progress. */
  async stop(): Promise<void> {
    if (!this.live) return
    try {
      await this.api.chatStop(this.live.turn)
    } catch (e) {
      this.notice = message(e)
    }
  }

  /** answer approves or denies a waiting call. */
  async answer(id: string, approve: boolean): Promise<void> {
    if (this.live) this.live = removeApproval(this.live, id)
    try {
      await this.api.chatApprove(id, approve)
    } catch (e) {
      this.notice = message(e)
    }
  }

  /** reload shows the saved session id, as stored (the end of every turn). */
  async reload(id: string): Promise<void> {
    try {
      const s = await this.api.chatSession(id)
      this.session = s.id
      this.saved = itemsFromRecords(s.messages)
      if (!s.running) this.live = null
    } catch (e) {
      this.notice = message(e)
      this.live = null
    }
    void this.listSessions()
  }

  /** open shows a saved session (only between turns). */
  async open(id: string): Promise<void> {
    if (this.busy) return
    this.notice = null
    await this.reload(id)
  }

  /** fresh starts a new conversation. */
  fresh(): void {
    if (this.busy) return
    this.session = ''
    this.saved = []
    this.notice = null
  }

  async listSessions(): Promise<void> {
    try {
      this.sessions = await this.api.chatSessions()
    } catch (e) {
      this.notice = message(e)
    }
  }

  async loadSettings(): Promise<void> {
    try {
      this.settings = await this.api.chatSettings()
    } catch (e) {
      this.notice = message(e)
    }
  }

  async saveSettings(input: ChatSettingsInput): Promise<boolean> {
    try {
      this.settings = await this.api.saveChatSettings(input)
      return true
    } catch (e) {
      this.notice = message(e)
      return false
    }
  }

  async testConnection(input: ChatSettingsInput): Promise<void> {
    this.check = null
    try {
      this.check = await this.api.testChatConnection(input)
    } catch (e) {
      this.check = { ok: false, models: [], message: message(e) }
    }
  }
}

function message(e: unknown): string {
  return e instanceof Error ? e.message : String(e)
}
