// Package llm is the one gateway to OpenAI-compatible chat endpoints (OpenAI, Ollama,
// LM Studio, llama.cpp servers, proxies). It streams replies, assembles tool calls from
// their deltas, retries what may succeed on a second try, and turns failures into errors
// a person can act on. Its types are its own: go-openai stays inside this package.
package llm

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"strings"
	"time"

	openai "github.com/sashabaranov/go-openai"
)

// The roles of a message.
const (
	RoleSystem    = "system"
	RoleUser      = "user"
	RoleAssistant = "assistant"
	RoleTool      = "tool"
)

// Message is one message of a conversation.
type Message struct {
	Role    string
	Content string
	// Reasoning is what a reasoning model thought before answering (its <think> block,
	// or the reasoning_content or reasoning field of its reply), apart from Content. It
	// is shown to the person, never sent back to the model.
	Reasoning string
	// ToolCalls are the calls an assistant message asks for.
	ToolCalls []ToolCall
	// ToolCallID names the call a tool message answers.
	ToolCallID string
}

// ToolCall is one call a model asks for; Arguments is the JSON text the model wrote.
type ToolCall struct {
	ID        string
	Name      string
	Arguments string
}

// ToolDef declares a tool to the model; Parameters is its JSON Schema.
type ToolDef struct {
	Name        string
	Description string
	Parameters  []byte
}

// Request is one call to the model.
type Request struct {
	Messages []Message
	Tools    []ToolDef
	// OnDelta, when set, is called with each piece of streamed text, in order:
	// the answer only.
	OnDelta func(text string)
	// OnReasoning, when set, is called with each piece of the model's reasoning, in
	// order, apart from the answer (see Message.Reasoning).
	OnReasoning func(text string)
}

// Config says where the model is and how to call it.
type Config struct {
	// BaseURL is the endpoint, e.g. http://127.0.0.1:11434/v1 for Ollama.
	BaseURL string
	// APIKey is the bearer key; it never appears in an error or a log.
	APIKey string
	// Model is the model name the endpoint knows.
	Model string
	// EmbeddingModel is the model Embeddings asks for; empty means Model.
	EmbeddingModel string
	// Timeout bounds one request, streaming included; 0 means 5 minutes.
	Timeout time.Duration
	// Tries bounds the attempts of one request; 0 means 3.
	Tries int
	// Backoff is the wait before the second try, doubled after; 0 means 500 ms.
	Backoff time.Duration
	// HTTPClient, when set, replaces the default client.
	HTTPClient *http.Client
	// MaxReplyBytes bounds one reply: its text and tool-call arguments together; a
	// longer reply ends with ErrTooLarge. The raw response body is capped at four
	// times this (at least 32 MiB). 0 means DefaultMaxReplyBytes.
	MaxReplyBytes int
	// NoStream asks for whole replies instead of streams, for servers that cannot
	// stream tool calls; the text then reaches OnDelta in one piece.
	NoStream bool
	// Log receives warnings, such as a line of a stream that was not JSON and was
	// skipped; nil means slog.Default().
	Log *slog.Logger
}

// DefaultBaseURL is OpenAI's endpoint, used when Config.BaseURL is empty.
const DefaultBaseURL = "https://api.openai.com/v1"

// emptyMessagesLimit tolerates servers that send many keep-alive lines.
const emptyMessagesLimit = 100000

// Client calls one model at one endpoint. It is safe for concurrent use.
type Client struct {
	cfg Config
	api *openai.Client
}

// New returns a client for cfg.
func New(cfg Config) (*Client, error) {
	if strings.TrimSpace(cfg.Model) == "" {
		return nil, errors.New("no model: set MEMOTREE_MODEL or pass --model")
	}
	if cfg.BaseURL == "" {
		cfg.BaseURL = DefaultBaseURL
	}
	cfg.BaseURL = strings.TrimRight(cfg.BaseURL, "/")
	if cfg.Timeout <= 0 {
		cfg.Timeout = 5 * time.Minute
	}
	if cfg.Tries <= 0 {
		cfg.Tries = 3
	}
	if cfg.Backoff <= 0 {
		cfg.Backoff = 500 * time.Millisecond
	}
	if cfg.MaxReplyBytes <= 0 {
		cfg.MaxReplyBytes = DefaultMaxReplyBytes
	}
	if cfg.Log == nil {
		cfg.Log = slog.Default()
	}
	oc := openai.DefaultConfig(cfg.APIKey)
	oc.BaseURL = cfg.BaseURL
	oc.EmptyMessagesLimit = emptyMessagesLimit
	hc := &http.Client{}
	if cfg.HTTPClient != nil {
		copied := *cfg.HTTPClient
		hc = &copied
	}
	base := hc.Transport
	if base == nil {
		base = http.DefaultTransport
	}
	hc.Transport = capTransport{base: base, max: max(minBodyBytes, 4*int64(cfg.MaxReplyBytes))}
	oc.HTTPClient = hc
	return &Client{cfg: cfg, api: openai.NewClientWithConfig(oc)}, nil
}

// Model returns the model name.
func (c *Client) Model() string { return c.cfg.Model }

// Stream sends req and returns the assembled assistant message, calling req.OnDelta
// with the text as it arrives. It retries on 429, 5xx and connection errors as long
// as no text has been streamed yet.
func (c *Client) Stream(ctx context.Context, req Request) (Message, error) {
	wait := c.cfg.Backoff
	var err error
	for try := 1; ; try++ {
		var msg Message
		var started bool
		if c.cfg.NoStream {
			msg, started, err = c.completeOnce(ctx, req)
		} else {
			msg, started, err = c.streamOnce(ctx, req)
		}
		if err == nil {
			return msg, nil
		}
		if started || try >= c.cfg.Tries || !retryable(err) || ctx.Err() != nil {
			break
		}
		select {
		case <-ctx.Done():
			return Message{}, c.explain(ctx.Err())
		case <-time.After(wait):
		}
		wait *= 2
	}
	return Message{}, c.explain(err)
}

// streamOnce makes one attempt; started reports whether any text reached OnDelta.
func (c *Client) streamOnce(ctx context.Context, req Request) (Message, bool, error) {
	ctx, cancel := context.WithTimeout(ctx, c.cfg.Timeout)
	defer cancel()
	ctx, sn := withSniff(ctx)
	s, err := c.api.CreateChatCompletionStream(ctx, c.wireRequest(req))
	if err != nil {
		return Message{}, false, fmt.Errorf("start stream: %w", err)
	}
	defer s.Close()
	a := assembler{max: c.cfg.MaxReplyBytes, sniff: sn, key: c.cfg.APIKey, log: c.cfg.Log}
	started := false
	// The text goes on without the key (scrub.go); what a scrubber holds back at the
	// end is passed on when the stream ends, whichever way it ends.
	answer, reasoning := scrubber{key: c.cfg.APIKey}, scrubber{key: c.cfg.APIKey}
	emit := func(to func(string), t string) {
		if t == "" {
			return
		}
		started = true
		if to != nil {
			to(t)
		}
	}
	a.think.onAnswer = func(t string) { emit(req.OnDelta, answer.write(t)) }
	a.think.onReasoning = func(t string) { emit(req.OnReasoning, reasoning.write(t)) }
	err = a.read(s)
	var msg Message
	if err == nil {
		msg, err = a.message() // passes on the last text the thinking split held
	}
	emit(req.OnReasoning, reasoning.flush())
	emit(req.OnDelta, answer.flush())
	if err != nil {
		return Message{}, started, err
	}
	return scrubMessage(msg, c.cfg.APIKey), started, nil
}

// completeOnce makes one attempt without streaming.
func (c *Client) completeOnce(ctx context.Context, req Request) (Message, bool, error) {
	ctx, cancel := context.WithTimeout(ctx, c.cfg.Timeout)
	defer cancel()
	wr := c.wireRequest(req)
	wr.Stream = false
	resp, err := c.api.CreateChatCompletion(ctx, wr)
	if err != nil {
		return Message{}, false, fmt.Errorf("complete: %w", err)
	}
	if len(resp.Choices) == 0 {
		return Message{}, false, fmt.Errorf("%w: the reply has no choices", ErrIncomplete)
	}
	a := assembler{max: c.cfg.MaxReplyBytes}
	m := resp.Choices[0].Message
	a.think.think(m.ReasoningContent)
	a.think.write(m.Content)
	a.size = len(m.Content) + len(m.ReasoningContent)
	for _, tc := range m.ToolCalls {
		a.calls = append(a.calls, &ToolCall{ID: tc.ID, Name: tc.Function.Name, Arguments: tc.Function.Arguments})
		a.size += len(tc.Function.Arguments)
	}
	if a.size > a.max {
		return Message{}, false, fmt.Errorf("%w: more than %d bytes of text and tool arguments", ErrTooLarge, a.max)
	}
	msg, err := a.message()
	msg = scrubMessage(msg, c.cfg.APIKey)
	if err == nil && msg.Reasoning != "" && req.OnReasoning != nil {
		req.OnReasoning(msg.Reasoning)
	}
	if err == nil && msg.Content != "" && req.OnDelta != nil {
		req.OnDelta(msg.Content)
	}
	return msg, msg.Content != "", err
}

// wireRequest converts req to go-openai's request.
func (c *Client) wireRequest(req Request) openai.ChatCompletionRequest {
	out := openai.ChatCompletionRequest{Model: c.cfg.Model, Stream: true}
	for _, m := range req.Messages {
		wm := openai.ChatCompletionMessage{Role: m.Role, Content: m.Content, ToolCallID: m.ToolCallID}
		for _, tc := range m.ToolCalls {
			// Index stays nil: it belongs to stream chunks, and some servers refuse it.
			// Arguments that are not JSON (the tool answered invalid_arguments) go back
			// as {}: servers that parse the history's arguments would otherwise refuse
			// every later request of the conversation.
			args := tc.Arguments
			if !json.Valid([]byte(args)) {
				args = "{}"
			}
			wm.ToolCalls = append(wm.ToolCalls, openai.ToolCall{ID: tc.ID, Type: openai.ToolTypeFunction,
				Function: openai.FunctionCall{Name: tc.Name, Arguments: args}})
		}
		out.Messages = append(out.Messages, wm)
	}
	for _, t := range req.Tools {
		out.Tools = append(out.Tools, openai.Tool{Type: openai.ToolTypeFunction, Function: &openai.FunctionDefinition{
			Name: t.Name, Description: t.Description, Parameters: rawSchema(t.Parameters)}})
	}
	return out
}
