import { expect, test } from 'vitest'
import { renderChatMarkdown } from './chatMarkdown'

test('replies render as Markdown without raw HTML', () => {
  const html = renderChatMarkdown('**Done**: see [docs](https://example.org)\n<script>alert(1)</script>')
  expect(html).toContain('<strong>Done</strong>')
  expect(html).toContain('target="_blank"')
  expect(html).not.toContain('<script>')
  expect(html).toContain('&lt;script&gt;')
})

test('a half-streamed code fence still renders', () => {
  expect(renderChatMarkdown('```go\nfunc main() {')).toContain('<code')
})
