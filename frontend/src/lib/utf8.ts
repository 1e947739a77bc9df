// The backend reports positions as UTF-8 byte offsets; JavaScript strings index UTF-16
// code units. These convert between the two.

/** utf8Length is the number of UTF-8 bytes of one code point. */
function utf8Length(cp: number): number {
  if (cp < 0x80) return 1
  if (cp < 0x800) return 2
  if (cp < 0x10000) return 3
  return 4
}

/**
 * byteToIndex returns the string index at a UTF-8 byte offset. An offset inside a
 * multi-byte character maps to the start of that character; past the end, to the end.
 */
export function byteToIndex(s: string, byteOffset: number): number {
  if (byteOffset <= 0) return 0
  let bytes = 0
  let i = 0
  while (i < s.length) {
    const cp = s.codePointAt(i) ?? 0
    const n = utf8Length(cp)
    if (bytes + n > byteOffset) return i
    bytes += n
    i += cp > 0xffff ? 2 : 1
    if (bytes === byteOffset) return i
  }
  return s.length
}

/** indexToByte returns the UTF-8 byte offset of a string index. */
export function indexToByte(s: string, index: number): number {
  let bytes = 0
  let i = 0
  const end = Math.min(index, s.length)
  while (i < end) {
    const cp = s.codePointAt(i) ?? 0
    bytes += utf8Length(cp)
    i += cp > 0xffff ? 2 : 1
  }
  return bytes
}

/** sliceBytes returns the text between two UTF-8 byte offsets (end exclusive). */
export function sliceBytes(s: string, start: number, end?: number): string {
  const from = byteToIndex(s, start)
  return end === undefined ? s.slice(from) : s.slice(from, byteToIndex(s, end))
}
