package canvas

import (
	"context"
	"encoding/json"
	"fmt"
	"sync"

	"github.com/memotree/memotree/backend/vpath"
)

// Set holds the canvas of every library of a workspace, one per vault folder, so
// that every face of one process (tools, the window) shares one Canvas per library.
// It is safe for concurrent use.
type Set struct {
	mu sync.Mutex
	m  map[string]*Canvas
}

// NewSet returns an empty set.
func NewSet() *Set { return &Set{m: map[string]*Canvas{}} }

// For returns the canvas of lib, creating it on first use. A folder mounted again (a
// vault closed and reopened in the window) is a new library and gets a new canvas:
// the old one would read the closed library.
func (s *Set) For(lib Library) *Canvas {
	s.mu.Lock()
	defer s.mu.Unlock()
	key := lib.Vault().Dir()
	c := s.m[key]
	if c == nil || c.lib != lib {
		c = New(lib, nil)
		s.m[key] = c
	}
	return c
}

// Forget drops the canvas of lib, a library being unmounted.
func (s *Set) Forget(lib Library) {
	s.mu.Lock()
	defer s.mu.Unlock()
	key := lib.Vault().Dir()
	if c := s.m[key]; c != nil && c.lib == lib {
		delete(s.m, key)
	}
}

// Settings are a library's canvas settings, stored in .memotree/canvas.json so that
// every process on the vault (the app, MCP, `memotree call`) uses the same ones.
type Settings struct {
	// Budget is the token budget of every view; 0 means DefaultBudget.
	Budget int `json:"budget,omitempty"`
	// AutoSummary asks the model, when one is configured, for a one-line summary of
	// a note created or updated without one (seed 000's AutoGenerateSummary).
	AutoSummary bool `json:"auto_summary,omitempty"`
}

const settingsFile = "canvas.json"

// MinBudget is the smallest budget accepted: below it not even the default view of
// a small library fits.
const MinBudget = 500

// Settings returns the library's canvas settings; missing or damaged settings are
// the defaults.
func (c *Canvas) Settings() Settings {
	var st Settings
	b, err := c.lib.Vault().ReadInternal(settingsFile)
	if err == nil {
		_ = json.Unmarshal(b, &st) // damaged settings are the defaults
	}
	if st.Budget < 0 {
		st.Budget = 0
	}
	return st
}

// SetSettings stores the library's canvas settings.
func (c *Canvas) SetSettings(st Settings) error {
	if st.Budget != 0 && st.Budget < MinBudget {
		return fmt.Errorf("canvas budget %d: at least %d tokens, or 0 for the default (%d)", st.Budget, MinBudget, DefaultBudget)
	}
	b, err := json.MarshalIndent(st, "", " ")
	if err != nil {
		return err
	}
	if err := c.lib.Vault().WriteInternal(settingsFile, append(b, '\n')); err != nil {
		return fmt.Errorf("save canvas settings: %w", err)
	}
	return nil
}

// Shown returns the notes the view named name shows (at any level): the scope
// current_view of search_nodes.
func (c *Canvas) Shown(ctx context.Context, name string) (map[vpath.Path]bool, error) {
	name, err := checkName(name)
	if err != nil {
		return nil, err
	}
	vw, err := loadView(c.lib.Vault(), name)
	if err != nil {
		return nil, err
	}
	out := map[vpath.Path]bool{}
	g, err := c.lib.Graph(ctx)
	if err != nil {
		return nil, err
	}
	for _, n := range render(newSnapshot(g), c.lib.Vault(), vw) {
		if n.Kind == KindNote {
			out[vpath.Path(n.ID+".md")] = true
		}
	}
	return out, nil
}
