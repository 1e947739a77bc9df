import { expect, test } from 'vitest'
import type { GraphData } from '../api/types'
import { buildGraph } from './graphModel'
import { BIG, BUSY, globalLayoutMs, labelThreshold, layoutPostEvery, localLayoutMs, renderOnBareRefresh, sizeSettings, type Refreshable } from './graphSigma'

test('sigma’s settings follow the size of the graph on screen', () => {
  expect(sizeSettings(10, 0)).toEqual({ hideEdgesOnMove: false, hideLabelsOnMove: false, enableEdgeEvents: true, labelRenderedSizeThreshold: 3.5 })
  expect(sizeSettings(BUSY + 1, 0)).toMatchObject({ hideEdgesOnMove: true, hideLabelsOnMove: true, enableEdgeEvents: true })
  expect(sizeSettings(BIG + 1, 0)).toEqual({ hideEdgesOnMove: true, hideLabelsOnMove: true, enableEdgeEvents: false, labelRenderedSizeThreshold: 8 })
  // The text fade moves the labels' threshold, never below half a pixel.
  expect(labelThreshold(false, 2)).toBe(6.5)
  expect(labelThreshold(false, -3)).toBe(0.5)
  expect(sizeSettings(BIG + 1, 1).labelRenderedSizeThreshold).toBe(9.5)
})

function graphOf(nodes: number, edges: number) {
  const d: GraphData = {
    library: 'v',
    nodes: Array.from({ length: nodes }, (_, i) => `n${i}.md`),
    labels: Array.from({ length: nodes }, (_, i) => `n${i}`),
    types: [''],
    node_types: Array.from({ length: nodes }, () => 0),
    first_unresolved: nodes,
    relations: ['links to'],
    edges: Array.from({ length: edges }, (_, i) => [i % nodes, (i + 1) % nodes, 0]).flat(),
    aliases: {},
  }
  return buildGraph(d)
}

test('a layout runs longer on a bigger graph, within bounds; a big graph moves once', () => {
  const small = graphOf(10, 10)
  expect(globalLayoutMs(small)).toBe(1520)
  expect(globalLayoutMs(graphOf(2000, 10))).toBe(4000)
  expect(localLayoutMs(small)).toBe(540)
  expect(localLayoutMs(graphOf(1000, 0))).toBe(2000)
  expect(layoutPostEvery(small, 3000)).toBe(100)
  const big = graphOf(200, BIG + 1)
  expect(globalLayoutMs(big)).toBe(5000)
  expect(layoutPostEvery(big, 5000)).toBe(5000)
})

test('a bare refresh only renders, except inside setGraph; a refresh with options is passed on', () => {
  const calls: unknown[] = []
  const fake: Refreshable = {
    refresh: (opts) => {
      calls.push(opts ?? 'bare')
      return fake as never
    },
    setGraph: () => {
      fake.refresh()
    },
  }
  renderOnBareRefresh(fake)
  fake.refresh()
  fake.refresh({ skipIndexation: true })
  fake.setGraph(buildGraph({ library: '', nodes: [], labels: [], types: [''], node_types: [], first_unresolved: 0, relations: [], edges: [], aliases: {} }))
  expect(calls).toEqual([{ partialGraph: {}, skipIndexation: true }, { skipIndexation: true }, 'bare'])
})
