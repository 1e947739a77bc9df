package llm

import "strings"

// The tags reasoning models (DeepSeek R1, Qwen3, QwQ through Ollama, llama.cpp or LM
// Studio) put around their reasoning at the start of a reply.
const (
	thinkOpen  = "<think>"
	thinkClose = "</think>"
)

// The states of a thinking splitter.
const (
	// thinkStart: no answer text yet; a <think> (after white space) may still come.
	thinkStart = iota
	// thinkInside: inside <think>, until </think>.
	thinkInside
	// thinkAnswer: the answer.
	thinkAnswer
)

// thinking splits a streamed reply into reasoning and answer: a <think>…</think> block
// that opens the reply (tags split anywhere across deltas), and the reasoning_content
// or reasoning fields some servers send apart, are reasoning; the rest is the answer.
// A <think> later in the text is the answer's (a reply explaining the tag). Text that
// may be the start of a tag is held back until the next delta decides. Reasoning goes
// to onReasoning and the answer to onAnswer as they are known, in order.
type thinking struct {
	state     int
	pending   string          // held back: a possible "<think>" (start) or "</think>" (inside)
	trimNext  bool            // drop the white space that follows </think>
	opened    bool            // a <think> opened the reply
	reasoning strings.Builder // sent apart (reasoning_content)
	tagged    strings.Builder // inside <think>…</think>
	answer    strings.Builder

	onAnswer, onReasoning func(string)
}

// think passes reasoning sent apart from the text (reasoning_content).
func (t *thinking) think(s string) {
	if s == "" {
		return
	}
	t.reasoning.WriteString(s)
	if t.onReasoning != nil {
		t.onReasoning(s)
	}
}

// thinkTagged passes reasoning found between the tags.
func (t *thinking) thinkTagged(s string) {
	if s == "" {
		return
	}
	t.tagged.WriteString(s)
	if t.onReasoning != nil {
		t.onReasoning(s)
	}
}

// Reasoning returns the whole reasoning: what came apart, then what came in tags.
func (t *thinking) Reasoning() string {
	return strings.TrimSpace(t.reasoning.String() + t.tagged.String())
}

// Answer returns the answer.
func (t *thinking) Answer() string { return t.answer.String() }

// say passes answer text.
func (t *thinking) say(s string) {
	if t.trimNext {
		s = strings.TrimLeft(s, " \t\r\n")
		if s == "" {
			return
		}
		t.trimNext = false
	}
	t.answer.WriteString(s)
	if t.onAnswer != nil {
		t.onAnswer(s)
	}
}

// write takes one delta of the reply's text.
func (t *thinking) write(s string) {
	switch t.state {
	case thinkAnswer:
		t.say(s)
	case thinkStart:
		t.pending += s
		head := strings.TrimLeft(t.pending, " \t\r\n")
		switch {
		case strings.HasPrefix(head, thinkOpen):
			t.state, t.opened, t.pending = thinkInside, true, ""
			t.write(head[len(thinkOpen):])
		case strings.HasPrefix(thinkOpen, head):
			// Only white space, or the start of the tag, so far: wait.
		default:
			t.state = thinkAnswer
			p := t.pending
			t.pending = ""
			t.say(p)
		}
	case thinkInside:
		t.pending += s
		if i := strings.Index(t.pending, thinkClose); i >= 0 {
			rest := t.pending[i+len(thinkClose):]
			t.thinkTagged(t.pending[:i])
			t.state, t.pending, t.trimNext = thinkAnswer, "", true
			t.say(rest)
			return
		}
		keep := partialSuffix(t.pending, thinkClose)
		t.thinkTagged(t.pending[:len(t.pending)-keep])
		t.pending = t.pending[len(t.pending)-keep:]
	}
}

// partialSuffix returns the length of the longest end of s that begins tag.
func partialSuffix(s, tag string) int {
	for n := min(len(tag)-1, len(s)); n > 0; n-- {
		if strings.HasPrefix(tag, s[len(s)-n:]) {
			return n
		}
	}
	return 0
}

// end finishes the reply: what was held back is given out, and a <think> that never
// closed does not keep the answer: when the reply has no other answer and asks for no
// tool, its reasoning is the answer (the model forgot the tag, or was cut off while
// thinking), given to onAnswer too. A reply whose reasoning ends with a </think> that
// no <think> opened (a chat template that opens it in the prompt) has that part taken
// out of the answer, after the fact: it was streamed as answer already.
func (t *thinking) end(calls bool) {
	switch t.state {
	case thinkStart:
		p := t.pending
		t.pending, t.state = "", thinkAnswer
		t.say(p)
	case thinkInside:
		t.thinkTagged(t.pending)
		t.pending = ""
		if strings.TrimSpace(t.answer.String()) == "" && !calls {
			text := strings.TrimSpace(t.tagged.String())
			t.tagged.Reset()
			t.state = thinkAnswer
			t.say(text)
		}
	}
	if ans := t.answer.String(); !t.opened {
		if i := strings.Index(ans, thinkClose); i >= 0 && !strings.Contains(ans[:i], thinkOpen) {
			t.tagged.WriteString(ans[:i])
			t.answer.Reset()
			t.answer.WriteString(strings.TrimLeft(ans[i+len(thinkClose):], " \t\r\n"))
		}
	}
}
