package llm

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"strconv"
	"strings"
	"unicode/utf8"

	openai "github.com/sashabaranov/go-openai"
)

// ErrIncomplete says the stream ended before the model finished its reply.
var ErrIncomplete = errors.New("the model's reply was cut off before it finished")

// errDropped says the connection ended in the middle of the stream.
var errDropped = errors.New("the connection dropped in the middle of the reply")

// assembler builds one assistant message from stream chunks.
type assembler struct {
	// think splits the text into reasoning and answer, and passes each on.
	think    thinking
	calls    []*ToolCall
	byIndex  map[int]*ToolCall
	finished bool
	// max bounds text and arguments together (0: no bound); size is their length.
	max, size int
	// chunks counts the chunks received; skipped counts the data lines that were not
	// JSON, and firstBad quotes the first of them.
	chunks   int
	skipped  int
	firstBad string
	// log, when set, receives a warning for each of the first skipped lines.
	log *slog.Logger
	// sniff, when set, says what the endpoint sent if it was not a stream; key is
	// removed from that description.
	sniff *sniff
	key   string
}

// maxSkipWarnings bounds the warnings logged for one reply's unreadable lines; the
// rest are only counted.
const maxSkipWarnings = 3

// read consumes the stream until it ends, passing the answer and the reasoning to
// a.think's functions as they come. A data line that is not a JSON chunk is skipped
// with a warning in the log, as seed 004 says: the reply fails only when no chunk
// arrives at all, or when it ends unfinished.
func (a *assembler) read(s *openai.ChatCompletionStream) error {
	for {
		raw, err := s.RecvRaw()
		switch {
		case errors.Is(err, io.EOF) && a.chunks == 0 && a.skipped > 0:
			return fmt.Errorf("%w: none of the %s of the stream was JSON (the first: %s)", ErrMalformed, plural(a.skipped, "data line"), a.firstBad)
		case errors.Is(err, io.EOF) && a.chunks == 0:
			return fmt.Errorf("%w: the endpoint answered 200 without a single chunk of a stream (%s)", ErrMalformed, a.sniff.describe(a.key))
		case errors.Is(err, io.EOF) && !a.finished && a.skipped > 0:
			return fmt.Errorf("%w, and %s of the stream was not JSON (the first: %s): %w", ErrIncomplete,
				plural(a.skipped, "data line"), a.firstBad, ErrMalformed)
		case errors.Is(err, io.EOF) && !a.finished:
			return ErrIncomplete
		case errors.Is(err, io.EOF):
			return nil
		case errors.Is(err, openai.ErrTooManyEmptyStreamMessages):
			return fmt.Errorf("%w: the endpoint sent %d lines that were not data in a row", ErrMalformed, emptyMessagesLimit)
		case errors.Is(err, io.ErrUnexpectedEOF) || isConnErr(err) && !errors.Is(err, context.DeadlineExceeded) && !errors.Is(err, context.Canceled):
			return fmt.Errorf("%w (after %d characters): %w", errDropped, a.size, err)
		case errors.Is(err, ErrTooLarge):
			return err
		case err != nil:
			return fmt.Errorf("read stream: %w", err)
		}
		var chunk openai.ChatCompletionStreamResponse
		if err := json.Unmarshal(raw, &chunk); err != nil {
			a.skip(raw, err)
			continue
		}
		a.chunks++
		if err := a.add(chunk); err != nil {
			return err
		}
	}
}

// skip counts a data line that is not a JSON chunk and logs a warning for the first
// few of a reply.
func (a *assembler) skip(raw []byte, err error) {
	a.skipped++
	line := quoteHead(redact(string(raw), a.key))
	if a.skipped == 1 {
		a.firstBad = line
	}
	if a.skipped <= maxSkipWarnings && a.log != nil {
		a.log.Warn("llm: skipped a line of the model's stream that is not JSON", "line", line, "error", redact(err.Error(), a.key))
	}
}

// quoteHead returns s quoted, cut to its first 80 bytes (on a character boundary).
func quoteHead(s string) string {
	s = strings.ToValidUTF8(s, "?")
	if len(s) <= 80 {
		return strconv.Quote(s)
	}
	cut := 80
	for !utf8.RuneStart(s[cut]) {
		cut--
	}
	return strconv.Quote(s[:cut]) + "…"
}

// plural returns n and the noun, with an s unless n is 1.
func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

// add merges one chunk. A usage chunk has no choices and adds nothing.
func (a *assembler) add(chunk openai.ChatCompletionStreamResponse) error {
	for _, ch := range chunk.Choices {
		n := len(ch.Delta.Content) + len(ch.Delta.ReasoningContent)
		for _, d := range ch.Delta.ToolCalls {
			n += len(d.Function.Arguments)
		}
		if a.size += n; a.max > 0 && a.size > a.max {
			return fmt.Errorf("%w: more than %d bytes of text and tool arguments", ErrTooLarge, a.max)
		}
		a.think.think(ch.Delta.ReasoningContent)
		if ch.Delta.Content != "" {
			a.think.write(ch.Delta.Content)
		}
		for _, d := range ch.Delta.ToolCalls {
			a.merge(d)
		}
		if ch.FinishReason != "" {
			a.finished = true
		}
	}
	return nil
}

// merge adds one tool-call delta: by index when the server sends one (a different id
// at a known index starts a new call), else a new id starts a new call and a delta
// without id continues the last one.
func (a *assembler) merge(d openai.ToolCall) {
	if a.byIndex == nil {
		a.byIndex = map[int]*ToolCall{}
	}
	var tc *ToolCall
	switch {
	case d.Index != nil:
		tc = a.byIndex[*d.Index]
		// Some servers (older Ollama) give every call index 0: a new id is a new call.
		if tc == nil || d.ID != "" && tc.ID != "" && d.ID != tc.ID {
			tc = &ToolCall{}
			a.byIndex[*d.Index] = tc
			a.calls = append(a.calls, tc)
		}
	case d.ID != "" || len(a.calls) == 0:
		tc = &ToolCall{}
		a.calls = append(a.calls, tc)
	default:
		tc = a.calls[len(a.calls)-1]
	}
	if d.ID != "" {
		tc.ID = d.ID
	}
	if d.Function.Name != "" {
		tc.Name = d.Function.Name
	}
	tc.Arguments += d.Function.Arguments
}

// message returns the assembled reply. Whether it asks for tools is decided by the
// calls that arrived, not by finish_reason (some servers say "stop" with calls). The
// reasoning is apart from the content.
func (a *assembler) message() (Message, error) {
	a.think.end(len(a.calls) > 0)
	m := Message{Role: RoleAssistant, Content: a.think.Answer(), Reasoning: a.think.Reasoning()}
	for i, tc := range a.calls {
		if tc.Name == "" {
			return Message{}, fmt.Errorf("%w: tool call %d has no name", ErrIncomplete, i+1)
		}
		if tc.ID == "" {
			tc.ID = fmt.Sprintf("call_%d", i+1)
		}
		if strings.TrimSpace(tc.Arguments) == "" {
			tc.Arguments = "{}"
		}
		m.ToolCalls = append(m.ToolCalls, *tc)
	}
	return m, nil
}

// rawSchema returns a tool's JSON Schema for the wire; an empty one takes no input.
func rawSchema(b []byte) json.RawMessage {
	if len(b) == 0 {
		return json.RawMessage(`{"type":"object","properties":{}}`)
	}
	return json.RawMessage(b)
}
