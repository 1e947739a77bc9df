import { expect, test } from 'vitest'
import shapes from '../api/shapes.gen.json'
import type { GraphViewSettings } from '../api/types'
import { filterChecked, filterPatch, graphFilter, GRAPH_FILTERS, layoutForces, VIEW_EFFECTS, viewChange, viewKey } from './graphViewSettings'
import { graphViewSettings } from './testdata'

test('every setting the backend sends has an effect on the view', () => {
  const sent = (shapes as Record<string, { name: string }[]>)['uiapi.GraphView']!.map((f) => f.name).sort()
  expect(Object.keys(VIEW_EFFECTS).sort()).toEqual(sent)
})

test('the filters build the graph’s filter, the search parsed', () => {
  const v = graphViewSettings({ show_tags: true, show_attachments: true, show_unresolved: false, show_orphans: false, search: 'tag:#x' })
  const f = graphFilter(v)
  expect({ ...f, search: f.search !== null }).toEqual({ tags: true, attachments: true, unresolved: false, orphans: false, search: true })
  expect(graphFilter(graphViewSettings({ search: '  ' })).search).toBeNull()
  // Every filter of the list reaches the graph's filter, and no other.
  for (const def of GRAPH_FILTERS) {
    const on = graphFilter(graphViewSettings({ [def.setting]: true }))
    const off = graphFilter(graphViewSettings({ [def.setting]: false }))
    expect([on[def.filter], off[def.filter]], def.setting).toEqual([true, false])
  }
})

test('a checkbox shows its filter, inverted where it says the opposite', () => {
  const existingOnly = GRAPH_FILTERS.find((f) => f.setting === 'show_unresolved')!
  expect(filterChecked(graphViewSettings({ show_unresolved: true }), existingOnly)).toBe(false)
  expect(filterPatch(existingOnly, true)).toEqual({ show_unresolved: false })
  const tags = GRAPH_FILTERS.find((f) => f.setting === 'show_tags')!
  expect(filterChecked(graphViewSettings({ show_tags: true }), tags)).toBe(true)
  expect(filterPatch(tags, false)).toEqual({ show_tags: false })
})

/** A value of each setting other than testdata's. */
const changed: { [K in keyof GraphViewSettings]: GraphViewSettings[K] } = {
  color_groups: [{ query: 'tag:#x', color: '#123456' }],
  search: 'path:People',
  show_orphans: false,
  show_unresolved: false,
  show_attachments: true,
  show_tags: true,
  show_arrows: true,
  text_fade: 1,
  node_size: 2,
  link_thickness: 2,
  forces: { center: 0.1, repel: 3, link_strength: 0.5, link_distance: 100 },
  hidden_groups: ['tag:#x'],
}

test('a change of each setting asks the view for its effect alone: a filter rebuilds the graph', () => {
  const before = graphViewSettings()
  for (const k of Object.keys(changed) as (keyof GraphViewSettings)[]) {
    const after = { ...before, [k]: changed[k] }
    const effect = VIEW_EFFECTS[k]
    expect(viewChange(before, after), k).toEqual({ rebuild: effect === 'rebuild', layout: effect === 'layout', look: effect === 'look' })
  }
  for (const f of GRAPH_FILTERS) expect(VIEW_EFFECTS[f.setting], f.setting).toBe('rebuild')
  expect(viewChange(before, { ...before })).toEqual({ rebuild: false, layout: false, look: false })
  expect(viewKey(before, 'rebuild')).toBe(viewKey(graphViewSettings(), 'rebuild'))
})

test('the forces in the layout engine’s terms', () => {
  expect(layoutForces(graphViewSettings({ forces: { center: 0.2, repel: 4, link_strength: 0.3, link_distance: 90 } }))).toEqual({
    center: 0.2,
    repel: 4,
    linkStrength: 0.3,
    linkDistance: 90,
  })
})
