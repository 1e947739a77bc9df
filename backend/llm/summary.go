package llm

import (
	"context"
	"errors"
	"strings"
	"sync"
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

// SettingsSummarizer writes summaries with the model the settings name at the time of
// each call, as its Resolver says (the flags, the environment, the settings file), as
// SettingsEmbedder does for embeddings: the auto summary of every face follows the
// window's settings without a restart. Without a model it is not Configured, and the
// tools write no summary.
//
// It is safe for concurrent use.
type SettingsSummarizer struct {
	r Resolver

	mu     sync.Mutex
	client *Client
	key    Settings // the endpoint and model client was made for
}

// NewSettingsSummarizer follows the settings r resolves.
func NewSettingsSummarizer(r Resolver) *SettingsSummarizer { return &SettingsSummarizer{r: r} }

// Configured reports whether a model is named, so that a summary can be asked for.
func (s *SettingsSummarizer) Configured() bool { return s.r.InEffect().Model != "" }

// Summarize asks the model in effect for a one-line summary of a note (see
// Client.Summarize).
func (s *SettingsSummarizer) Summarize(ctx context.Context, name, content string) (string, error) {
	c, err := s.clientFor(s.r.InEffect())
	if err != nil {
		return "", err
	}
	return c.Summarize(ctx, name, content)
}

// clientFor returns a client of the endpoint and model in st, reusing the last one.
func (s *SettingsSummarizer) clientFor(st Settings) (*Client, error) {
	if st.Model == "" {
		return nil, errors.New("no model is named: set one in the settings or in MEMOTREE_MODEL")
	}
	key := Settings{BaseURL: st.BaseURL, APIKey: st.APIKey, Model: st.Model}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.client == nil || s.key != key {
		c, err := New(st.Config())
		if err != nil {
			return nil, err
		}
		s.client, s.key = c, key
	}
	return s.client, nil
}
