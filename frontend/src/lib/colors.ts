// Colours per entity type, shared by the graph, the file tree and the note view. Mid-tone, muted hues
// that read on both the light and the dark background.

export const PALETTE = [
  '#5b8def', // blue
  '#e0795b', // terracotta
  '#4fae8a', // green
  '#b57edc', // violet
  '#d9a93f', // ochre
  '#4fa8c2', // teal
  '#d96f9c', // rose
  '#8a9a5b', // olive
  '#9b7b61', // brown
  '#6c7fd8', // indigo
] as const

/** Well-known types get fixed colours so they look the same in every vault. */
const KNOWN: Record<string, string> = {
  person: PALETTE[0],
  people: PALETTE[0],
  project: PALETTE[1],
  concept: PALETTE[2],
  idea: PALETTE[2],
  organization: PALETTE[3],
  organisation: PALETTE[3],
  company: PALETTE[3],
  event: PALETTE[4],
  place: PALETTE[5],
  location: PALETTE[5],
  book: PALETTE[6],
  source: PALETTE[6],
  paper: PALETTE[6],
  topic: PALETTE[7],
  tool: PALETTE[8],
  meeting: PALETTE[9],
}

/** The colour of notes without an entity type. */
export const UNTYPED_COLOR = '#8b93a1'
/** The colour of link targets that do not exist. */
export const UNRESOLVED_COLOR = '#c4c8cf'

/** hashString is a small, stable string hash (FNV-1a). */
export function hashString(s: string): number {
  let h = 0x811c9dc5
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i)
    h = Math.imul(h, 0x01000193)
  }
  return h >>> 0
}

/** colorForType returns the colour of an entity type ("" for untyped notes). */
export function colorForType(type: string): string {
  const t = type.trim().toLowerCase()
  if (t === '') return UNTYPED_COLOR
  return KNOWN[t] ?? PALETTE[hashString(t) % PALETTE.length] ?? UNTYPED_COLOR
}

/** knownTypeColor returns the fixed colour of a well-known type, or undefined. */
export function knownTypeColor(type: string): string | undefined {
  return KNOWN[type.trim().toLowerCase()]
}

/**
 * typeColors gives each entity type of a library its own colour, so the legend can be
 * read, and the file tree, the note and the graph agree: well-known types keep their fixed colours, the others take their usual colour
 * (colorForType) when no other type present has it, else the first free colour of the
 * palette, else a hue of their own. Types are folded to lower case; "" is untyped.
 */
export function typeColors(types: Iterable<string>): Map<string, string> {
  const out = new Map<string, string>([['', UNTYPED_COLOR]])
  const used = new Set<string>([UNTYPED_COLOR])
  const names = [...new Set([...types].map((t) => t.trim().toLowerCase()))].filter((t) => t !== '').sort()
  for (const t of names) {
    const c = knownTypeColor(t)
    if (c) (out.set(t, c), used.add(c))
  }
  let extra = 0
  for (const t of names) {
    if (out.has(t)) continue
    let c = colorForType(t)
    if (used.has(c)) c = PALETTE.find((p) => !used.has(p)) ?? `hsl(${Math.round((extra++ * 137.508) % 360)}, 45%, 58%)`
    out.set(t, c)
    used.add(c)
  }
  return out
}
