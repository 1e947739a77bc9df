package uiapi

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/memotree/memotree/backend/agent"
	"github.com/memotree/memotree/backend/approval"
	"github.com/memotree/memotree/backend/catalog"
	"github.com/memotree/memotree/backend/event"
	"github.com/memotree/memotree/backend/llm"
	"github.com/memotree/memotree/backend/tool"
)

// chat is the window's agent: one running turn at a time, its stop function, the
// approvals it waits for, and the endpoint settings. Safe for concurrent use.
type chat struct {
	settings llm.Resolver

	mu        sync.Mutex
	running   *runningTurn
	approvals map[string]chan bool
	pending   pendingCache
}

// runningTurn is the turn in progress.
type runningTurn struct {
	session, turn string
	prompt        string
	started       time.Time
	cancel        context.CancelFunc
	done          chan struct{}
	// out publishes the turn's progress and remembers it for ChatLive.
	out *chatOut
}

// ChatSendInput is a prompt for the agent.
type ChatSendInput struct {
	// Session continues this session; empty starts a new one.
	Session string `json:"session"`
	Prompt  string `json:"prompt"`
	// Library and ActiveNote name the note open in the window (for the agent's
	// sensory block); both may be empty.
	Library    string `json:"library"`
	ActiveNote string `json:"active_note"`
}

// ChatTurn names a turn that started; its progress arrives as chat:* events.
type ChatTurn struct {
	Session string `json:"session"`
	Turn    string `json:"turn"`
}

// ChatSend starts a turn in the background and returns at once; streamed text,
// tool calls, approval requests and the end arrive as chat:* events. Only one turn
// runs at a time.
func (a *API) ChatSend(in ChatSendInput) (ChatTurn, error) {
	if strings.TrimSpace(in.Prompt) == "" {
		return ChatTurn{}, errors.New("the prompt is empty: type a message first")
	}
	if a.ws == nil {
		return ChatTurn{}, errors.New("no library is open")
	}
	settings, err := a.chat.effective()
	if err != nil {
		return ChatTurn{}, err
	}
	if strings.TrimSpace(settings.Model) == "" {
		return ChatTurn{}, errors.New("no model is configured: open the chat settings, enter the endpoint and model (or start Ollama or LM Studio) and test the connection")
	}
	client, err := llm.New(settings.Config())
	if err != nil {
		return ChatTurn{}, err
	}
	sessions, err := a.sessions()
	if err != nil {
		return ChatTurn{}, err
	}
	sess := agent.NewSession(time.Now())
	if in.Session != "" {
		if sess, err = sessions.Load(in.Session); err != nil {
			return ChatTurn{}, err
		}
	}
	if _, err := a.ws.Registry(); err != nil {
		return ChatTurn{}, err
	}
	ctx, cancel := context.WithCancel(context.Background())
	rt, err := a.chat.begin(sess.ID, in.Prompt, a.ws.Bus(), cancel)
	if err != nil {
		cancel()
		return ChatTurn{}, err
	}
	out := rt.out
	ag, err := a.turnAgent(client, in, rt, out)
	if err != nil {
		cancel()
		a.chat.end(rt)
		return ChatTurn{}, err
	}
	go func() {
		defer cancel()
		answer, err := ag.TurnIn(ctx, sessions, sess, in.Prompt)
		a.chat.end(rt)
		out.done(answer, err, ctx.Err() != nil)
	}()
	return ChatTurn{Session: sess.ID, Turn: rt.turn}, nil
}

// turnAgent makes the workspace's agent (workspace.Workspace.Agent: the registry, the
// library permissions, the memory) for one turn of the window, asking the person in
// the chat panel, with the open note and pending changes for its sensory data and the
// events of out.
func (a *API) turnAgent(model agent.Model, in ChatSendInput, rt *runningTurn, out *chatOut) (*agent.Agent, error) {
	ag, err := a.ws.Agent(model, a.chat.approver(rt))
	if err != nil {
		return nil, err
	}
	reg := ag.Registry
	ag.TurnID, ag.Session = rt.turn, rt.session
	ag.ActiveNote = func() string { return activeNote(in.Library, in.ActiveNote) }
	ag.PendingChanges = func(ctx context.Context) (int, error) { return a.chat.pending.count(ctx, reg) }
	ag.OnDelta, ag.OnReasoning, ag.OnCall = out.delta, out.reasoning, out.call
	return ag, nil
}

// ChatStop stops the turn turn (or the running one when turn is empty). The history
// stays consistent: calls not run answer "stopped", a half-streamed reply is dropped.
func (a *API) ChatStop(turn string) error {
	a.chat.mu.Lock()
	rt := a.chat.running
	a.chat.mu.Unlock()
	if rt == nil || (turn != "" && rt.turn != turn) {
		return nil
	}
	rt.cancel()
	<-rt.done
	return nil
}

// ChatApprove answers the approval request id (from a chat:approval event): approve
// runs the call, deny gives the model a refusal it can read.
func (a *API) ChatApprove(id string, approve bool) error {
	a.chat.mu.Lock()
	ch, ok := a.chat.approvals[id]
	delete(a.chat.approvals, id)
	a.chat.mu.Unlock()
	if !ok {
		return fmt.Errorf("approval %q is not waiting (the turn ended or it was answered)", id)
	}
	ch <- approve
	return nil
}

// ChatLiveView is the turn in progress, for a window that attaches while it runs
// (after a reload): its prompt and what it published so far, in order.
type ChatLiveView struct {
	Session string `json:"session"`
	// Turn is "" when no turn is running; the other fields are then empty.
	Turn    string          `json:"turn"`
	Prompt  string          `json:"prompt"`
	Started string          `json:"started"`
	Events  []ChatLiveEvent `json:"events"`
}

// ChatLiveEvent is one chat:* event as it was published: consecutive text deltas
// come merged into one, approval requests only while they wait.
type ChatLiveEvent struct {
	Topic string `json:"topic"`
	Data  any    `json:"data"`
}

// ChatLive returns the turn in progress, if any, with its events so far; the
// window replays them and follows the live events from there (a delta's seq tells
// which it already has).
func (a *API) ChatLive() (ChatLiveView, error) {
	a.chat.mu.Lock()
	rt := a.chat.running
	a.chat.mu.Unlock()
	v := ChatLiveView{Events: []ChatLiveEvent{}}
	if rt == nil {
		return v, nil
	}
	v.Session, v.Turn, v.Prompt, v.Started = rt.session, rt.turn, rt.prompt, rt.started.UTC().Format(time.RFC3339Nano)
	for _, e := range rt.out.snapshot() {
		v.Events = append(v.Events, ChatLiveEvent{Topic: string(e.Topic), Data: e.Data})
	}
	return v, nil
}

// ChatSessionView is a saved session with the turn running in it, if any.
type ChatSessionView struct {
	agent.Session
	// Running is the id of the turn in progress in this session, or "".
	Running string `json:"running"`
}

// ChatSessions lists the saved sessions, the most recent first.
func (a *API) ChatSessions() ([]agent.SessionInfo, error) {
	ss, err := a.sessions()
	if err != nil {
		return nil, err
	}
	return ss.List()
}

// ChatSession returns a saved session with every message and its time.
func (a *API) ChatSession(id string) (ChatSessionView, error) {
	ss, err := a.sessions()
	if err != nil {
		return ChatSessionView{}, err
	}
	s, err := ss.Load(id)
	if err != nil {
		return ChatSessionView{}, err
	}
	if s.Messages == nil {
		s.Messages = []agent.Record{}
	}
	v := ChatSessionView{Session: *s}
	a.chat.mu.Lock()
	if rt := a.chat.running; rt != nil && rt.session == id {
		v.Running = rt.turn
	}
	a.chat.mu.Unlock()
	return v, nil
}

// sessions returns the session store of the default library.
func (a *API) sessions() (*agent.Sessions, error) {
	if a.ws == nil {
		return nil, errors.New("no library is open")
	}
	return a.ws.Sessions()
}

// activeNote names the open note for the sensory block.
func activeNote(library, path string) string {
	if path == "" {
		return ""
	}
	if library != "" {
		return library + ": " + strings.TrimSuffix(path, ".md")
	}
	return strings.TrimSuffix(path, ".md")
}

// begin registers a new running turn in session, stopped by cancel, or says one is
// running.
func (c *chat) begin(session, prompt string, bus *event.Bus, cancel context.CancelFunc) (*runningTurn, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.running != nil {
		return nil, fmt.Errorf("the agent is still working on turn %s: wait for it or press Stop", c.running.turn)
	}
	turn := agent.NewTurnID()
	c.running = &runningTurn{session: session, turn: turn, prompt: prompt, started: time.Now(), cancel: cancel,
		done: make(chan struct{}), out: newChatOut(bus, session, turn)}
	return c.running, nil
}

// end forgets rt.
func (c *chat) end(rt *runningTurn) {
	c.mu.Lock()
	if c.running == rt {
		c.running = nil
	}
	c.mu.Unlock()
	close(rt.done)
}

// approver asks the person in the window's chat panel: it publishes chat:approval (the
// whole call and the library it acts on) and waits for ChatApprove or the end of the
// turn.
func (c *chat) approver(rt *runningTurn) approval.Asker {
	n := 0
	session, turn := rt.session, rt.turn
	return func(ctx context.Context, r approval.Request) (bool, error) {
		ch := make(chan bool, 1)
		c.mu.Lock()
		n++
		id := fmt.Sprintf("%s-a%d", turn, n)
		if c.approvals == nil {
			c.approvals = map[string]chan bool{}
		}
		c.approvals[id] = ch
		c.mu.Unlock()
		defer func() {
			c.mu.Lock()
			delete(c.approvals, id)
			c.mu.Unlock()
			rt.out.answered(id)
		}()
		rt.out.approval(event.ChatApprovalEvent{Session: session, Turn: turn, ID: id, From: r.From, Library: r.Library, Name: r.Tool, Args: r.Args})
		select {
		case yes := <-ch:
			return yes, nil
		case <-ctx.Done():
			return false, errors.New("the turn was stopped")
		}
	}
}

// pendingCache counts pending changes at most every two seconds: the count is for
// the agent's sensory block, which runs on every model call.
type pendingCache struct {
	mu    sync.Mutex
	at    time.Time
	n     int
	valid bool
}

func (p *pendingCache) count(ctx context.Context, reg *tool.Registry) (int, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.valid && time.Since(p.at) < 2*time.Second {
		return p.n, nil
	}
	res, st, err := catalog.GitStatus.Call(ctx, reg, &tool.Call{Actor: tool.ActorUser}, catalog.GitStatusIn{})
	switch {
	case err != nil:
		return 0, fmt.Errorf("pending changes: %w", err)
	case st == nil:
		return 0, fmt.Errorf("pending changes: %s", res.Message)
	}
	p.n, p.at, p.valid = st.Total, time.Now(), true
	return st.Total, nil
}

// effective returns the settings a turn uses: the environment over the saved file,
// as llm.Resolver resolves them for every face.
func (c *chat) effective() (llm.Settings, error) { return c.settings.Resolve() }

// env reads the environment as the resolver does.
func (c *chat) env(k string) string { return c.settings.Env(k) }

// path is the settings file the window edits.
func (c *chat) path() string { return c.settings.SettingsFile() }
