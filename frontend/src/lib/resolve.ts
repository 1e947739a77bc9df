// Name resolution on the client, a fallback for names the backend did not resolve for
// us (relation targets written as plain names in properties). Follows Obsidian's rule:
// a full path-name wins, else a unique base name; an ambiguous base name is unresolved.
import type { FileEntry } from '../api/types'

/** parseWikiInner splits the text between "[[" and "]]" into target, subpath and display. */
export function parseWikiInner(inner: string): { target: string; subpath: string; display: string } {
  let display = ''
  let ref = inner
  const pipe = inner.indexOf('|')
  if (pipe >= 0) {
    ref = inner.slice(0, pipe)
    display = inner.slice(pipe + 1).trim()
    if (ref.endsWith('\\')) ref = ref.slice(0, -1) // "\|" inside a table
  }
  let target = ref
  let subpath = ''
  const hash = ref.indexOf('#')
  if (hash >= 0) {
    target = ref.slice(0, hash)
    subpath = ref.slice(hash + 1).trim()
  }
  return { target: target.trim(), subpath, display }
}

/** A resolver of names against a library's file list. */
export type Resolver = (name: string) => string

/** makeResolver indexes the file list; the returned function gives a vault path or "". */
export function makeResolver(files: readonly FileEntry[]): Resolver {
  const byPath = new Map<string, string>()
  const byBase = new Map<string, string[]>()
  for (const f of files) {
    const full = f.path.toLowerCase()
    byPath.set(full, f.path)
    if (f.is_note) byPath.set(full.slice(0, -3), f.path) // the path without .md
    const base = full.slice(full.lastIndexOf('/') + 1)
    const keys = f.is_note ? [base, base.replace(/\.md$/, '')] : [base]
    for (const k of keys) {
      const list = byBase.get(k) ?? []
      list.push(f.path)
      byBase.set(k, list)
    }
  }
  return (name: string) => {
    const n = parseWikiInner(name.replace(/^\[\[|\]\]$/g, '')).target.toLowerCase()
    if (n === '') return ''
    const exact = byPath.get(n) ?? byPath.get(`${n}.md`)
    if (exact) return exact
    const list = byBase.get(n)
    return list && list.length === 1 ? (list[0] ?? '') : ''
  }
}
