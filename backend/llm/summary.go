package llm

import (
	"context"
	"errors"
	"strings"
)

// summaryInstruction asks for seed 000's AutoGenerateSummary: one line, no preamble.
const summaryInstruction = "You write the `summary` property of notes in a Markdown knowledge vault. " +
	"Answer with one plain sentence of at most 25 words that says what the note is about. " +
	"No preamble, no quotes, no Markdown, in the language of the note."

// maxSummaryInput bounds the note text sent for a summary, in bytes.
const maxSummaryInput = 12000

// maxSummaryLen bounds the summary kept, in bytes.
const maxSummaryLen = 300

// ErrEmptySummary says the model answered with nothing usable.
var ErrEmptySummary = errors.New("the model returned an empty summary")

// Summarize asks the model for a one-line summary of the note named name with the
// given content (front matter and all; long notes are cut).
func (c *Client) Summarize(ctx context.Context, name, content string) (string, error) {
	if len(content) > maxSummaryInput {
		cut := maxSummaryInput
		for cut > 0 && content[cut]&0xC0 == 0x80 {
			cut--
		}
		content = content[:cut] + "\n…"
	}
	msg, err := c.Stream(ctx, Request{Messages: []Message{
		{Role: RoleSystem, Content: summaryInstruction},
		{Role: RoleUser, Content: "Note \"" + name + "\":\n\n" + content},
	}})
	if err != nil {
		return "", err
	}
	s := strings.Join(strings.Fields(msg.Content), " ")
	s = strings.Trim(s, "\"'`")
	if len(s) > maxSummaryLen {
		cut := strings.LastIndexByte(s[:maxSummaryLen], ' ')
		if cut <= 0 {
			cut = maxSummaryLen
		}
		s = s[:cut] + "…"
	}
	if s == "" {
		return "", ErrEmptySummary
	}
	return s, nil
}
