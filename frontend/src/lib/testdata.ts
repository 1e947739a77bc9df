// Builders for unit tests: NoteViews with links placed by their real byte offsets.
import type { GraphViewSettings, LinkView, NoteView, VaultSettings, VaultSettingsView } from '../api/types'
import { indexToByte } from './utf8'

/** note builds a NoteView from its text; `resolved` maps link targets to vault paths. */
export function note(path: string, content: string, resolved: Record<string, string> = {}, extra: Partial<NoteView> = {}): NoteView {
  const fm = /^---\n[\s\S]*?\n---\n/.exec(content)
  const links: LinkView[] = []
  const re = /(!?)\[\[([^\]]+)\]\]/g
  for (let m = re.exec(content); m; m = re.exec(content)) {
    const inner = m[2] ?? ''
    const target = inner.split('|')[0]?.split('#')[0] ?? ''
    links.push({
      kind: m[1] ? 'embed' : 'wiki',
      target,
      subpath: inner.split('|')[0]?.split('#')[1] ?? '',
      display: inner.split('|')[1] ?? '',
      start: indexToByte(content, m.index),
      end: indexToByte(content, m.index + m[0].length),
      line: content.slice(0, m.index).split('\n').length,
      resolved: target === '' ? path : (resolved[target] ?? ''),
    })
  }
  return {
    library: 'demo',
    path,
    name: path.replace(/\.md$/, ''),
    content,
    hash: 'h',
    entity_type: '',
    aliases: [],
    tags: [],
    summary: '',
    properties: null,
    body_start: fm ? indexToByte(content, fm[0].length) : 0,
    links,
    backlinks: [],
    headings: content
      .split('\n')
      .map((l, i) => ({ m: /^(#{1,6})\s+(.*)$/.exec(l), line: i + 1 }))
      .filter((h) => h.m)
      .map((h) => ({ level: h.m?.[1]?.length ?? 1, text: h.m?.[2] ?? '', line: h.line })),
    warnings: [],
    ...extra,
  }
}

/** dom parses rendered HTML for assertions (vitest runs in node: a tiny query helper). */
export function count(html: string, needle: string): number {
  return html.split(needle).length - 1
}

/**
 * graphViewSettings is a graph's settings as a test wants them (every field set: the
 * backend, not the window, knows the defaults).
 */
export function graphViewSettings(patch: Partial<GraphViewSettings> = {}): GraphViewSettings {
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
    forces: { center: 0.5, repel: 10, link_strength: 1, link_distance: 250 },
    hidden_groups: [],
    ...patch,
  }
}

/** vaultSettingsView is a vault's settings as the backend serves them, for tests. */
export function vaultSettingsView(library = 'demo', settings: Partial<VaultSettings> = {}): VaultSettingsView {
  const defaults: VaultSettings = {
    graph: graphViewSettings(),
    canvas: { budget: 8000, auto_summary: false },
    backup: { pull_on_open: false, push_on_commit: false, interval_minutes: 0, commit_own: false, message_template: 'vault backup: {{date}}' },
  }
  return { library, settings: { ...defaults, ...settings }, defaults, graph_saved: false, obsidian: null, warnings: [] }
}
