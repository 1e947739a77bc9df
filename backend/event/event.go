// Package event is the in-process publish/subscribe bus through which the backend tells
// its faces (the desktop window, the browser served by `memotree serve`, MCP clients)
// that something changed.
//
// Concurrency: a Bus is safe for concurrent use. Publish never blocks: a subscriber whose
// buffer is full misses the event and is marked as having lagged, so it can resynchronise
// by refetching (every event here is a hint to refetch, never the only copy of data).
package event

import (
	"cmp"
	"slices"
	"sync"
)

// Topic names a kind of event. Every topic is declared here, once; the frontend mirrors
// this list in src/api/events.ts and a test checks that the two agree.
type Topic string

// The topics the backend publishes.
const (
	// VaultChanged carries a VaultChange: files of a library changed on disk.
	VaultChanged Topic = "vault:changed"
	// GitChanged carries a GitChange: a library's repository changed (a commit, a
	// checkout, the index, or the repository was just created): refetch its status.
	GitChanged Topic = "git:changed"
	// GitProgress carries a GitProgressLine: what a remote says while a push or pull
	// runs.
	GitProgress Topic = "git:progress"

	// ChatDelta carries a ChatDeltaEvent: streamed text of the agent's reply.
	ChatDelta Topic = "chat:delta"
	// ChatTool carries a ChatToolEvent: a tool call of the agent started or finished.
	ChatTool Topic = "chat:tool"
	// ChatApproval carries a ChatApprovalEvent: a destructive call waits for the person.
	ChatApproval Topic = "chat:approval"
	// ChatDone carries a ChatDoneEvent: a turn ended (answered, failed or stopped).
	ChatDone Topic = "chat:done"
	// SearchEmbedding carries an EmbeddingProgress: notes of a library are being
	// embedded for semantic search, in the background.
	SearchEmbedding Topic = "search:embedding"
	// TaskProgress carries a TaskProgressEvent: long work of a library (a scan of its
	// notes, the build of its search index) advanced or ended. See Progress.
	TaskProgress Topic = "task:progress"
	// ApprovalWaiting carries an ApprovalEvent: a call from outside the window (an MCP
	// client that cannot ask the person itself) waits for the person's approval.
	ApprovalWaiting Topic = "approval:waiting"
	// ApprovalClosed carries an ApprovalEvent: a request no longer waits (answered
	// here or in another window, or its caller gave up).
	ApprovalClosed Topic = "approval:closed"
	// LibrariesChanged carries a LibrariesChange: a library was mounted or unmounted
	// while the process runs (the person opened or closed a vault, or its folder
	// vanished): refetch the list of libraries.
	LibrariesChanged Topic = "libraries:changed"
	// WindowCommand carries a WindowCommandEvent: the desktop app's native menu, or a
	// second launch of the app, asks the window to run one of its commands or to show
	// a message.
	WindowCommand Topic = "window:command"
)

// Topics lists every declared topic.
var Topics = []Topic{VaultChanged, GitChanged, GitProgress, ChatDelta, ChatTool, ChatApproval, ChatDone, SearchEmbedding, TaskProgress,
	ApprovalWaiting, ApprovalClosed, LibrariesChanged, WindowCommand}

// ApprovalEvent is the payload of ApprovalWaiting and ApprovalClosed (which carries
// the ID and Library alone): answer it with the API's AnswerApproval.
type ApprovalEvent struct {
	ID      string `json:"id"`
	Library string `json:"library"`
	// From names the caller as the journey does ("mcp:Claude Desktop").
	From string `json:"from,omitempty"`
	Tool string `json:"tool,omitempty"`
	// Args are the call's arguments as JSON, cut to a few KB.
	Args string `json:"args,omitempty"`
	// Created is when the request was made (RFC 3339).
	Created string `json:"created,omitempty"`
}

// GitProgressLine is the payload of GitProgress.
type GitProgressLine struct {
	Library string `json:"library"`
	Text    string `json:"text"`
}

// LibrariesChange is the payload of LibrariesChanged.
type LibrariesChange struct {
	// Libraries names the libraries mounted now, the default first.
	Libraries []string `json:"libraries"`
	// Opened names the library just mounted, "" when none was.
	Opened string `json:"opened"`
	// Closed names the library just unmounted, "" when none was.
	Closed string `json:"closed"`
	// Path is the folder of the library opened or closed.
	Path string `json:"path"`
	// Gone says the closed library's folder was deleted, moved or became unreadable.
	Gone bool `json:"gone"`
}

// WindowCommandEvent is the payload of WindowCommand.
type WindowCommandEvent struct {
	// Command is the id of one of the window's commands (its command palette's), or
	// "notice" to show Message.
	Command string `json:"command"`
	// Message is what to tell the person, for "notice".
	Message string `json:"message"`
}

// GitChange is the payload of GitChanged.
type GitChange struct {
	Library string `json:"library"`
}

// EmbeddingProgress is the payload of SearchEmbedding.
type EmbeddingProgress struct {
	Library string `json:"library"`
	Done    int    `json:"done"`
	Total   int    `json:"total"`
	// Final is set on the last event of a pass; Error says why it stopped early.
	Final bool   `json:"final"`
	Error string `json:"error,omitempty"`
}

// VaultChange is the payload of VaultChanged.
type VaultChange struct {
	Library string   `json:"library"`
	Paths   []string `json:"paths"`
	// Rescan is true when the whole library was re-read (after a watcher overflow):
	// consumers should refetch everything.
	Rescan bool `json:"rescan"`
}

// ChatDeltaEvent is the payload of ChatDelta. Deltas of a turn are numbered from 1; a
// subscriber that sees a gap refetches the session when the turn is done.
type ChatDeltaEvent struct {
	Session string `json:"session"`
	Turn    string `json:"turn"`
	Seq     int    `json:"seq"`
	Text    string `json:"text"`
	// Reasoning says the text is the model's thinking, shown apart from the answer.
	Reasoning bool `json:"reasoning,omitempty"`
}

// ChatToolEvent is the payload of ChatTool.
type ChatToolEvent struct {
	Session string `json:"session"`
	Turn    string `json:"turn"`
	// ID is the model's id of the call.
	ID   string `json:"id"`
	Name string `json:"name"`
	// Args is the JSON the model wrote.
	Args string `json:"args"`
	// Phase is "start" or "end".
	Phase string `json:"phase"`
	// Status, Message and Result (the YAML the model reads) are set at "end".
	Status  string `json:"status"`
	Message string `json:"message"`
	Result  string `json:"result"`
}

// ChatApprovalEvent is the payload of ChatApproval: answer it with the API's ChatApprove.
type ChatApprovalEvent struct {
	Session string `json:"session"`
	Turn    string `json:"turn"`
	// ID names this request in ChatApprove.
	ID     string `json:"id"`
	CallID string `json:"call_id"`
	// From says who asks, as the journey names actors ("agent"); Library is the
	// library the call acts on.
	From    string `json:"from"`
	Library string `json:"library"`
	// Name is the tool and Args the whole call, as JSON.
	Name string `json:"name"`
	Args string `json:"args"`
}

// ChatDoneEvent is the payload of ChatDone.
type ChatDoneEvent struct {
	Session string `json:"session"`
	Turn    string `json:"turn"`
	Answer  string `json:"answer"`
	// Error says what went wrong and what to do; empty when the turn answered.
	Error string `json:"error"`
	// Stopped is true when the person stopped the turn.
	Stopped bool `json:"stopped"`
}

// Event is one published message.
type Event struct {
	Topic Topic `json:"topic"`
	Data  any   `json:"data"`
}

// Bus delivers published events to every current subscriber. It also keeps the
// latest TaskProgress of every piece of work not yet finished (Tasks), so that a
// window that connects while a scan runs can show it at once.
type Bus struct {
	mu    sync.Mutex
	next  int
	subs  map[int]chan Event
	tasks map[[2]string]TaskProgressEvent // by library and kind
}

// NewBus returns an empty bus.
func NewBus() *Bus {
	return &Bus{subs: map[int]chan Event{}, tasks: map[[2]string]TaskProgressEvent{}}
}

// Tasks returns the latest progress of every piece of work in progress, and of
// every one that ended with an error, by library then kind.
func (b *Bus) Tasks() []TaskProgressEvent {
	b.mu.Lock()
	defer b.mu.Unlock()
	out := make([]TaskProgressEvent, 0, len(b.tasks))
	for _, t := range b.tasks {
		out = append(out, t)
	}
	slices.SortFunc(out, func(x, y TaskProgressEvent) int {
		return cmp.Or(cmp.Compare(x.Library, y.Library), cmp.Compare(x.Kind, y.Kind))
	})
	return out
}

// Subscribe registers a subscriber with a buffer of the given size. The returned cancel
// function unregisters it and closes the channel; it is safe to call more than once.
func (b *Bus) Subscribe(buffer int) (<-chan Event, func()) {
	b.mu.Lock()
	defer b.mu.Unlock()
	id := b.next
	b.next++
	ch := make(chan Event, buffer)
	b.subs[id] = ch
	var once sync.Once
	return ch, func() {
		once.Do(func() {
			b.mu.Lock()
			defer b.mu.Unlock()
			delete(b.subs, id)
			close(ch)
		})
	}
}

// Publish sends e to every subscriber without blocking.
func (b *Bus) Publish(e Event) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if p, ok := e.Data.(TaskProgressEvent); ok && e.Topic == TaskProgress {
		if key := [2]string{p.Library, p.Kind}; p.Final && p.Error == "" {
			delete(b.tasks, key)
		} else {
			b.tasks[key] = p
		}
	}
	for _, ch := range b.subs {
		select {
		case ch <- e:
		default:
		}
	}
}
