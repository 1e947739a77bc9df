package agent

import (
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/memotree/memotree/backend/llm"
)

// SessionsDir is the folder of the chat sessions inside the library's .memotree.
const SessionsDir = "sessions"

// ErrNoSession says a session id names no saved session.
var ErrNoSession = errors.New("no such chat session")

// SessionFiles is where sessions are kept: the internal-file API of the default
// library's vault (*vault.Vault satisfies it), whose writes are atomic.
type SessionFiles interface {
	WriteInternal(name string, data []byte) error
	ReadInternal(name string) ([]byte, error)
	ListInternal(dir string) ([]string, error)
}

// Sessions saves, loads and lists chat sessions. It is safe for concurrent use.
type Sessions struct {
	files SessionFiles
	mu    sync.Mutex
}

// NewSessions returns the sessions kept in files.
func NewSessions(files SessionFiles) *Sessions { return &Sessions{files: files} }

// Session is one conversation: its messages, each with the time it was made. The
// times are for the person; the model never sees them.
type Session struct {
	ID      string    `json:"id"`
	Title   string    `json:"title"`
	Created time.Time `json:"created"`
	Updated time.Time `json:"updated"`
	// System is the person's system prompt for this conversation (seed 004's /system),
	// sent after MemoTree's own instruction on every model call; "" for none.
	System   string   `json:"system,omitempty"`
	Messages []Record `json:"messages"`
}

// MaxSystemPrompt bounds a session's system prompt, in bytes: it is sent on every
// model call, so a longer one belongs in the library's manual (meta.md).
const MaxSystemPrompt = 32 << 10

// Errors SetSystem returns.
var (
	// ErrEmptySystem says a system prompt to set is empty.
	ErrEmptySystem = errors.New("the system prompt is empty")
	// ErrLongSystem says a system prompt is longer than MaxSystemPrompt.
	ErrLongSystem = errors.New("the system prompt is too long")
)

// SetSystem sets the session's system prompt, which must be 1 to MaxSystemPrompt
// bytes of text once trimmed; a refused prompt leaves the one set before.
func (s *Session) SetSystem(text string) error {
	text = strings.TrimSpace(text)
	switch {
	case text == "":
		return fmt.Errorf("%w: give the instructions, or clear the prompt instead", ErrEmptySystem)
	case len(text) > MaxSystemPrompt:
		return fmt.Errorf("%w: %d bytes, the most is %d (it goes with every model call); put long instructions in the library's manual, meta.md", ErrLongSystem, len(text), MaxSystemPrompt)
	case !utf8.ValidString(text) || strings.ContainsRune(text, 0):
		return fmt.Errorf("the system prompt is not text (invalid UTF-8 or a NUL byte)")
	}
	s.System = text
	return nil
}

// Record is one stored message.
type Record struct {
	Time    time.Time `json:"time"`
	Role    string    `json:"role"`
	Content string    `json:"content,omitempty"`
	// Reasoning is what a reasoning model thought before this answer, shown apart
	// and never sent back to the model.
	Reasoning  string       `json:"reasoning,omitempty"`
	ToolCalls  []RecordCall `json:"tool_calls,omitempty"`
	ToolCallID string       `json:"tool_call_id,omitempty"`
}

// RecordCall is one tool call of a stored assistant message.
type RecordCall struct {
	ID        string `json:"id"`
	Name      string `json:"name"`
	Arguments string `json:"arguments"`
}

// SessionInfo describes a saved session in a list.
type SessionInfo struct {
	ID       string    `json:"id"`
	Title    string    `json:"title"`
	Created  time.Time `json:"created"`
	Updated  time.Time `json:"updated"`
	Messages int       `json:"messages"`
}

// NewSession returns an empty session created at now, with a fresh id.
func NewSession(now time.Time) *Session {
	var b [3]byte
	_, _ = rand.Read(b[:])
	id := "s-" + now.UTC().Format("20060102-150405") + "-" + hex.EncodeToString(b[:])
	return &Session{ID: id, Created: now, Updated: now}
}

// History returns the messages as the agent takes them.
func (s *Session) History() []llm.Message {
	out := make([]llm.Message, len(s.Messages))
	for i, r := range s.Messages {
		m := llm.Message{Role: r.Role, Content: r.Content, Reasoning: r.Reasoning, ToolCallID: r.ToolCallID}
		for _, c := range r.ToolCalls {
			m.ToolCalls = append(m.ToolCalls, llm.ToolCall{ID: c.ID, Name: c.Name, Arguments: c.Arguments})
		}
		out[i] = m
	}
	return out
}

// Append adds msgs, the i-th made at times[i] (the last time when times is short).
func (s *Session) Append(msgs []llm.Message, times []time.Time) {
	for i, m := range msgs {
		at := s.Updated
		if len(times) > 0 {
			at = times[min(i, len(times)-1)]
		}
		r := Record{Time: at, Role: m.Role, Content: m.Content, Reasoning: m.Reasoning, ToolCallID: m.ToolCallID}
		for _, c := range m.ToolCalls {
			r.ToolCalls = append(r.ToolCalls, RecordCall{ID: c.ID, Name: c.Name, Arguments: c.Arguments})
		}
		s.Messages = append(s.Messages, r)
		if at.After(s.Updated) {
			s.Updated = at
		}
		if s.Title == "" && m.Role == llm.RoleUser {
			s.Title = titleOf(m.Content)
		}
	}
}

// titleOf is the first line of a prompt, clipped.
func titleOf(prompt string) string {
	t := strings.TrimSpace(prompt)
	if i := strings.IndexByte(t, '\n'); i >= 0 {
		t = t[:i]
	}
	if r := []rune(t); len(r) > 60 {
		t = string(r[:59]) + "…"
	}
	return t
}

// validSessionID reports whether id is 1 to 80 ASCII letters, digits, '_' or '-'
// (checked by hand: a regular expression compiled at start-up costs every process).
func validSessionID(id string) bool {
	if len(id) < 1 || len(id) > 80 {
		return false
	}
	for i := 0; i < len(id); i++ {
		if c := id[i]; !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '_' || c == '-') {
			return false
		}
	}
	return true
}

// fileOf returns the internal file name of session id.
func fileOf(id string) (string, error) {
	if !validSessionID(id) {
		return "", fmt.Errorf("%w %q: an id has letters, digits, '-' and '_' only", ErrNoSession, id)
	}
	return SessionsDir + "/" + id + ".json", nil
}

// Save writes s atomically, replacing its previous version.
func (ss *Sessions) Save(s *Session) error {
	name, err := fileOf(s.ID)
	if err != nil {
		return fmt.Errorf("save session: %w", err)
	}
	b, err := json.MarshalIndent(s, "", " ")
	if err != nil {
		return fmt.Errorf("save session %s: %w", s.ID, err)
	}
	ss.mu.Lock()
	defer ss.mu.Unlock()
	if err := ss.files.WriteInternal(name, b); err != nil {
		return fmt.Errorf("save session %s: %w", s.ID, err)
	}
	return nil
}

// Load reads the session id; ErrNoSession when there is none.
func (ss *Sessions) Load(id string) (*Session, error) {
	name, err := fileOf(id)
	if err != nil {
		return nil, err
	}
	b, err := ss.files.ReadInternal(name)
	if err != nil {
		return nil, fmt.Errorf("%w %q (list them with /sessions): %w", ErrNoSession, id, err)
	}
	var s Session
	if err := json.Unmarshal(b, &s); err != nil {
		return nil, fmt.Errorf("load session %s: the file .memotree/%s is damaged: %w", id, name, err)
	}
	return &s, nil
}

// List returns every saved session, the most recently updated first. A damaged
// file is skipped, not fatal.
func (ss *Sessions) List() ([]SessionInfo, error) {
	names, err := ss.files.ListInternal(SessionsDir)
	if err != nil {
		return nil, fmt.Errorf("list sessions: %w", err)
	}
	out := []SessionInfo{}
	for _, n := range names {
		id, ok := strings.CutSuffix(n, ".json")
		if !ok {
			continue
		}
		s, err := ss.Load(id)
		if err != nil {
			continue
		}
		out = append(out, SessionInfo{ID: s.ID, Title: s.Title, Created: s.Created, Updated: s.Updated, Messages: len(s.Messages)})
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Updated.After(out[j].Updated) })
	return out, nil
}
