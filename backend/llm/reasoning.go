package llm

import (
	"bufio"
	"bytes"
	"errors"
	"io"
)

// Servers name a reply's reasoning two ways: "reasoning_content" (DeepSeek, vLLM,
// LM Studio), which go-openai decodes, and "reasoning" (OpenRouter, Ollama's newer
// releases, vLLM's newer ones), which it drops. renamingBody renames the second to the
// first in the response body, line by line, before go-openai reads it, so that both
// reach Message.Reasoning.

// reasoningKey and reasoningContentKey are the two names, quoted as JSON keys.
var (
	reasoningKey        = []byte(`"reasoning"`)
	reasoningContentKey = []byte(`"reasoning_content"`)
)

// renamingBody is a response body whose lines have "reasoning" keys renamed.
type renamingBody struct {
	io.Closer
	r   *bufio.Reader
	buf []byte // the renamed line not yet read
	err error
}

// newRenamingBody wraps a response body.
func newRenamingBody(body io.ReadCloser) *renamingBody {
	return &renamingBody{Closer: body, r: bufio.NewReaderSize(body, 64<<10)}
}

func (b *renamingBody) Read(p []byte) (int, error) {
	for len(b.buf) == 0 {
		if b.err != nil {
			return 0, b.err
		}
		line, err := b.r.ReadSlice('\n')
		if errors.Is(err, bufio.ErrBufferFull) {
			// A line longer than the buffer: pass it on as it is, piece by piece (a
			// key is never cut in two that way in practice: it would need a reply
			// chunk of 64 KiB).
			err = nil
		}
		b.buf, b.err = renameReasoning(line), err
	}
	n := copy(p, b.buf)
	b.buf = b.buf[n:]
	return n, nil
}

// renameReasoning returns line with every "reasoning" key (outside strings, followed by
// a colon) written "reasoning_content"; a line that has a "reasoning_content" key
// already, or no "reasoning" at all, is returned as it is.
func renameReasoning(line []byte) []byte {
	if !bytes.Contains(line, reasoningKey) || bytes.Contains(line, reasoningContentKey) {
		return line
	}
	var out []byte
	last, inString := 0, false
	for i := 0; i < len(line); i++ {
		c := line[i]
		switch {
		case inString && c == '\\':
			i++
		case inString && c == '"':
			inString = false
		case !inString && c == '"':
			if bytes.HasPrefix(line[i:], reasoningKey) && isKey(line[i+len(reasoningKey):]) {
				out = append(out, line[last:i]...)
				out = append(out, reasoningContentKey...)
				i += len(reasoningKey) - 1
				last = i + 1
				continue
			}
			inString = true
		}
	}
	if out == nil {
		return line
	}
	return append(out, line[last:]...)
}

// isKey reports whether rest, what follows a string, starts with a colon after white
// space: the string was an object's key.
func isKey(rest []byte) bool {
	rest = bytes.TrimLeft(rest, " \t")
	return len(rest) > 0 && rest[0] == ':'
}
