/** A piece of a snippet: matched text is marked. */
export interface Segment {
  text: string
  mark: boolean
}

/**
 * highlightSegments splits a rendered snippet, whose matches the backend wraps in
 * `**`, into plain and marked segments. An unpaired `**` is kept as text.
 */
export function highlightSegments(rendered: string): Segment[] {
  const out: Segment[] = []
  let rest = rendered
  while (rest.length > 0) {
    const open = rest.indexOf('**')
    if (open < 0) break
    const close = rest.indexOf('**', open + 2)
    if (close < 0) break
    if (open > 0) out.push({ text: rest.slice(0, open), mark: false })
    if (close > open + 2) out.push({ text: rest.slice(open + 2, close), mark: true })
    rest = rest.slice(close + 2)
  }
  if (rest.length > 0) out.push({ text: rest, mark: false })
  return out
}
