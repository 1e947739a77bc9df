// The graph's colour groups: the person's (or Obsidian's) groups when there are some;
// otherwise one group per entity type when most notes have types, else one per
// top-level folder, so a vault without types — or with a few typed notes the agent
// added — is never one grey. The first group a
// node matches colours it; the legend lists the groups and hides a group's nodes.
import type { ColorGroup, GraphData } from '../api/types'
import { PALETTE, typeColors } from './colors'
import { kindOf, type ModelGraph } from './graphModel'
import { parseQuery, type Query } from './graphQuery'

/** A group as the graph uses it: its query parsed, its colour, how many nodes it colours. */
export interface ActiveGroup {
  query: string
  color: string
  /** What the legend calls it: the entity type, the folder, or the query. */
  label: string
  /** The entity type of a group made from types ("" otherwise). */
  type: string
  parsed: Query
  count: number
}

/** Where the groups came from. */
export type GroupSource = 'settings' | 'types' | 'folders'

/** quoted writes a value for a query, quoted when it has spaces or quotes. */
function quoted(v: string): string {
  return /[\s"()]/.test(v) ? `"${v.replace(/"/g, '')}"` : v
}

/**
 * escapeRegex writes s for a regular expression that matches it literally, as one
 * word of a query: spaces, parentheses and quotes as \xNN.
 */
function escapeRegex(s: string): string {
  return s
    .replace(/[.*+?^${}|[\]\\/]/g, '\\$&')
    .replace(/[\s()"]/g, (c) => `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`)
}

/** typeGroups makes a group per entity type of the notes, in the types' colours. */
export function typeGroups(data: GraphData): ColorGroup[] {
  const counts = new Map<string, number>()
  for (let i = 0; i < data.nodes.length; i++) {
    if (kindOf(data, i) !== 'note') continue
    const t = (data.types[data.node_types[i] ?? 0] ?? '').trim().toLowerCase()
    if (t !== '') counts.set(t, (counts.get(t) ?? 0) + 1)
  }
  const colors = typeColors(data.types)
  return [...counts]
    .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
    .map(([t]) => ({ query: `type:${quoted(t)}`, color: colors.get(t)! }))
}

/**
 * folderGroups makes a group per top-level folder holding notes, the fullest first,
 * each a colour of the palette (at most as many folders as colours).
 */
export function folderGroups(data: GraphData): ColorGroup[] {
  const counts = new Map<string, number>()
  for (let i = 0; i < data.nodes.length; i++) {
    if (kindOf(data, i) !== 'note') continue
    const p = data.nodes[i]!
    const slash = p.indexOf('/')
    if (slash > 0) counts.set(p.slice(0, slash), (counts.get(p.slice(0, slash)) ?? 0) + 1)
  }
  return [...counts]
    .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
    .slice(0, PALETTE.length)
    .map(([f], k) => ({ query: `path:/^${escapeRegex(f)}\\//`, color: PALETTE[k]! }))
}

/** typedShare is the share of the notes that have an entity type (0 without notes). */
function typedShare(data: GraphData): number {
  let notes = 0
  let typed = 0
  for (let i = 0; i < data.nodes.length; i++) {
    if (kindOf(data, i) !== 'note') continue
    notes++
    if ((data.types[data.node_types[i] ?? 0] ?? '').trim() !== '') typed++
  }
  return notes === 0 ? 0 : typed / notes
}

/**
 * groupsFor picks the groups to colour by: the settings'; else the types' when at
 * least half the notes have one; else the top-level folders'; else the types' of
 * the few notes that have one.
 */
export function groupsFor(data: GraphData, settings: readonly ColorGroup[]): { groups: ColorGroup[]; source: GroupSource } {
  if (settings.length > 0) return { groups: [...settings], source: 'settings' }
  const types = typeGroups(data)
  if (types.length > 0 && typedShare(data) >= 0.5) return { groups: types, source: 'types' }
  const folders = folderGroups(data)
  if (folders.length > 0 || types.length === 0) return { groups: folders, source: 'folders' }
  return { groups: types, source: 'types' }
}

/** labelOf names a group for the legend. */
function labelOf(g: ColorGroup): { label: string; type: string } {
  const m = /^type:("?)(.+?)\1$/.exec(g.query)
  if (m) return { label: m[2]!, type: m[2]! }
  // A top-level folder, as folderGroups writes it: path:/^Folder\//.
  const f = /^path:\/\^(.+)\\\/\/$/.exec(g.query)
  if (f) return { label: f[1]!.replace(/\\x([0-9a-f]{2})/g, (_, h: string) => String.fromCharCode(parseInt(h, 16))).replace(/\\(.)/g, '$1'), type: '' }
  return { label: g.query, type: '' }
}

/**
 * applyGroups colours the notes of g by the first group they match (others keep the
 * colour they have), records each node's group index in `group` (-1 for none) and
 * returns the groups with their counts. Unresolved names and tags are not coloured.
 */
export function applyGroups(g: ModelGraph, groups: readonly ColorGroup[]): { active: ActiveGroup[]; groupOf: Map<string, number> } {
  const active: ActiveGroup[] = groups.map((c) => ({ ...c, ...labelOf(c), parsed: parseQuery(c.query), count: 0 }))
  const groupOf = new Map<string, number>()
  g.forEachNode((id, a) => {
    if (a.kind !== 'note' && a.kind !== 'attachment') return
    const target = { path: id, label: a.label, aliases: a.aliases, tags: a.tags, entityType: a.entityType }
    const k = active.findIndex((grp) => !grp.parsed.empty && grp.parsed.match(target))
    if (k < 0) return
    groupOf.set(id, k)
    active[k]!.count++
    a.color = active[k]!.color
  })
  return { active, groupOf }
}
