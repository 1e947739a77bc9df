// The graph's settings as the window keeps them (see backend/uiapi/graphsettings.go):
// the defaults, and the forces in the layout engine's terms.
import type { GraphViewSettings } from '../api/types'
import type { Forces } from './graphLayoutEngine'

/** A graph shown as Obsidian shows one by default. */
export function defaultGraphView(): GraphViewSettings {
  return {
    color_groups: [],
    search: '',
    show_orphans: true,
    show_unresolved: true,
    show_attachments: false,
    show_tags: false,
    show_arrows: false,
    text_fade: 0,
    node_size: 1,
    link_thickness: 1,
    forces: { center: 0.518713, repel: 10, link_strength: 1, link_distance: 250 },
    hidden_groups: [],
  }
}

/** layoutForces turns the settings' forces into the layout engine's. */
export function layoutForces(v: GraphViewSettings): Forces {
  const f = v.forces
  return { center: f.center, repel: f.repel, linkStrength: f.link_strength, linkDistance: f.link_distance }
}
