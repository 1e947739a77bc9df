// Package agent runs the model/tool loop: it builds the context of every model call,
// streams the reply, runs the tool calls through the registry and feeds the results
// back until the model answers, a round limit is reached, or the person stops it.
package agent

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/memotree/memotree/backend/llm"
	"github.com/memotree/memotree/backend/tool"
)

// DefaultMaxRounds bounds the model calls of one turn.
const DefaultMaxRounds = 20

// ErrRoundLimit says a turn ended because it reached its round limit.
var ErrRoundLimit = errors.New("the agent reached its round limit without a final answer")

// Model is the part of the gateway the loop needs; *llm.Client satisfies it.
type Model interface {
	Stream(ctx context.Context, req llm.Request) (llm.Message, error)
}

// Agent runs turns against one registry and one model. Set the fields before the
// first turn; an Agent runs one turn at a time.
type Agent struct {
	Registry *tool.Registry
	Model    Model
	// Memory returns the memory notebook (memory.md of the default library).
	Memory func(ctx context.Context) (string, error)
	// MaxRounds bounds the model calls of a turn; 0 means DefaultMaxRounds.
	MaxRounds int
	// Now gives the time of the sensory block; nil means time.Now.
	Now func() time.Time
	// OnDelta receives the streamed text of the model.
	OnDelta func(text string)
	// OnTool is told about each finished tool call, one call at a time.
	OnTool func(name, args string, res tool.Result)
	// Session identifies the chat session in tool calls.
	Session string

	toolMu sync.Mutex
}

// Turn answers prompt given the stored history and returns the new history (the old
// one, the prompt and every message of the turn, free of injections) and the final
// answer. On an error or a stop the history is still consistent: every tool call of
// an assistant message has its tool message.
func (a *Agent) Turn(ctx context.Context, history []llm.Message, prompt string) ([]llm.Message, string, error) {
	turn := newTurnID()
	hist := append(append([]llm.Message(nil), history...), llm.Message{Role: llm.RoleUser, Content: prompt})
	tools := a.toolDefs()
	maxRounds := a.MaxRounds
	if maxRounds <= 0 {
		maxRounds = DefaultMaxRounds
	}
	for range maxRounds {
		msgs, err := a.context(ctx, hist)
		if err != nil {
			return hist, "", err
		}
		reply, err := a.Model.Stream(ctx, llm.Request{Messages: msgs, Tools: tools, OnDelta: a.OnDelta})
		if err != nil {
			return hist, "", fmt.Errorf("model: %w", err)
		}
		hist = append(hist, reply)
		if len(reply.ToolCalls) == 0 {
			if msg, ok := a.textCalls(ctx, turn, reply.Content); ok {
				hist = append(hist, msg)
				continue
			}
			return hist, reply.Content, nil
		}
		hist = append(hist, a.runCalls(ctx, turn, reply.ToolCalls)...)
		if err := ctx.Err(); err != nil {
			return hist, "", fmt.Errorf("stopped: %w", err)
		}
	}
	return hist, "", fmt.Errorf("%w (%d rounds)", ErrRoundLimit, maxRounds)
}

// toolDefs declares every tool of the registry to the model.
func (a *Agent) toolDefs() []llm.ToolDef {
	var defs []llm.ToolDef
	for _, t := range a.Registry.List() {
		defs = append(defs, llm.ToolDef{Name: t.Name(), Description: t.Description(), Parameters: t.InputSchema()})
	}
	return defs
}

// newTurnID returns a short random id for one turn.
func newTurnID() string {
	var b [6]byte
	_, _ = rand.Read(b[:])
	return "t-" + hex.EncodeToString(b[:])
}
