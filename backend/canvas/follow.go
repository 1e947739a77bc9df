package canvas

import (
	"context"
	"strings"

	"github.com/memotree/memotree/backend/event"
	"github.com/memotree/memotree/backend/vpath"
)

// Follow keeps the views in step with changes made outside the tools (a note moved or
// renamed in Obsidian or a file manager), as the library publishes them on bus: when a
// note the library lost and a note it gained in one change share a base name, or are
// the only two, the views' entries move to the new note. Notes that are simply gone
// leave the views at their next change. Follow returns the function that stops it.
func (c *Canvas) Follow(bus *event.Bus) (stop func()) {
	ch, cancel := bus.Subscribe(64)
	done := make(chan struct{})
	go func() {
		defer close(done)
		for e := range ch {
			vc, ok := e.Data.(event.VaultChange)
			if !ok || e.Topic != event.VaultChanged || vc.Library != c.lib.Name() || vc.Rescan {
				continue
			}
			for _, mv := range c.moves(context.Background(), vc.Paths) {
				_ = c.Renamed(context.Background(), mv[0], mv[1]) // best effort: the entry is pruned otherwise
			}
		}
	}()
	return func() {
		cancel()
		<-done
	}
}

// moves pairs the notes that left the library with those that arrived; none when the
// graph cannot be read.
func (c *Canvas) moves(ctx context.Context, paths []string) [][2]vpath.Path {
	g, err := c.lib.Graph(ctx)
	if err != nil {
		return nil
	}
	var gone, came []vpath.Path
	for _, s := range paths {
		p := vpath.Path(s)
		if !p.IsNote() {
			continue
		}
		if g.Has(p) {
			came = append(came, p)
		} else {
			gone = append(gone, p)
		}
	}
	if len(gone) == 0 || len(came) == 0 {
		return nil
	}
	if len(gone) == 1 && len(came) == 1 {
		return [][2]vpath.Path{{gone[0], came[0]}}
	}
	var out [][2]vpath.Path
	for _, old := range gone {
		var match []vpath.Path
		for _, p := range came {
			if strings.EqualFold(old.Base(), p.Base()) {
				match = append(match, p)
			}
		}
		if len(match) == 1 {
			out = append(out, [2]vpath.Path{old, match[0]})
		}
	}
	return out
}
