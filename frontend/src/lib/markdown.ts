// Markdown rendering of a note: markdown-it (raw HTML off) plus Obsidian's syntax —
// [[wikilinks]], ![[embeds]] and #tags — resolved through the backend's LinkView list.
// Code spans and blocks are left alone by construction: inline rules never run there.
import MarkdownIt from 'markdown-it'
import type { MarkdownIt as Md, StateCore, StateInline, Token } from 'markdown-it'
import type { LinkView, NoteView } from '../api/types'
import { t } from './i18n.svelte'
import { parseWikiInner, type Resolver } from './resolve'
import { sliceBytes } from './utf8'

/** What a render needs besides the Markdown source. */
export interface RenderEnv {
  /** The note being rendered: its links resolve the names, its path is "self". */
  note: NoteView
  /** Notes that block embeds of the top-level note show, by vault path. */
  embeds: ReadonlyMap<string, NoteView>
  /** 0 for the open note, 1 inside an embed (whose embeds then stay links). */
  depth: number
  /** Fallback for names the note's links do not cover. */
  resolve?: Resolver
}

interface WikiMeta {
  target: string
  subpath: string
  display: string
  /** Set on embeds that stand alone in their paragraph. */
  block?: boolean
}

const IMAGE_EXT = /\.(png|jpe?g|gif|webp|svg|bmp|avif)$/i

/** escapeHtml escapes text for element content and attribute values. */
export function escapeHtml(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;')
}

/** resolveLink finds where a link written in env.note points: a vault path or "". */
export function resolveLink(env: RenderEnv, kind: LinkView['kind'], target: string): string {
  if (target === '') return env.note.path
  const links = env.note.links ?? []
  const hit = links.find((l) => l.kind === kind && l.target === target) ?? links.find((l) => l.target === target)
  if (hit) return hit.resolved
  return env.resolve?.(target) ?? ''
}

function wikilinkRule(state: StateInline, silent: boolean): boolean {
  const src = state.src
  let pos = state.pos
  const embed = src.charCodeAt(pos) === 0x21 /* ! */
  if (embed) pos++
  if (src.charCodeAt(pos) !== 0x5b || src.charCodeAt(pos + 1) !== 0x5b) return false
  const close = src.indexOf(']]', pos + 2)
  if (close < 0) return false
  const inner = src.slice(pos + 2, close)
  if (inner.trim() === '' || inner.includes('\n') || inner.includes('[[')) return false
  if (!silent) {
    const t = state.push(embed ? 'mt_embed' : 'mt_wikilink', '', 0)
    t.meta = parseWikiInner(inner) satisfies WikiMeta
    t.content = inner
  }
  state.pos = close + 2
  return true
}

const TAG = /^#([\p{L}\p{N}_\-/]+)/u

function tagRule(state: StateInline, silent: boolean): boolean {
  const src = state.src
  if (src.charCodeAt(state.pos) !== 0x23 /* # */) return false
  const prev = state.pos > 0 ? src.charAt(state.pos - 1) : ''
  if (prev !== '' && !/[\s(]/.test(prev)) return false
  const m = TAG.exec(src.slice(state.pos))
  const name = m?.[1]?.replace(/[/-]+$/, '')
  if (!name || /^\d+$/.test(name)) return false
  if (!silent) {
    const t = state.push('mt_tag', '', 0)
    t.meta = { name }
  }
  state.pos += name.length + 1
  return true
}

/** Marks paragraphs holding nothing but embeds, so those render as blocks. */
function blockEmbeds(state: StateCore): void {
  const ts = state.tokens
  for (let i = 0; i + 2 < ts.length; i++) {
    const open = ts[i]
    const inline = ts[i + 1]
    const close = ts[i + 2]
    if (open?.type !== 'paragraph_open' || inline?.type !== 'inline' || close?.type !== 'paragraph_close') continue
    const kids = (inline.children ?? []).filter((k) => !(k.type === 'softbreak' || (k.type === 'text' && k.content.trim() === '')))
    if (kids.length === 0 || !kids.every((k) => k.type === 'mt_embed')) continue
    for (const k of kids) wikiMeta(k).block = true
    inline.children = kids
    open.hidden = close.hidden = true
  }
}

/** envOf recovers our env from markdown-it's untyped one. */
function envOf(env: unknown): RenderEnv {
  return env as RenderEnv
}

/** render runs markdown-it with our env. */
function render(src: string, env: RenderEnv): string {
  return md.render(src, env as unknown as Record<string, never>)
}

function wikiMeta(t: Token | undefined): WikiMeta {
  return (t?.meta ?? { target: '', subpath: '', display: '' }) as unknown as WikiMeta
}

function linkText(m: WikiMeta): string {
  if (m.display) return m.display
  if (!m.subpath) return m.target
  return m.target ? `${m.target} › ${m.subpath}` : m.subpath
}

function anchor(resolved: string, m: WikiMeta, cls: string): string {
  const text = escapeHtml(linkText(m))
  const sub = m.subpath ? ` data-subpath="${escapeHtml(m.subpath)}"` : ''
  if (resolved === '') {
    return `<a href="#" class="${cls} is-unresolved" data-target="${escapeHtml(m.target)}" title="${escapeHtml(t('props.unresolved', { target: m.target }))}">${text}</a>`
  }
  return `<a href="#" class="${cls}" data-href="${escapeHtml(resolved)}"${sub}>${text}</a>`
}

function renderEmbed(m: WikiMeta, env: RenderEnv): string {
  const resolved = resolveLink(env, 'embed', m.target)
  const name = m.target.slice(m.target.lastIndexOf('/') + 1)
  if (resolved !== '' && !resolved.toLowerCase().endsWith('.md')) {
    const icon = IMAGE_EXT.test(resolved) ? '▣' : '▤'
    return `<span class="attachment" data-attachment="${escapeHtml(resolved)}" title="${escapeHtml(resolved)}"><span class="attachment-icon" aria-hidden="true">${icon}</span>${escapeHtml(m.display || name)}</span>`
  }
  const embedded = env.embeds.get(resolved)
  if (!m.block || !embedded || env.depth > 0 || resolved === env.note.path) {
    return anchor(resolved, m, 'internal-link embed-link')
  }
  const body = renderSection(embedded, m.subpath, { ...env, note: embedded, depth: env.depth + 1 })
  return `<div class="embed" data-embed="${escapeHtml(resolved)}"><div class="embed-title">${anchor(resolved, m, 'internal-link')}</div><div class="embed-body">${body}</div></div>\n`
}

function createMarkdown(): Md {
  const md = new MarkdownIt({ html: false, linkify: true, typographer: false, breaks: false })
  md.inline.ruler.before('link', 'mt_wikilink', wikilinkRule)
  md.inline.ruler.after('mt_wikilink', 'mt_tag', tagRule)
  md.core.ruler.after('inline', 'mt_block_embeds', blockEmbeds)
  const r = md.renderer.rules
  r.mt_wikilink = (ts, i, _o, env) => {
    const m = wikiMeta(ts[i])
    return anchor(resolveLink(envOf(env), 'wiki', m.target), m, 'internal-link')
  }
  r.mt_embed = (ts, i, _o, env) => renderEmbed(wikiMeta(ts[i]), envOf(env))
  r.mt_tag = (ts, i) => {
    const name = escapeHtml(String(ts[i]?.meta?.name ?? ''))
    return `<a href="#" class="tag" data-tag="${name}">#${name}</a>`
  }
  r.link_open = (ts, i, opts, env, self) => {
    const t = ts[i] as Token
    decorateLink(t, envOf(env))
    return self.renderToken(ts, i, opts)
  }
  r.image = (ts, i, opts, env, self) => {
    const t = ts[i] as Token
    const src = String(t.attrGet('src') ?? '')
    if (!/^https?:\/\//i.test(src)) {
      const alt = t.children ? self.renderInlineAsText(t.children, opts, env) : ''
      return `<span class="attachment" title="${escapeHtml(src)}"><span class="attachment-icon" aria-hidden="true">▣</span>${escapeHtml(alt || src)}</span>`
    }
    t.attrSet('loading', 'lazy')
    return self.renderToken(ts, i, opts)
  }
  return md
}

/** decorateLink turns a Markdown link into an internal or an external one. */
function decorateLink(t: Token, env: RenderEnv): void {
  const href = String(t.attrGet('href') ?? '')
  if (/^[a-z][a-z0-9+.-]*:|^\/\//i.test(href)) {
    t.attrJoin('class', 'external-link')
    t.attrSet('target', '_blank')
    t.attrSet('rel', 'noopener noreferrer')
    return
  }
  const hash = href.indexOf('#')
  let path = hash >= 0 ? href.slice(0, hash) : href
  const subpath = hash >= 0 ? safeDecode(href.slice(hash + 1)) : ''
  path = safeDecode(path)
  const resolved = path === '' ? env.note.path : resolveLink(env, 'markdown', path)
  t.attrSet('href', '#')
  if (resolved === '') {
    t.attrJoin('class', 'internal-link is-unresolved')
    t.attrSet('data-target', path)
    return
  }
  t.attrJoin('class', 'internal-link')
  t.attrSet('data-href', resolved)
  if (subpath) t.attrSet('data-subpath', subpath)
}

function safeDecode(s: string): string {
  try {
    return decodeURIComponent(s)
  } catch {
    return s
  }
}

const md = createMarkdown()

/** noteBody returns the text of a note after its front matter. */
export function noteBody(note: NoteView): string {
  return sliceBytes(note.content, note.body_start)
}

/**
 * sectionText returns the part of a note an embed shows: the body, or with a subpath
 * the section under that heading, or the line carrying that ^block id.
 */
export function sectionText(note: NoteView, subpath: string): string {
  if (!subpath) return noteBody(note)
  const lines = note.content.split('\n')
  if (subpath.startsWith('^')) {
    const line = lines.find((l) => l.trimEnd().endsWith(` ${subpath}`) || l.trim() === subpath)
    return line ? line.replace(new RegExp(`\\s*\\${subpath}\\s*$`), '') : ''
  }
  const want = subpath.toLowerCase()
  const hs = note.headings ?? []
  const i = hs.findIndex((h) => h.text.trim().toLowerCase() === want)
  const h = hs[i]
  if (!h) return noteBody(note)
  const next = hs.slice(i + 1).find((n) => n.level <= h.level)
  return lines.slice(h.line - 1, next ? next.line - 1 : lines.length).join('\n')
}

function renderSection(note: NoteView, subpath: string, env: RenderEnv): string {
  return render(sectionText(note, subpath), env)
}

/** noteTitle is what the window shows as a note's title: its base name. */
export function noteTitle(note: Pick<NoteView, 'name'>): string {
  return note.name.slice(note.name.lastIndexOf('/') + 1)
}

/** dropTitleHeading removes a leading "# Title" that only repeats the note's title. */
export function dropTitleHeading(body: string, title: string): string {
  const m = /^\s*#[ \t]+(.+?)[ \t#]*(?:\r?\n|$)/.exec(body)
  return m && m[1]?.trim().toLowerCase() === title.trim().toLowerCase() ? body.slice(m[0].length) : body
}

/**
 * renderNote renders a note's body to HTML; note text is always escaped. A first
 * heading that repeats the title (shown above the properties) is left out.
 */
export function renderNote(note: NoteView, embeds: ReadonlyMap<string, NoteView> = new Map(), resolve?: Resolver): string {
  return render(dropTitleHeading(noteBody(note), noteTitle(note)), { note, embeds, depth: 0, resolve })
}

/** embedTargets lists the notes that renderNote would show embedded. */
export function embedTargets(note: NoteView): string[] {
  const out = new Set<string>()
  for (const l of note.links ?? []) {
    if (l.kind === 'embed' && l.resolved !== '' && l.resolved !== note.path && l.resolved.toLowerCase().endsWith('.md')) out.add(l.resolved)
  }
  return [...out]
}
