// The graph's settings as the graph view reads them (their values and defaults are
// the backend's: backend/uiapi/graphsettings.go). GRAPH_FILTERS is the one list of the
// graph's filters: the settings panel's checkboxes, the filter the graph is built with
// and what makes the view build it again are all derived from it. A new filter is a
// field of GraphView (Go) and GraphViewSettings (src/api/types.ts), one line here, its
// label (lib/messages) and what it keeps out (graphModel's keptNodes).
import type { GraphViewSettings } from '../api/types'
import type { MessageKey } from './i18n.svelte'
import type { Forces } from './graphLayoutEngine'
import type { GraphFilter } from './graphModel'
import { parseQuery } from './graphQuery'

/** A setting that is a checkbox of the graph's filters. */
type FilterSetting = { [K in keyof GraphViewSettings]: GraphViewSettings[K] extends boolean ? K : never }[keyof GraphViewSettings]
/** A filter of graphModel that is on or off. */
type FilterFlag = { [K in keyof GraphFilter]: GraphFilter[K] extends boolean ? K : never }[keyof GraphFilter]

/** One filter of the graph: a checkbox of the settings panel and a field of GraphFilter. */
export interface GraphFilterDef {
  /** The setting it is kept in. */
  setting: FilterSetting
  /** The field of GraphFilter it sets. */
  filter: FilterFlag
  /** The checkbox's label. */
  label: MessageKey
  /** The checkbox's test id. */
  testid: string
  /** The checkbox is ticked when the setting is off ("Existing files only" hides unresolved names). */
  inverted?: boolean
}

/** The graph's filters, in the order the settings panel shows them (after the search). */
export const GRAPH_FILTERS = [
  { setting: 'show_tags', filter: 'tags', label: 'graph.settings.tags', testid: 'graph-show-tags' },
  { setting: 'show_attachments', filter: 'attachments', label: 'graph.settings.attachments', testid: 'graph-show-attachments' },
  { setting: 'show_unresolved', filter: 'unresolved', label: 'graph.settings.existingOnly', testid: 'graph-existing-only', inverted: true },
  { setting: 'show_orphans', filter: 'orphans', label: 'graph.settings.orphans', testid: 'graph-show-orphans' },
] as const satisfies readonly GraphFilterDef[]

type FilterSettings = (typeof GRAPH_FILTERS)[number]['setting']

/** Every on/off field of GraphFilter has its definition above (a missing one fails `npm run check`). */
const everyFlagDefined: Exclude<FilterFlag, (typeof GRAPH_FILTERS)[number]['filter']> extends never ? true : false = true
void everyFlagDefined

/** What a change of a setting costs the view. */
export type ViewEffect =
  /** The graph is built again (positions kept): it changes which nodes there are, or their colours. */
  | 'rebuild'
  /** The graph is laid out again. */
  | 'layout'
  /** The graph is drawn again. */
  | 'look'

/**
 * What a change of each setting costs, the filters' (rebuild) aside: a setting added to
 * GraphViewSettings and to none of these lists fails `npm run check` until it is put
 * in one, so that no change of it goes unseen by the view.
 */
const EFFECTS = {
  search: 'rebuild',
  color_groups: 'rebuild',
  forces: 'layout',
  node_size: 'look',
  link_thickness: 'look',
  show_arrows: 'look',
  text_fade: 'look',
  hidden_groups: 'look',
} as const satisfies Record<Exclude<keyof GraphViewSettings, FilterSettings>, ViewEffect>

/** The effect of a change of each setting. */
export const VIEW_EFFECTS: Readonly<Record<keyof GraphViewSettings, ViewEffect>> = {
  ...EFFECTS,
  ...(Object.fromEntries(GRAPH_FILTERS.map((f) => [f.setting, 'rebuild'])) as Record<FilterSettings, 'rebuild'>),
}

/** The settings whose change has an effect, in a fixed order. */
const KEYS = Object.keys(VIEW_EFFECTS).sort() as (keyof GraphViewSettings)[]

/**
 * viewKey is what a view's settings are as far as an effect goes: two views with the
 * same key need nothing of it done again (the view's redraw key).
 */
export function viewKey(v: GraphViewSettings, effect: ViewEffect): string {
  return JSON.stringify(KEYS.filter((k) => VIEW_EFFECTS[k] === effect).map((k) => v[k]))
}

/** What a change of the settings from `before` to `after` asks of the view. */
export interface ViewChange {
  rebuild: boolean
  layout: boolean
  look: boolean
}

/** viewChange compares two views' settings, effect by effect. */
export function viewChange(before: GraphViewSettings, after: GraphViewSettings): ViewChange {
  return {
    rebuild: viewKey(before, 'rebuild') !== viewKey(after, 'rebuild'),
    layout: viewKey(before, 'layout') !== viewKey(after, 'layout'),
    look: viewKey(before, 'look') !== viewKey(after, 'look'),
  }
}

/** graphFilter is the filter the graph is built with, from the settings. */
export function graphFilter(v: GraphViewSettings): GraphFilter {
  const search = parseQuery(v.search)
  const flags = Object.fromEntries(GRAPH_FILTERS.map((f) => [f.filter, v[f.setting]])) as Record<FilterFlag, boolean>
  return { ...flags, search: search.empty ? null : search }
}

/** filterChecked is whether a filter's checkbox is ticked. */
export function filterChecked(v: GraphViewSettings, f: GraphFilterDef): boolean {
  return f.inverted ? !v[f.setting] : v[f.setting]
}

/** filterPatch is the change of the settings a tick (or untick) of a filter's checkbox makes. */
export function filterPatch(f: GraphFilterDef, checked: boolean): Partial<GraphViewSettings> {
  return { [f.setting]: f.inverted ? !checked : checked }
}

/** layoutForces turns the settings' forces into the layout engine's. */
export function layoutForces(v: GraphViewSettings): Forces {
  const f = v.forces
  return { center: f.center, repel: f.repel, linkStrength: f.link_strength, linkDistance: f.link_distance }
}
