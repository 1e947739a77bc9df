// The approval queue: calls from other processes (an MCP client that cannot ask the
// person itself) that wait for the person in this window. Talks only to src/api.
import type { Api, ApprovalEvent } from '../api'

export class ApprovalsStore {
  /** What waits, oldest first. */
  waiting = $state.raw<ApprovalEvent[]>([])
  /** What went wrong last. */
  error = $state<string | null>(null)

  constructor(private readonly api: Api) {}

  /** connect loads what waits and follows the approval:* events; returns the unsubscribe. */
  connect(): () => void {
    const offs = [
      this.api.on('approval:waiting', (e) => this.add(e)),
      this.api.on('approval:closed', (e) => this.drop(e.id)),
    ]
    this.api.approvals().then(
      (list) => {
        for (const e of list) this.add(e)
      },
      (e: unknown) => (this.error = e instanceof Error ? e.message : String(e)),
    )
    return () => {
      for (const off of offs) off()
    }
  }

  /** answer approves or declines a waiting call. */
  async answer(id: string, approve: boolean): Promise<void> {
    this.drop(id)
    try {
      await this.api.answerApproval(id, approve)
      this.error = null
    } catch (e) {
      this.error = e instanceof Error ? e.message : String(e)
    }
  }

  private add(e: ApprovalEvent) {
    if (this.waiting.some((w) => w.id === e.id)) return
    this.waiting = [...this.waiting, e]
  }

  private drop(id: string) {
    this.waiting = this.waiting.filter((w) => w.id !== id)
  }
}
