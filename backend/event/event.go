// Package event is the in-process publish/subscribe bus through which the backend tells
// its faces (the desktop window, the browser served by `memotree serve`, MCP clients)
// that something changed.
//
// Concurrency: a Bus is safe for concurrent use. Publish never blocks: a subscriber whose
// buffer is full misses the event and is marked as having lagged, so it can resynchronise
// by refetching (every event here is a hint to refetch, never the only copy of data).
package event

import "sync"

// Topic names a kind of event. Every topic is declared here, once; the frontend mirrors
// this list in src/api/events.ts and a test checks that the two agree.
type Topic string

// The topics the backend publishes.
const (
	// VaultChanged carries a VaultChange: files of a library changed on disk.
	VaultChanged Topic = "vault:changed"
	// SearchEmbedding carries an EmbeddingProgress: notes of a library are being
	// embedded for semantic search, in the background.
	SearchEmbedding Topic = "search:embedding"
)

// Topics lists every declared topic.
var Topics = []Topic{VaultChanged, SearchEmbedding}

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

// Event is one published message.
type Event struct {
	Topic Topic `json:"topic"`
	Data  any   `json:"data"`
}

// Bus delivers published events to every current subscriber.
type Bus struct {
	mu   sync.Mutex
	next int
	subs map[int]chan Event
}

// NewBus returns an empty bus.
func NewBus() *Bus { return &Bus{subs: map[int]chan Event{}} }

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
	for _, ch := range b.subs {
		select {
		case ch <- e:
		default:
		}
	}
}
