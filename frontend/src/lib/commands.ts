// The command registry: every action the window offers by keyboard, declared once.
// Global shortcuts and the command palette both read it, so a shortcut shown in the
// palette is exactly the one that runs the command.
import type { MessageKey } from './i18n.svelte'

/**
 * A key chord such as "Mod+Shift+P". "Mod" is Ctrl, or Cmd on a Mac; the last part is
 * the key (KeyboardEvent.key, case-insensitive for letters).
 */
export type Chord = string

/** A command: what the palette lists and what a shortcut runs. */
export interface Command {
  /** Stable id, e.g. "view.toggleGraph". */
  id: string
  /** Message key of its title. */
  title: MessageKey
  /** Message key of the group shown before the title ("View", "Note"…). */
  category?: MessageKey
  /** Shortcuts, the first one shown in the palette. */
  keys?: Chord[]
  /** Whether the command can run now; a disabled command is hidden from the palette and its keys pass through. */
  enabled?: () => boolean
  run: () => void
}

/** The parts of a keyboard event a chord is matched against. */
export interface KeyLike {
  key: string
  ctrlKey: boolean
  metaKey: boolean
  shiftKey: boolean
  altKey: boolean
}

interface ParsedChord {
  mod: boolean
  shift: boolean
  alt: boolean
  key: string
}

function parseChord(c: Chord): ParsedChord {
  const parts = c.split('+')
  const key = (parts.pop() ?? '').toLowerCase()
  const mods = new Set(parts.map((p) => p.toLowerCase()))
  return { mod: mods.has('mod'), shift: mods.has('shift'), alt: mods.has('alt'), key }
}

/** matchesChord reports whether a key press is the chord (on a Mac, Mod is Cmd). */
export function matchesChord(e: KeyLike, c: Chord, mac: boolean): boolean {
  const p = parseChord(c)
  const mod = mac ? e.metaKey && !e.ctrlKey : e.ctrlKey && !e.metaKey
  if (p.mod !== mod || p.shift !== e.shiftKey || p.alt !== e.altKey) return false
  if (!p.mod && (e.ctrlKey || e.metaKey)) return false
  return e.key.toLowerCase() === p.key
}

const keyNames: Record<string, string> = { arrowup: '↑', arrowdown: '↓', arrowleft: '←', arrowright: '→', escape: 'Esc', ' ': 'Space' }

/** formatChord writes a chord the way the platform does: "Ctrl+Shift+P", or "⇧⌘P" on a Mac. */
export function formatChord(c: Chord, mac: boolean): string {
  const p = parseChord(c)
  const key = keyNames[p.key] ?? (p.key.length === 1 ? p.key.toUpperCase() : p.key[0]?.toUpperCase() + p.key.slice(1))
  if (mac) return `${p.alt ? '⌥' : ''}${p.shift ? '⇧' : ''}${p.mod ? '⌘' : ''}${key}`
  return [p.mod ? 'Ctrl' : '', p.shift ? 'Shift' : '', p.alt ? 'Alt' : '', key].filter(Boolean).join('+')
}

/** isMac reports whether the platform uses Cmd for shortcuts. */
export function isMac(nav: { platform?: string; userAgent?: string } | undefined = globalThis.navigator): boolean {
  return /mac|iphone|ipad/i.test(nav?.platform || nav?.userAgent || '')
}

/**
 * fuzzyScore scores how well `query` matches `text` as a subsequence, case-insensitive:
 * null when some query character is missing; higher is better. Consecutive characters
 * and characters at the start of a word score more, so "tg" finds "Toggle graph" first.
 */
export function fuzzyScore(query: string, text: string): number | null {
  const q = query.toLowerCase().replace(/\s+/g, '')
  if (q === '') return 0
  const s = text.toLowerCase()
  let score = 0
  let from = 0
  let prev = -2
  for (const ch of q) {
    const i = s.indexOf(ch, from)
    if (i < 0) return null
    let add = 1
    if (i === prev + 1) add += 4
    if (i === 0 || /[\s\-_/.:…]/.test(s[i - 1] ?? '')) add += 3
    score += add - Math.min(i - from, 10) * 0.1
    prev = i
    from = i + 1
  }
  return score - s.length * 0.01
}

/** A command found by the palette, with its score. */
export interface Match {
  command: Command
  label: string
  score: number
}

/**
 * filterCommands keeps the enabled commands whose label (from `label`, e.g. the
 * translated category and title) matches the query, best first; an empty query keeps
 * the registry's order.
 */
export function filterCommands(commands: readonly Command[], query: string, label: (c: Command) => string): Match[] {
  const out: Match[] = []
  for (const c of commands) {
    if (c.enabled && !c.enabled()) continue
    const l = label(c)
    const score = fuzzyScore(query, l)
    if (score !== null) out.push({ command: c, label: l, score })
  }
  if (query.trim() !== '') out.sort((a, b) => b.score - a.score)
  return out
}

/** The registry of commands, in the order the palette lists them. */
export class CommandRegistry {
  private readonly commands: Command[] = []

  constructor(private readonly mac = isMac()) {}

  /** add registers commands; an id registered twice is a programming error. */
  add(...cs: Command[]): () => void {
    for (const c of cs) {
      if (this.commands.some((x) => x.id === c.id)) throw new Error(`command ${c.id} is registered twice`)
      this.commands.push(c)
    }
    return () => {
      for (const c of cs) {
        const i = this.commands.indexOf(c)
        if (i >= 0) this.commands.splice(i, 1)
      }
    }
  }

  /** all returns every registered command. */
  all(): readonly Command[] {
    return this.commands
  }

  /** get returns the command with this id. */
  get(id: string): Command | undefined {
    return this.commands.find((c) => c.id === id)
  }

  /** run runs a command if it is enabled; returns whether it ran. */
  run(id: string): boolean {
    const c = this.get(id)
    if (!c || (c.enabled && !c.enabled())) return false
    c.run()
    return true
  }

  /** forKey returns the enabled command whose shortcut is this key press. */
  forKey(e: KeyLike): Command | undefined {
    return this.commands.find((c) => (c.keys ?? []).some((k) => matchesChord(e, k, this.mac)) && (!c.enabled || c.enabled()))
  }

  /** handleKey runs the command of a key press and stops the browser's own action. */
  handleKey(e: KeyLike & { isComposing?: boolean; preventDefault(): void }): boolean {
    if (e.isComposing) return false
    const c = this.forKey(e)
    if (!c) return false
    e.preventDefault()
    c.run()
    return true
  }

  /** shortcut returns the first shortcut of a command as the platform writes it, or "". */
  shortcut(c: Command): string {
    const k = c.keys?.[0]
    return k ? formatChord(k, this.mac) : ''
  }
}
