// Markdown of the agent's replies: markdown-it with raw HTML off, so a reply can never
// inject markup; links open outside the window.
import MarkdownIt from 'markdown-it'

const md = new MarkdownIt({ html: false, linkify: false, breaks: true })
const defaultLink = md.renderer.rules.link_open
md.renderer.rules.link_open = (tokens, idx, options, env, self) => {
  const t = tokens[idx]
  t?.attrSet('target', '_blank')
  t?.attrSet('rel', 'noopener noreferrer')
  return defaultLink ? defaultLink(tokens, idx, options, env, self) : self.renderToken(tokens, idx, options)
}

/** renderChatMarkdown renders a (possibly half-streamed) reply to safe HTML. */
export function renderChatMarkdown(text: string): string {
  return md.render(text)
}
