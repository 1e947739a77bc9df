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
	"strings"
	"sync"
	"time"

	"github.com/memotree/memotree/backend/approval"
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
	// OnDelta receives the streamed text of the model's answer.
	OnDelta func(text string)
	// OnReasoning receives the streamed reasoning of a reasoning model, apart from
	// the answer (it is stored apart too, and never sent back to the model).
	OnReasoning func(text string)
	// System is the person's system prompt (seed 004's /system), sent after
	// MemoTree's own instruction; TurnIn takes it from the session.
	System string
	// OnTool is told about each finished tool call, one call at a time.
	OnTool func(name, args string, res tool.Result)
	// OnCall is told when a tool call starts, waits for approval and ends, one event
	// at a time.
	OnCall func(CallEvent)
	// Approval puts to the person the calls the registry's policy holds for them (a
	// destructive call where the library's permission is propose); with no Ask, such
	// calls are refused. workspace.Workspace.Agent sets it.
	Approval approval.Gate
	// Session identifies the chat session in tool calls.
	Session string
	// ActiveNote, when set, names the note open in the window, for the sensory block.
	ActiveNote func() string
	// PendingChanges, when set, counts the changes not yet committed, for the
	// sensory block. It runs on every model call, so it must be quick (cached).
	PendingChanges func(ctx context.Context) (int, error)
	// TurnID, when set, is the id of the next turn (for faces that announce a turn
	// before it starts); otherwise each turn gets a fresh one. It names the change set.
	TurnID string
	// HistoryTokens is the budget of the conversation sent to the model; the oldest
	// exchanges go first. 0 means DefaultHistoryTokens.
	HistoryTokens int

	toolMu sync.Mutex
	tokens tokenCounter
}

// Turn answers prompt given the stored history and returns the new history (the old
// one, the prompt and every message of the turn, free of injections) and the final
// answer. On an error or a stop the history is still consistent: every tool call of
// an assistant message has its tool message.
func (a *Agent) Turn(ctx context.Context, history []llm.Message, prompt string) ([]llm.Message, string, error) {
	hist, _, answer, err := a.turn(ctx, history, prompt)
	return hist, answer, err
}

// TurnIn runs a turn on session s and saves it in ss, before the model is called (so
// the prompt survives a crash) and after the turn, whatever its end.
func (a *Agent) TurnIn(ctx context.Context, ss *Sessions, s *Session, prompt string) (string, error) {
	a.Session, a.System = s.ID, s.System
	history := s.History()
	if err := ss.Save(s); err != nil && len(history) > 0 {
		return "", err
	}
	hist, times, answer, err := a.turn(ctx, history, prompt)
	s.Append(hist[len(history):], times)
	if serr := ss.Save(s); serr != nil {
		return answer, errors.Join(err, serr)
	}
	return answer, err
}

// turn is the loop: build the context, stream the reply, run its calls, repeat.
// times[i] is when the i-th new message of hist was made.
func (a *Agent) turn(ctx context.Context, history []llm.Message, prompt string) (hist []llm.Message, times []time.Time, answer string, err error) {
	id := a.TurnID
	if id == "" {
		id = NewTurnID()
	}
	hist = append(append([]llm.Message(nil), history...), llm.Message{Role: llm.RoleUser, Content: prompt})
	times = append(times, a.now())
	tools := a.toolDefs()
	maxRounds := a.MaxRounds
	if maxRounds <= 0 {
		maxRounds = DefaultMaxRounds
	}
	for range maxRounds {
		msgs, err := a.context(ctx, hist)
		if err != nil {
			return hist, times, "", err
		}
		reply, err := a.Model.Stream(ctx, llm.Request{Messages: msgs, Tools: tools, OnDelta: a.OnDelta, OnReasoning: a.OnReasoning})
		if err != nil {
			return hist, times, "", fmt.Errorf("model: %w", err)
		}
		hist, times = append(hist, reply), append(times, a.now())
		if len(reply.ToolCalls) == 0 {
			if msg, ok := a.textCalls(ctx, id, reply.Content); ok {
				hist, times = append(hist, msg), append(times, a.now())
				continue
			}
			return hist, times, reply.Content, nil
		}
		results := a.runCalls(ctx, id, reply.ToolCalls)
		hist = append(hist, results...)
		for range results {
			times = append(times, a.now())
		}
		if err := ctx.Err(); err != nil {
			return hist, times, "", fmt.Errorf("stopped: %w", err)
		}
	}
	return hist, times, "", fmt.Errorf("%w (%d rounds)", ErrRoundLimit, maxRounds)
}

// now is the agent's clock.
func (a *Agent) now() time.Time {
	if a.Now != nil {
		return a.Now()
	}
	return time.Now()
}

// toolDefs declares every tool of the registry to the model.
func (a *Agent) toolDefs() []llm.ToolDef {
	var defs []llm.ToolDef
	for _, t := range a.Registry.List() {
		defs = append(defs, llm.ToolDef{Name: t.Name(), Description: modelDescription(t.Description()), Parameters: t.InputSchema()})
	}
	return defs
}

// modelDescription is a tool's description as a model is given it, on every request
// of a turn: without its "Arguments:" paragraph, which says again what the input
// schema beside it says of each argument (every property of every tool's schema has
// its description: TestToolDefsSayEachThingOnce). It was a sixth of a request's bytes
// (97 KB of tools for 51 of them), which a small model's context and a server's body
// limit pay for.
func modelDescription(d string) string {
	paras := strings.Split(d, "\n\n")
	kept := paras[:0]
	for _, p := range paras {
		if !strings.HasPrefix(p, "Arguments:") {
			kept = append(kept, p)
		}
	}
	return strings.Join(kept, "\n\n")
}

// NewTurnID returns a short random id for one turn.
func NewTurnID() string {
	var b [6]byte
	_, _ = rand.Read(b[:])
	return "t-" + hex.EncodeToString(b[:])
}
