package llm

import "strings"

// An endpoint, or a proxy in front of it, can send the API key back inside a reply:
// echoed by a misconfigured gateway, or repeated by a model that was shown it. The
// reply is streamed to the window, kept in the chat's history and can become a note
// through a tool call, so the key is taken out of all of it, as it is out of errors
// (redact). A stream delivers the key in pieces that may be cut anywhere, so the
// scrubber holds back the end of the text that could still grow into the key.

// scrubber removes a key from text that arrives in pieces.
type scrubber struct {
	key     string
	pending string // the end of the text so far that is a start of key
}

// write takes the next piece and returns the text that can be passed on now: every
// whole key replaced, and any end that could begin the key held back.
func (s *scrubber) write(piece string) string {
	if len(s.key) < minRedactedKey {
		return piece
	}
	text := redact(s.pending+piece, s.key)
	keep := heldBack(text, s.key)
	s.pending = text[len(text)-keep:]
	return text[:len(text)-keep]
}

// flush returns what is held back: the stream ended, so it is not the key.
func (s *scrubber) flush() string {
	p := s.pending
	s.pending = ""
	return p
}

// heldBack returns the length of the longest end of text that is a proper start of
// key (a whole key was replaced already).
func heldBack(text, key string) int {
	for n := min(len(text), len(key)-1); n > 0; n-- {
		if strings.HasPrefix(key, text[len(text)-n:]) {
			return n
		}
	}
	return 0
}

// scrubMessage removes the key from everything an assembled reply holds.
func scrubMessage(m Message, key string) Message {
	m.Content = redact(m.Content, key)
	m.Reasoning = redact(m.Reasoning, key)
	for i := range m.ToolCalls {
		m.ToolCalls[i].Arguments = redact(m.ToolCalls[i].Arguments, key)
	}
	return m
}
