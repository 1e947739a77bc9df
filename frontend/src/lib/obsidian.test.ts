import { expect, test } from 'vitest'
import { absolutePath, obsidianUrl } from './obsidian'

test('absolutePath joins the vault folder and the note path', () => {
  expect(absolutePath('/home/ada/My Notes', 'people/Ada Lovelace.md')).toBe('/home/ada/My Notes/people/Ada Lovelace.md')
  expect(absolutePath('/home/ada/Notes/', 'a.md')).toBe('/home/ada/Notes/a.md')
  expect(absolutePath('C:\\Users\\ada\\Notes', 'people/Ada.md')).toBe('C:\\Users\\ada\\Notes\\people\\Ada.md')
})

test('obsidianUrl encodes the whole absolute path', () => {
  expect(obsidianUrl('/home/ada/My Notes/people/Ada Lovelace.md')).toBe(
    'obsidian://open?path=%2Fhome%2Fada%2FMy%20Notes%2Fpeople%2FAda%20Lovelace.md',
  )
  expect(obsidianUrl('/v/笔记/a&b#c?.md')).toBe('obsidian://open?path=%2Fv%2F%E7%AC%94%E8%AE%B0%2Fa%26b%23c%3F.md')
  expect(obsidianUrl('C:\\Notes\\a.md')).toBe('obsidian://open?path=C%3A%5CNotes%5Ca.md')
})
