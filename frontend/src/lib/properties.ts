// Front matter as rows of a compact properties table: each value becomes text, links
// and tags that a component renders without knowing YAML.
import { parseWikiInner, type Resolver } from './resolve'

export type Part =
  | { kind: 'text'; text: string }
  | { kind: 'link'; text: string; target: string; resolved: string }
  | { kind: 'tag'; name: string }

/** One property: its key and its values (a list shows as several chips). */
export interface PropertyRow {
  key: string
  values: Part[][]
}

/** Keys shown first, in this order; the rest follow alphabetically. */
const FIRST = ['entity type', 'type', 'aliases', 'tags', 'summary', 'relations']
const TAG_KEYS = new Set(['tags', 'tag'])
const LINK_KEYS = new Set(['relation to', 'to'])

/** textParts splits a string into text and [[wikilink]] parts. */
export function textParts(s: string, resolve: Resolver): Part[] {
  const out: Part[] = []
  const re = /\[\[([^\]\n]+)\]\]/g
  let last = 0
  for (let m = re.exec(s); m; m = re.exec(s)) {
    if (m.index > last) out.push({ kind: 'text', text: s.slice(last, m.index) })
    out.push(linkPart(m[1] ?? '', resolve))
    last = m.index + m[0].length
  }
  if (last < s.length) out.push({ kind: 'text', text: s.slice(last) })
  return out
}

function linkPart(inner: string, resolve: Resolver): Part {
  const w = parseWikiInner(inner)
  return { kind: 'link', text: w.display || w.target, target: w.target, resolved: resolve(w.target) }
}

const ISO = /^(\d{4}-\d{2}-\d{2})T(\d{2}:\d{2})(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})?$/

/** formatScalar renders a scalar; timestamps lose seconds and zone. */
export function formatScalar(v: unknown): string {
  if (v === null || v === undefined) return ''
  if (typeof v === 'string') {
    const m = ISO.exec(v)
    return m ? `${m[1]} ${m[2]}` : v
  }
  if (typeof v === 'number' || typeof v === 'boolean') return String(v)
  return JSON.stringify(v)
}

function valueParts(key: string, v: unknown, resolve: Resolver): Part[] {
  if (TAG_KEYS.has(key) && typeof v === 'string') return [{ kind: 'tag', name: v.replace(/^#/, '') }]
  if (typeof v === 'string') {
    if (LINK_KEYS.has(key) && !v.includes('[[')) return [linkPart(v, resolve)]
    return textParts(formatScalar(v), resolve)
  }
  if (v && typeof v === 'object' && !Array.isArray(v)) {
    const o = v as Record<string, unknown>
    const type = o['relation type'] ?? o['type']
    const to = o['relation to'] ?? o['to']
    if (typeof type === 'string' && typeof to === 'string') {
      return [{ kind: 'text', text: `${type} ` }, ...valueParts('relation to', to, resolve)]
    }
    return Object.entries(o).flatMap(([k, x], i) => [
      { kind: 'text' as const, text: `${i > 0 ? ', ' : ''}${k}: ` },
      ...valueParts(k, x, resolve),
    ])
  }
  const s = formatScalar(v)
  return s === '' ? [] : [{ kind: 'text', text: s }]
}

function rank(key: string): number {
  const i = FIRST.indexOf(key.toLowerCase())
  return i < 0 ? FIRST.length : i
}

/** propertyRows turns decoded front matter into table rows. */
export function propertyRows(props: Record<string, unknown> | null | undefined, resolve: Resolver): PropertyRow[] {
  if (!props) return []
  const keys = Object.keys(props).sort((a, b) => rank(a) - rank(b) || a.localeCompare(b))
  return keys.map((key) => {
    const v = props[key]
    const list = Array.isArray(v) ? v : [v]
    const k = key.toLowerCase()
    const values = list.map((x) => valueParts(k, x, resolve)).filter((p) => p.length > 0)
    return { key, values }
  })
}
