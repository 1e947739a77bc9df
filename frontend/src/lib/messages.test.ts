/// <reference types="node" />
// The catalogues against the code: every key the code asks for exists, every key is
// used, and no component shows English that does not go through t().
import fs from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { en } from './messages/en'

const src = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
const files = (fs.readdirSync(src, { recursive: true }) as string[])
  .filter((f) => /\.(svelte|ts)$/.test(f) && !/\.test\.ts$|test-setup\.ts$|messages[/\\]/.test(f))
  .map((f) => ({ name: f.replaceAll('\\', '/'), text: fs.readFileSync(path.join(src, f), 'utf8') }))

const keys = new Set(Object.keys(en))

/** The keys the code asks for by name: t('k'), translate(locale, 'k'), tn('base', …). */
function asked(): Map<string, string> {
  const out = new Map<string, string>()
  for (const f of files) {
    for (const m of f.text.matchAll(/\bt\(\s*'([^']+)'|\btranslate\(\s*[^,]+,\s*'([^']+)'/g)) out.set((m[1] ?? m[2]) as string, f.name)
    for (const m of f.text.matchAll(/\btn\(\s*'([^']+)'/g)) {
      out.set(`${m[1]}.one`, f.name)
      out.set(`${m[1]}.other`, f.name)
    }
  }
  return out
}

// Components whose owners translate them on their own branches (graph, window shell).
// Remove a name once its strings go through t().
const untranslated = new Set(['components/GraphView.svelte', 'components/FileTree.svelte'])

/** Whether a string holds a plain word (not a URL, model name or symbol). */
const wordy = (s: string) => /(^|\s)[A-Za-z]{2,}[,.;:!?…]?(?=\s|$)/.test(s)

/** English a person would see, written straight into a component's markup. */
function hardCoded(text: string): string[] {
  let markup = text.replace(/<script[\s\S]*?<\/script>/g, '').replace(/<style[\s\S]*?<\/style>/g, '').replace(/<!--[\s\S]*?-->/g, '')
  // Expressions and blocks go, innermost first: what is left is literal markup.
  for (let prev = ''; prev !== markup; ) [prev, markup] = [markup, markup.replace(/\{[^{}]*\}/g, '')]
  const found: string[] = []
  for (const m of markup.matchAll(/\b(aria-label|title|placeholder|alt|confirmLabel)="([^"]*)"/g)) {
    if (wordy(m[2] as string)) found.push(m[0])
  }
  for (const m of markup.matchAll(/>([^<>]+)</g)) {
    if (wordy(m[1] as string)) found.push((m[1] as string).trim())
  }
  return found
}

describe('message catalogues', () => {
  it('has every key the code asks for', () => {
    const missing = [...asked()].filter(([k]) => !keys.has(k)).map(([k, f]) => `${k} (${f})`)
    expect(missing).toEqual([])
  })

  it('uses every key it has', () => {
    const all = files.map((f) => f.text).join('\n')
    const unused = [...keys].filter((k) => {
      if (asked().has(k)) return false
      // Keys named in a table (a Record from states to keys) count as used.
      if (all.includes(`'${k}'`)) return false
      return true
    })
    expect(unused).toEqual([])
  })

  it('finds no English written straight into the markup', () => {
    const found = files
      .filter((f) => f.name.endsWith('.svelte') && !untranslated.has(f.name))
      .flatMap((f) => hardCoded(f.text).map((s) => `${f.name}: ${s}`))
    expect(found).toEqual([])
  })

  it('catches a hard-coded label (the check above can fail)', () => {
    expect(hardCoded('<button title="Close">×</button><p>{x} notes</p>')).toEqual(['title="Close"', 'notes'])
    expect(hardCoded('<input placeholder="gpt-4o-mini · https://x.org/v1" />{#each a.filter((x) => x > 1) as b}{/each}')).toEqual([])
    expect(hardCoded(`<script>const a = '<b>Hi</b>'</script><p>{t('a.b')}</p>`)).toEqual([])
  })
})
