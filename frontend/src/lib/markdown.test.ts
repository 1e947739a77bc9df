import { describe, expect, test } from 'vitest'
import { dropTitleHeading, embedTargets, escapeHtml, renderNote, sectionText } from './markdown'
import { count, note } from './testdata'

const R = { Ada: 'people/Ada.md', B: 'B.md', 'img.png': 'attachments/img.png', 沈括: '中文/沈括.md' }

describe('renderNote', () => {
  test('front matter is not rendered; the body is', () => {
    const html = renderNote(note('a.md', '---\ntitle: x\n---\n# 标题 Title\n\nText.'))
    expect(html).not.toContain('title: x')
    expect(html).toContain('<h1>标题 Title</h1>')
  })

  test('resolved wikilinks point at their vault path, with display text and subpath', () => {
    const html = renderNote(note('a.md', 'See [[Ada|Lady Lovelace]] and [[Ada#Early life]] and [[沈括]].', R))
    expect(html).toContain('<a href="#" class="internal-link" data-href="people/Ada.md">Lady Lovelace</a>')
    expect(html).toContain('data-href="people/Ada.md" data-subpath="Early life">Ada › Early life</a>')
    expect(html).toContain('data-href="中文/沈括.md">沈括</a>')
  })

  test('unresolved wikilinks are marked', () => {
    const html = renderNote(note('a.md', 'A [[Nowhere]] link.'))
    expect(html).toContain('class="internal-link is-unresolved" data-target="Nowhere"')
    expect(html).not.toContain('data-href')
  })

  test('no link parsing inside code', () => {
    const html = renderNote(note('a.md', 'Inline `[[Ada]] #tag` here.\n\n```\n[[Ada]]\n![[B]]\n#tag\n```\n', R))
    expect(html).toContain('<code>[[Ada]] #tag</code>')
    expect(html).toContain('<pre><code>[[Ada]]\n![[B]]\n#tag\n</code></pre>')
    expect(count(html, 'internal-link')).toBe(0)
    expect(count(html, 'class="tag"')).toBe(0)
  })

  test('tags, but not headings, numbers or URL fragments', () => {
    const html = renderNote(note('a.md', '# Heading\n\nA #history and #中文/标签 tag, not #123 nor a#b nor http://x.org/#frag.'))
    expect(html).toContain('<a href="#" class="tag" data-tag="history">#history</a>')
    expect(html).toContain('data-tag="中文/标签"')
    expect(count(html, 'class="tag"')).toBe(2)
    expect(html).toContain('<h1>Heading</h1>')
  })

  test('raw HTML in notes is escaped', () => {
    const html = renderNote(note('a.md', '<script>alert(1)</script>\n\n<img src=x onerror=alert(1)> [[<b>x</b>]]'))
    expect(html).not.toContain('<script>')
    expect(html).not.toContain('<img')
    expect(html).not.toContain('<b>')
    expect(html).toContain('&lt;script&gt;')
  })

  test('javascript: links are not links', () => {
    const html = renderNote(note('a.md', '[x](javascript:alert(1))'))
    expect(html).not.toContain('href="javascript')
  })

  test('Markdown links: external ones open outside, relative ones resolve', () => {
    const n = note('a.md', '[web](https://example.org) [ada](people/Ada.md#Early%20life)')
    n.links.push({ kind: 'markdown', target: 'people/Ada.md', subpath: 'Early life', display: 'ada', start: 0, end: 0, line: 1, resolved: 'people/Ada.md' })
    const html = renderNote(n)
    expect(html).toContain('href="https://example.org" class="external-link" target="_blank" rel="noopener noreferrer"')
    expect(html).toContain('class="internal-link" data-href="people/Ada.md" data-subpath="Early life"')
  })

  test('a block embed shows the embedded note once; its own embeds stay links', () => {
    const a = note('a.md', 'Before\n\n![[B]]\n\nAfter', R)
    const b = note('B.md', '---\nx: 1\n---\nBee body ![[a]]\n\n![[a]]', { a: 'a.md' })
    const html = renderNote(a, new Map([['B.md', b]]))
    expect(html).toContain('<div class="embed" data-embed="B.md">')
    expect(html).toContain('Bee body')
    expect(html).not.toContain('x: 1')
    expect(count(html, 'class="embed"')).toBe(1)
    expect(html).toContain('class="internal-link embed-link" data-href="a.md"')
    expect(html).not.toMatch(/<p>\s*<div/)
  })

  test('a note embedding itself, or an embed not loaded, is a link', () => {
    const self = note('a.md', '![[a]]', { a: 'a.md' })
    expect(renderNote(self, new Map([['a.md', self]]))).not.toContain('class="embed"')
    expect(renderNote(note('a.md', '![[B]]', R))).toContain('class="internal-link embed-link" data-href="B.md"')
  })

  test('an embed inside a sentence is an inline link', () => {
    const b = note('B.md', 'Body')
    const html = renderNote(note('a.md', 'See ![[B]] inline.', R), new Map([['B.md', b]]))
    expect(html).not.toContain('class="embed"')
    expect(html).toContain('embed-link')
  })

  test('images and attachments show a placeholder', () => {
    const html = renderNote(note('a.md', '![[img.png]]\n\n![alt text](local.png)\n\n![[missing.pdf]]', R))
    expect(html).toContain('<span class="attachment" data-attachment="attachments/img.png"')
    expect(html).toContain('alt text</span>')
    expect(html).not.toContain('<img')
  })
})

describe('sectionText', () => {
  const n = note('n.md', '# Top\nintro\n## One\none text\n### Sub\nsub text\n## Two\ntwo text\nline ^blk\n')
  test('a heading section runs to the next heading of the same level', () => {
    expect(sectionText(n, 'One')).toBe('## One\none text\n### Sub\nsub text')
    expect(sectionText(n, 'two')).toBe('## Two\ntwo text\nline ^blk\n')
  })
  test('a block reference is its line', () => {
    expect(sectionText(n, '^blk')).toBe('line')
  })
  test('an unknown heading gives the whole body', () => {
    expect(sectionText(n, 'Nope')).toBe(n.content)
  })
})

test('embedTargets lists embedded notes, not attachments or itself', () => {
  const n = note('a.md', '![[B]] ![[B]] ![[img.png]] ![[a]] ![[Gone]] [[Ada]]', { ...R, a: 'a.md' })
  expect(embedTargets(n)).toEqual(['B.md'])
})

test('escapeHtml', () => {
  expect(escapeHtml(`<a href="x">'&'</a>`)).toBe('&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;')
})

test('a first heading that repeats the title is dropped', () => {
  expect(dropTitleHeading('# Ada\n\nText', 'Ada')).toBe('\nText')
  expect(dropTitleHeading('\n# 沈括 #\nText', '沈括')).toBe('Text')
  expect(dropTitleHeading('# Other\nText', 'Ada')).toBe('# Other\nText')
  expect(dropTitleHeading('## Ada\nText', 'Ada')).toBe('## Ada\nText')
  expect(renderNote(note('people/Ada.md', '---\nx: 1\n---\n# Ada\n\n## Work'))).toBe('<h2>Work</h2>\n')
})
