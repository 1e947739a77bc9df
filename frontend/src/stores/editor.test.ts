import { expect, test } from 'vitest'
import type { Api, NoteView, SaveResult } from '../api'
import { note } from '../lib/testdata'
import { EditorStore } from './editor.svelte'

/** A disk of one note with compare-and-swap saves, as uiapi.SaveNote behaves. */
class Disk {
  content = '# A\n'
  hash = 'h0'
  n = 0
  saves: string[] = []
  api = {
    saveNote: async (_lib: string, _path: string, content: string, baseHash: string): Promise<SaveResult> => {
      this.saves.push(baseHash)
      if (baseHash !== this.hash) return { hash: this.hash, conflict: true, current: this.content }
      this.write(content)
      return { hash: this.hash, conflict: false }
    },
  } as unknown as Api
  write(content: string) {
    this.content = content
    this.hash = `h${++this.n}`
  }
  view(): NoteView {
    return { ...note('a.md', this.content), hash: this.hash }
  }
}

test('a save goes through when the note is the version loaded', async () => {
  const d = new Disk()
  const ed = new EditorStore(d.api)
  ed.begin(d.view())
  expect(ed.dirty).toBe(false)
  ed.input('# A\n\nmore\n')
  expect(ed.status).toBe('dirty')
  await ed.save()
  expect(ed.status).toBe('saved')
  expect(d.content).toBe('# A\n\nmore\n')
  expect(ed.dirty).toBe(false)
  // The next save is against the new version.
  ed.input('# A\n\nmore still\n')
  await ed.save()
  expect(d.saves).toEqual(['h0', 'h1'])
  expect(d.content).toBe('# A\n\nmore still\n')
})

test('an edit elsewhere while the text is unedited is taken over', () => {
  const d = new Disk()
  const ed = new EditorStore(d.api)
  ed.begin(d.view())
  const rev = ed.revision
  d.write('# A\n\nfrom Obsidian\n')
  ed.noteChanged(d.view())
  expect(ed.text).toBe('# A\n\nfrom Obsidian\n')
  expect(ed.status).toBe('clean')
  expect(ed.revision).toBe(rev + 1)
})

test('an edit elsewhere while editing is a conflict; nothing is overwritten until asked', async () => {
  const d = new Disk()
  const ed = new EditorStore(d.api)
  ed.begin(d.view())
  ed.input('# A\n\nmine\n')
  d.write('# A\n\ntheirs\n')
  ed.noteChanged(d.view())
  expect(ed.status).toBe('conflict')
  expect(ed.theirs).toBe('# A\n\ntheirs\n')
  expect(ed.text).toBe('# A\n\nmine\n')
  await ed.save() // still against the old version: refused
  expect(d.content).toBe('# A\n\ntheirs\n')
  expect(ed.status).toBe('conflict')
  await ed.overwrite()
  expect(d.content).toBe('# A\n\nmine\n')
  expect(ed.status).toBe('saved')
})

test('a save that meets a change it had not heard of becomes a conflict, and reload takes theirs', async () => {
  const d = new Disk()
  const ed = new EditorStore(d.api)
  ed.begin(d.view())
  ed.input('# A\n\nmine\n')
  d.write('# A\n\ntheirs\n') // no event yet
  await ed.save()
  expect(ed.status).toBe('conflict')
  expect(d.content).toBe('# A\n\ntheirs\n')
  ed.reload()
  expect(ed.text).toBe('# A\n\ntheirs\n')
  expect(ed.dirty).toBe(false)
})

test('a failing save keeps the text and says why', async () => {
  const ed = new EditorStore({
    saveNote: async () => {
      throw new Error('save a.md: disk full')
    },
  } as unknown as Api)
  ed.begin({ ...note('a.md', '# A\n'), hash: 'h0' })
  ed.input('# A\n\nkept\n')
  await ed.save()
  expect(ed.status).toBe('error')
  expect(ed.error).toContain('disk full')
  expect(ed.text).toBe('# A\n\nkept\n')
  expect(ed.dirty).toBe(true)
})

test('a copy of the note older than our save, arriving late, is ignored', async () => {
  const d = new Disk()
  const ed = new EditorStore(d.api)
  ed.begin(d.view())
  ed.input('# A\n\nmine\n')
  d.write('# A\n\ntheirs\n')
  const theirs = d.view()
  ed.noteChanged(theirs)
  await ed.overwrite()
  expect(ed.status).toBe('saved')
  ed.noteChanged(theirs) // the reload started before our save completes after it
  expect(ed.text).toBe('# A\n\nmine\n')
  expect(ed.status).toBe('saved')
  d.write('# A\n\nlater, from Obsidian\n') // a genuinely newer version is still taken
  ed.noteChanged(d.view())
  expect(ed.text).toBe('# A\n\nlater, from Obsidian\n')
})
