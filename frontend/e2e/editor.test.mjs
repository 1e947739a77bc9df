// The editor in a real browser: edit, save through compare-and-swap, and a conflict
// with an edit made on disk meanwhile that loses neither side.
import assert from 'node:assert/strict'
import fs from 'node:fs'
import path from 'node:path'
import { after, before, describe, test } from 'node:test'
import { openApp, vaultNotes, waitFor } from './harness.mjs'

const tree = '[data-testid="file-tree"]'
const noteView = '[data-testid="note-view"]'
const editor = '[data-testid="note-editor"] .cm-content'
const entry = (p) => `${tree} [data-path="${p.replace(/"/g, '\\"')}"]`

/** waitFile waits until the file holds what pred accepts. */
async function waitFile(file, pred, what) {
  let text = ''
  await waitFor(() => pred((text = fs.readFileSync(file, 'utf8'))), () => `the file to change (${what}); it holds ${JSON.stringify(text.slice(-200))}`)
  return text
}

describe('the editor', () => {
  let server, browser, page, note, file

  before(async () => {
    ;({ server, browser, page } = await openApp())
    note = vaultNotes(server.vaultDir).find((p) => !p.includes('/')) ?? vaultNotes(server.vaultDir)[0]
    file = path.join(server.vaultDir, note)
    await page.click(entry(note))
    await page.waitForSelector(`${noteView}[data-path="${note}"]`)
  })

  after(async () => {
    await browser?.close()
    await server?.stop()
  })

  test('Ctrl+E edits the source, Ctrl+S saves it to disk and the view shows it', async () => {
    const before = fs.readFileSync(file, 'utf8')
    await page.keyboard.press('Control+e')
    await page.waitForSelector(editor)
    assert.equal(await page.locator(editor).evaluate((el) => el.textContent?.length ?? 0) > 0, true)
    await page.click(editor)
    await page.keyboard.press('Control+End')
    await page.keyboard.type('\nA line typed in the editor, with [[Welcome]].\n')
    await page.waitForSelector('[data-testid="save-status"]:has-text("Edited")')
    await page.keyboard.press('Control+s')
    await page.waitForSelector('[data-testid="save-status"]:has-text("Saved")')
    const after = await waitFile(file, (t) => t.includes('A line typed in the editor'), 'after Ctrl+S')
    assert.ok(after.startsWith(before.trimEnd()), 'the rest of the note is kept byte for byte')
    await page.click('button:has-text("Done")')
    await page.waitForSelector(`${noteView} :text("A line typed in the editor")`)
  })

  test('an edit on disk while editing is a conflict; keeping mine overwrites only when asked', async () => {
    await page.keyboard.press('Control+e')
    await page.waitForSelector(editor)
    await page.click(editor)
    await page.keyboard.press('Control+End')
    await page.keyboard.type('\nmine, unsaved\n')
    const theirs = fs.readFileSync(file, 'utf8') + '\ntheirs, written by another editor\n'
    fs.writeFileSync(file, theirs)
    await page.waitForSelector('[data-testid="edit-conflict"]', { timeout: 30000 })
    assert.equal(fs.readFileSync(file, 'utf8'), theirs, 'nothing was overwritten')
    // A save against the old version is refused: its answer comes back, and the file
    // is theirs still.
    const refused = page.waitForResponse((r) => r.url().endsWith('/api/call/SaveNote'))
    await page.keyboard.press('Control+s')
    assert.equal((await refused).status(), 200)
    assert.equal(fs.readFileSync(file, 'utf8'), theirs)
    await page.waitForSelector('[data-testid="edit-conflict"]')
    // The save below comes back through the watcher: the page reads the note again.
    const reread = page.waitForResponse((r) => r.url().endsWith('/api/call/Note'), { timeout: 30000 })
    await page.click('button:has-text("Keep mine")')
    const after = await waitFile(file, (t) => t.includes('mine, unsaved'), 'after Keep mine')
    assert.ok(!after.includes('theirs, written by another editor'))
    await page.waitForSelector('[data-testid="save-status"]:has-text("Saved")')
    // The save coming back through the watcher leaves the editor on our text (the
    // editor draws only the lines in view: go to the end first).
    await reread
    await page.click(editor)
    await page.keyboard.press('Control+End')
    const shown = await page.locator(editor).textContent()
    assert.ok(shown.includes('mine, unsaved'), `the editor shows ${JSON.stringify(shown.slice(-120))}`)
    assert.equal(await page.locator('[data-testid="edit-conflict"]').count(), 0)
  })

  test('a note with a BOM, CRLF line endings and no final line break keeps them through a save', async () => {
    const crlf = 'Windows note.md'
    const f = path.join(server.vaultDir, crlf)
    fs.writeFileSync(f, '\ufeff# Windows note\r\n\r\nWritten on Windows')
    await page.waitForSelector(entry(crlf), { timeout: 30000 })
    await page.click(entry(crlf))
    await page.waitForSelector(`${noteView}[data-path="${crlf}"]`)
    await page.keyboard.press('Control+e')
    await page.waitForSelector(editor)
    await page.click(editor)
    await page.keyboard.press('Control+End')
    await page.keyboard.type('\nA second line from the editor.')
    const reread = page.waitForResponse((r) => r.url().endsWith('/api/call/Note'), { timeout: 30000 })
    await page.keyboard.press('Control+s')
    await page.waitForSelector('[data-testid="save-status"]:has-text("Saved")')
    const after = await waitFile(f, (t) => t.includes('A second line'), 'after Ctrl+S')
    assert.equal(after, '\ufeff# Windows note\r\n\r\nWritten on Windows\r\nA second line from the editor.')
    // The save coming back through the watcher (the page reads the note again) is no
    // conflict: the editor follows it.
    await reread
    assert.equal(await page.locator('[data-testid="edit-conflict"]').count(), 0)
    await page.click('button:has-text("Done")')
    await page.waitForSelector(`${noteView} :text("A second line from the editor")`)
  })
})
