import { describe, expect, test } from 'vitest'
import { highlightSegments } from './highlight'

describe('highlightSegments', () => {
  test('marks what lies between pairs of **', () => {
    expect(highlightSegments('the **Analytical** **Engine**.')).toEqual([
      { text: 'the ', mark: false },
      { text: 'Analytical', mark: true },
      { text: ' ', mark: false },
      { text: 'Engine', mark: true },
      { text: '.', mark: false },
    ])
  })
  test('Chinese and an unpaired marker', () => {
    expect(highlightSegments('双向**反向链接**面板 **x')).toEqual([
      { text: '双向', mark: false },
      { text: '反向链接', mark: true },
      { text: '面板 **x', mark: false },
    ])
  })
  test('plain text and the empty string', () => {
    expect(highlightSegments('plain')).toEqual([{ text: 'plain', mark: false }])
    expect(highlightSegments('')).toEqual([])
  })
})
