import { describe, expect, test } from 'vitest'
import { byteToIndex, indexToByte, sliceBytes } from './utf8'

describe('byte offsets', () => {
  const s = 'aé中😀b' // 1 + 2 + 3 + 4 + 1 bytes; 1 + 1 + 1 + 2 + 1 code units
  test.each([
    [0, 0],
    [1, 1],
    [3, 2],
    [6, 3],
    [10, 5],
    [11, 6],
    [99, 6],
  ])('byte %i is index %i', (b, i) => {
    expect(byteToIndex(s, b)).toBe(i)
  })
  test('an offset inside a character maps to its start', () => {
    expect(byteToIndex(s, 2)).toBe(1)
    expect(byteToIndex(s, 8)).toBe(3)
  })
  test('round trip', () => {
    for (let i of [0, 1, 2, 3, 5, 6]) expect(byteToIndex(s, indexToByte(s, i))).toBe(i)
  })
  test('sliceBytes cuts front matter off a CJK note', () => {
    const note = '---\ntitle: 沈括\n---\n正文'
    const bodyStart = new TextEncoder().encode('---\ntitle: 沈括\n---\n').length
    expect(sliceBytes(note, bodyStart)).toBe('正文')
    expect(sliceBytes(note, 4, 17)).toBe('title: 沈括')
  })
})
