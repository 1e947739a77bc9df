// The chat's display model: a session's stored messages and the live events of a turn
// become one list of items — the person's messages, the agent's text, tool-call cards
// and approval prompts. Pure functions, no I/O.
import type { ChatApprovalEvent, ChatDeltaEvent, ChatToolEvent } from '../api/events'
import type { ChatRecord } from '../api/types'

/** One tool call as a card: arguments, and the result once it came. */
export interface ToolCard {
  id: string
  name: string
  args: string
  /** running, success, partial, error, or stopped when the turn ended first. */
  status: string
  message: string
  result: string
}

/** One row of the conversation. */
export type ChatItem =
  | { kind: 'user'; key: string; text: string; time: string }
  | { kind: 'assistant'; key: string; text: string; time: string; reasoning?: string }
  | { kind: 'tool'; key: string; card: ToolCard }
  | { kind: 'approval'; key: string; request: ChatApprovalEvent }

/** yamlField reads a top-level `key: value` line of a tool result. */
export function yamlField(yaml: string, key: string): string {
  const m = new RegExp(`^${key}: ?(.*)$`, 'm').exec(yaml)
  let v = (m?.[1] ?? '').trim()
  if (v.length >= 2 && (v[0] === '"' || v[0] === "'") && v.endsWith(v[0])) v = v.slice(1, -1)
  return v
}

/** itemsFromRecords builds the rows of a saved session. */
export function itemsFromRecords(records: readonly ChatRecord[]): ChatItem[] {
  const items: ChatItem[] = []
  const cards = new Map<string, ToolCard>()
  records.forEach((r, i) => {
    const key = `r${i}`
    if (r.role === 'user') items.push({ kind: 'user', key, text: r.content ?? '', time: r.time })
    else if (r.role === 'assistant') {
      if ((r.content ?? '').trim() !== '' || (r.reasoning ?? '') !== '')
        items.push({ kind: 'assistant', key, text: r.content ?? '', time: r.time, ...(r.reasoning ? { reasoning: r.reasoning } : {}) })
      for (const c of r.tool_calls ?? []) {
        const card: ToolCard = { id: c.id, name: c.name, args: c.arguments, status: 'running', message: '', result: '' }
        cards.set(c.id, card)
        items.push({ kind: 'tool', key: `${key}-${c.id}`, card })
      }
    } else if (r.role === 'tool') {
      const card = cards.get(r.tool_call_id ?? '')
      if (card) {
        const yaml = r.content ?? ''
        card.result = yaml
        card.status = yamlField(yaml, 'error_code') === 'stopped' ? 'stopped' : yamlField(yaml, 'status') || 'success'
        card.message = yamlField(yaml, 'message')
      }
    }
  })
  return items
}

/** Live is the state of a turn in progress, shown after the saved rows. */
export interface Live {
  turn: string
  items: ChatItem[]
  /** The next delta's number; a gap means text was missed (the end refetches). */
  seq: number
}

/** newLive starts the live part of a turn with the person's prompt. */
export function newLive(turn: string, prompt: string, time: string): Live {
  return { turn, items: [{ kind: 'user', key: `${turn}-u`, text: prompt, time }], seq: 1 }
}

/**
 * applyDelta appends streamed text to the agent's current message: answer text to its
 * text, reasoning to its reasoning (shown folded). Reasoning that follows answer text
 * starts a new message, as the model thinks again after a tool call.
 */
export function applyDelta(live: Live, e: ChatDeltaEvent): Live {
  // A delta already applied (replayed after attaching to a running turn) is skipped.
  if (e.turn !== live.turn || e.seq < live.seq) return live
  const items = [...live.items]
  const last = items[items.length - 1]
  const continues = last && last.kind === 'assistant' && !(e.reasoning && last.text !== '')
  if (continues && e.reasoning) items[items.length - 1] = { ...last, reasoning: (last.reasoning ?? '') + e.text }
  else if (continues) items[items.length - 1] = { ...last, text: last.text + e.text }
  else if (e.reasoning) items.push({ kind: 'assistant', key: `${live.turn}-d${e.seq}`, text: '', time: '', reasoning: e.text })
  else items.push({ kind: 'assistant', key: `${live.turn}-d${e.seq}`, text: e.text, time: '' })
  return { ...live, items, seq: e.seq + 1 }
}

/** applyTool adds a card when a call starts and fills it when it ends. */
export function applyTool(live: Live, e: ChatToolEvent): Live {
  if (e.turn !== live.turn) return live
  const items = live.items.filter((it) => !(it.kind === 'approval' && it.request.call_id === e.id))
  const i = items.findIndex((it) => it.kind === 'tool' && it.card.id === e.id)
  const card: ToolCard = {
    id: e.id,
    name: e.name,
    args: e.args,
    status: e.phase === 'end' ? e.status || 'success' : 'running',
    message: e.message,
    result: e.result,
  }
  const prev = items[i]
  if (prev) items[i] = { kind: 'tool', key: prev.key, card }
  else items.push({ kind: 'tool', key: `${live.turn}-${e.id}`, card })
  return { ...live, items }
}

/** applyApproval shows an approval prompt. */
export function applyApproval(live: Live, e: ChatApprovalEvent): Live {
  if (e.turn !== live.turn || live.items.some((it) => it.kind === 'approval' && it.request.id === e.id)) return live
  return { ...live, items: [...live.items, { kind: 'approval', key: e.id, request: e }] }
}

/** removeApproval drops the prompt once answered. */
export function removeApproval(live: Live, id: string): Live {
  return { ...live, items: live.items.filter((it) => !(it.kind === 'approval' && it.request.id === id)) }
}

/** prettyArgs indents a call's JSON arguments, or returns them as written. */
export function prettyArgs(args: string): string {
  try {
    return JSON.stringify(JSON.parse(args), null, 2)
  } catch {
    return args
  }
}

/**
 * scriptOf returns the Starlark code and target of a run_starlark call, so that the
 * card can show the script as code rather than as an escaped JSON string; null for
 * other calls or unreadable arguments.
 */
export function scriptOf(name: string, args: string): { target: string; code: string; dryRun: boolean } | null {
  if (name !== 'run_starlark') return null
  try {
    const v = JSON.parse(args) as { target?: unknown; code?: unknown; dry_run?: unknown }
    if (typeof v.code !== 'string') return null
    return { target: typeof v.target === 'string' ? v.target : '', code: v.code, dryRun: v.dry_run === true }
  } catch {
    return null
  }
}

/** summarizeArgs shows a call's arguments on one short line. */
export function summarizeArgs(args: string, max = 80): string {
  let s = args
  try {
    const v: unknown = JSON.parse(args)
    if (v && typeof v === 'object') {
      s = Object.entries(v as Record<string, unknown>)
        .map(([k, x]) => `${k}: ${typeof x === 'string' ? x : JSON.stringify(x)}`)
        .join(', ')
    }
  } catch {
    // as written
  }
  return s.length > max ? `${s.slice(0, max - 1)}…` : s
}
