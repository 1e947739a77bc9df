// The queries of the graph's colour groups and search filter, in the words of
// Obsidian's search: `path:`, `file:`, `tag:`, plain words and "quoted phrases",
// `-` to exclude, `OR` between alternatives, parentheses, `/regular expressions/` as
// values of path: and file: (and alone); and MemoTree's `type:` for
// an entity type. Terms side by side must all match. Plain words match a note's name,
// path and aliases (Obsidian also searches the text of notes, which the graph does not
// hold). Matching ignores case and width. A query that does not parse matches nothing,
// and says why.

/** What a query is matched against: one node of the graph. */
export interface QueryTarget {
  /** The vault path ("" for an unresolved name or a tag). */
  path: string
  label: string
  aliases?: readonly string[]
  /** Tags without "#". */
  tags?: readonly string[]
  entityType?: string
}

type Node =
  | { op: 'and' | 'or'; parts: Node[] }
  | { op: 'not'; part: Node }
  | { op: 'term'; field: Field; value: string; re?: RegExp }

type Field = 'any' | 'path' | 'file' | 'tag' | 'type'

const FIELDS = new Set(['path', 'file', 'tag', 'type'])

/** A parsed query: `match` tells whether a node matches; `error` says why it does not parse. */
export interface Query {
  match(t: QueryTarget): boolean
  /** Empty queries match every node. */
  empty: boolean
  error?: string
}

function fold(s: string): string {
  return s.normalize('NFKC').toLowerCase()
}

/** A word a regular expression may start: nothing yet, "-", or a field's "path:" / "file:". */
const BEFORE_REGEX = /^-?((path|file):)?$/i

/**
 * regexEnd returns the index of the "/" that closes the regular expression opened at
 * `start` (a "/"), skipping escaped characters, or -1 when none does.
 */
function regexEnd(q: string, start: number): number {
  for (let k = start + 1; k < q.length; k++) {
    if (q[k] === '\\') k++
    else if (q[k] === '/') return k > start + 1 ? k : -1
  }
  return -1
}

/**
 * tokens cuts a query into words, quoted phrases, "(", ")" and "-" prefixes. A
 * regular expression ("/…/", alone or after "path:" or "file:") is one word up to its
 * closing "/", whatever it holds: groups, spaces, quotes.
 */
function tokens(q: string): string[] {
  const out: string[] = []
  let i = 0
  while (i < q.length) {
    const c = q[i]!
    if (/\s/.test(c)) {
      i++
      continue
    }
    if (c === '(' || c === ')') {
      out.push(c)
      i++
      continue
    }
    let j = i
    let tok = ''
    while (j < q.length && !/\s/.test(q[j]!) && q[j] !== '(' && q[j] !== ')') {
      const end = q[j] === '/' && BEFORE_REGEX.test(tok) ? regexEnd(q, j) : -1
      if (end > 0) {
        tok += q.slice(j, end + 1)
        j = end + 1
      } else if (q[j] === '"') {
        const end = q.indexOf('"', j + 1)
        if (end < 0) throw new Error('a quotation mark is not closed')
        tok += q.slice(j, end + 1)
        j = end + 1
      } else tok += q[j++]
    }
    out.push(tok)
    i = j
  }
  return out
}

function unquote(s: string): string {
  return s.replace(/"/g, '')
}

/** parseQuery reads a query (see the top of this file). */
export function parseQuery(q: string): Query {
  const text = q.trim()
  if (text === '') return { match: () => true, empty: true }
  let toks: string[]
  try {
    toks = tokens(text)
  } catch (e) {
    return { match: () => false, empty: false, error: (e as Error).message }
  }
  let pos = 0
  const orExpr = (): Node => {
    const parts = [andExpr()]
    while (toks[pos] === 'OR') {
      pos++
      parts.push(andExpr())
    }
    return parts.length === 1 ? parts[0]! : { op: 'or', parts }
  }
  const andExpr = (): Node => {
    const parts: Node[] = []
    while (pos < toks.length && toks[pos] !== ')' && toks[pos] !== 'OR') parts.push(unary())
    if (parts.length === 0) throw new Error(pos < toks.length ? `nothing before "${toks[pos]}"` : 'the query ends too soon')
    return parts.length === 1 ? parts[0]! : { op: 'and', parts }
  }
  const unary = (): Node => {
    const t = toks[pos]!
    if (t === '(') {
      pos++
      const inner = orExpr()
      if (toks[pos] !== ')') throw new Error('a parenthesis is not closed')
      pos++
      return inner
    }
    if (t === '-' && toks[pos + 1] === '(') {
      pos++
      return { op: 'not', part: unary() }
    }
    if (t.startsWith('-') && t.length > 1) {
      toks[pos] = t.slice(1)
      return { op: 'not', part: unary() }
    }
    pos++
    const colon = t.indexOf(':')
    const field = colon > 0 ? t.slice(0, colon).toLowerCase() : ''
    const raw = colon > 0 && FIELDS.has(field) ? t.slice(colon + 1) : t
    if ((field === 'path' || field === 'file' || !FIELDS.has(field)) && raw.length > 2 && raw.startsWith('/') && raw.endsWith('/')) {
      let re: RegExp
      try {
        re = new RegExp(raw.slice(1, -1), 'i')
      } catch {
        throw new Error(`${raw} is not a regular expression`)
      }
      return { op: 'term', field: FIELDS.has(field) ? (field as Field) : 'any', value: '', re }
    }
    if (FIELDS.has(field)) {
      const value = fold(unquote(t.slice(colon + 1)))
      if (value === '') throw new Error(`${field}: needs a value`)
      return { op: 'term', field: field as Field, value: field === 'tag' ? value.replace(/^#/, '') : value }
    }
    return { op: 'term', field: 'any', value: fold(unquote(t)) }
  }
  try {
    const tree = orExpr()
    if (pos < toks.length) throw new Error(`unexpected "${toks[pos]}"`)
    return { match: (t) => evaluate(tree, t), empty: false }
  } catch (e) {
    return { match: () => false, empty: false, error: (e as Error).message }
  }
}

function evaluate(n: Node, t: QueryTarget): boolean {
  switch (n.op) {
    case 'and':
      return n.parts.every((p) => evaluate(p, t))
    case 'or':
      return n.parts.some((p) => evaluate(p, t))
    case 'not':
      return !evaluate(n.part, t)
    case 'term':
      return n.re ? regexTerm(n.field, n.re, t) : term(n.field, n.value, t)
  }
}

function regexTerm(field: Field, re: RegExp, t: QueryTarget): boolean {
  const file = t.path.slice(t.path.lastIndexOf('/') + 1) || t.label
  if (field === 'path') return t.path !== '' && re.test(t.path)
  if (field === 'file') return re.test(file)
  return re.test(t.label) || re.test(t.path) || (t.aliases ?? []).some((a) => re.test(a))
}

function term(field: Field, v: string, t: QueryTarget): boolean {
  switch (field) {
    case 'path':
      return t.path !== '' && fold(t.path).includes(v)
    case 'file':
      return fold(t.path.slice(t.path.lastIndexOf('/') + 1) || t.label).includes(v)
    case 'tag':
      return (t.tags ?? []).some((x) => {
        const f = fold(x)
        return f === v || f.startsWith(v + '/')
      })
    case 'type':
      return fold((t.entityType ?? '').trim()) === v
    case 'any':
      return fold(t.label).includes(v) || fold(t.path).includes(v) || (t.aliases ?? []).some((a) => fold(a).includes(v))
  }
}
