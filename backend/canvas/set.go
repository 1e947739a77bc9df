package canvas

import (
	"context"
	"fmt"
	"sync"

	"github.com/memotree/memotree/backend/settings"
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
	key := lib.State().Dir()
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
	key := lib.State().Dir()
	if c := s.m[key]; c != nil && c.lib == lib {
		delete(s.m, key)
	}
}

// Settings are a library's canvas settings, stored in .memotree/canvas.json so that
// every process on the vault (the app, MCP, `memotree call`) uses the same ones.
type Settings struct {
	// Budget is the token budget of every view; 0 (or none) means DefaultBudget.
	Budget int `json:"budget"`
	// AutoSummary asks the model, when one is configured, for a one-line summary of
	// a note created or updated without one (seed 000's AutoGenerateSummary).
	AutoSummary bool `json:"auto_summary"`
}

// MinBudget is the smallest budget accepted: below it not even the default view of
// a small library fits.
const MinBudget = 500

// SettingsSection is where a library's canvas settings are kept, with their defaults
// (the budget DefaultBudget, no summaries written).
var SettingsSection = settings.Section[Settings]{
	File:    "canvas.json",
	Default: func() Settings { return Settings{Budget: DefaultBudget} },
	Normal: func(st Settings) Settings {
		if st.Budget <= 0 {
			st.Budget = DefaultBudget
		}
		return st
	},
	Check: func(st Settings) error {
		if st.Budget != 0 && st.Budget < MinBudget {
			return fmt.Errorf("canvas budget %d: at least %d tokens, or 0 for the default (%d)", st.Budget, MinBudget, DefaultBudget)
		}
		return nil
	},
	Damaged: "the canvas has the default budget and writes no summary until the settings are saved again",
}

// Settings returns the library's canvas settings; missing or damaged settings are
// the defaults.
func (c *Canvas) Settings() Settings {
	st, _ := SettingsSection.Load(c.lib.State())
	return st
}

// SetSettings stores the library's canvas settings.
func (c *Canvas) SetSettings(st Settings) error {
	_, err := SettingsSection.Save(c.lib.State(), st)
	return err
}

// Shown returns the notes the view named name shows (at any level): the scope
// current_view of search_nodes.
func (c *Canvas) Shown(ctx context.Context, name string) (map[vpath.Path]bool, error) {
	name, err := checkName(name)
	if err != nil {
		return nil, err
	}
	vw, err := loadView(c.lib.State(), name)
	if err != nil {
		return nil, err
	}
	out := map[vpath.Path]bool{}
	g, err := c.lib.Graph(ctx)
	if err != nil {
		return nil, err
	}
	for _, n := range render(newSnapshot(g), c.lib.State(), vw) {
		if n.Kind == KindNote {
			out[vpath.Path(n.ID+".md")] = true
		}
	}
	return out, nil
}
