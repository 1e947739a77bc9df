// The progress store: long work the backend is doing (a library scan, the search
// index being built, notes being embedded), from the task:progress and
// search:embedding events, for the status bar. Talks only to src/api.
import type { Api, EmbeddingProgress, TaskProgress } from '../api'

/** One piece of work in progress. */
export interface Task {
  /** library + ':' + kind. */
  id: string
  library: string
  kind: string
  done: number
  total: number
  /** Set once the work ended with an error (the task then stays until dismissed). */
  error: string
}

/** How long a finished task stays shown, so that a quick one is seen at all. */
export const LINGER_MS = 1200

/**
 * How long a task may go without news before it is dropped: the bus drops events for a
 * subscriber that lags, so a lost final event must not leave a task shown for ever.
 */
export const STALE_MS = 60_000

export class ProgressStore {
  tasks = $state.raw<Task[]>([])
  private timers = new Map<string, ReturnType<typeof setTimeout>>()

  constructor(
    private readonly linger = LINGER_MS,
    private readonly stale = STALE_MS,
  ) {}

  /** update records a progress report; a final one removes the task after a moment (or keeps its error). */
  update(p: TaskProgress): void {
    const id = `${p.library}:${p.kind}`
    const task: Task = { id, library: p.library, kind: p.kind, done: p.done, total: p.total, error: p.error ?? '' }
    const i = this.tasks.findIndex((t) => t.id === id)
    this.tasks = i < 0 ? [...this.tasks, task] : this.tasks.map((t, j) => (j === i ? task : t))
    const old = this.timers.get(id)
    if (old !== undefined) clearTimeout(old)
    this.timers.delete(id)
    if (p.final && !p.error) {
      if (this.linger <= 0) this.remove(id)
      else this.timers.set(id, setTimeout(() => this.remove(id), this.linger))
    } else if (!p.final) {
      this.timers.set(id, setTimeout(() => this.remove(id), this.stale))
    }
  }

  /** embedding records a search:embedding event as the "embeddings" task. */
  embedding(e: EmbeddingProgress): void {
    this.update({ library: e.library, kind: 'embeddings', done: e.done, total: e.total, final: e.final, error: e.error })
  }

  /** remove drops a task (a finished one, or an error the person dismissed). */
  remove(id: string): void {
    const t = this.timers.get(id)
    if (t !== undefined) clearTimeout(t)
    this.timers.delete(id)
    this.tasks = this.tasks.filter((x) => x.id !== id)
  }

  /** connect subscribes to the backend's progress events; returns the unsubscribe. */
  connect(api: Api): () => void {
    // Work already under way when the window opened (a large vault's first scan) is
    // asked for once; an event that arrives first is newer and wins.
    const heard = new Set<string>()
    let live = true
    const offTask = api.on('task:progress', (p) => {
      heard.add(`${p.library}:${p.kind}`)
      this.update(p)
    })
    const offEmb = api.on('search:embedding', (e) => this.embedding(e))
    api.tasks().then(
      (ts) => {
        for (const p of ts ?? []) if (live && !heard.has(`${p.library}:${p.kind}`)) this.update(p)
      },
      () => {}, // an older backend without Tasks: the events alone will do
    )
    return () => {
      live = false
      offTask()
      offEmb()
      for (const t of this.timers.values()) clearTimeout(t)
      this.timers.clear()
    }
  }
}

/** percent is how far a task is, 0-100, or null when its size is unknown. */
export function percent(t: Pick<Task, 'done' | 'total'>): number | null {
  if (t.total <= 0) return null
  return Math.max(0, Math.min(100, Math.floor((t.done / t.total) * 100)))
}
