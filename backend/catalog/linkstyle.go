package catalog

import (
	"encoding/json"
	"errors"
	"fmt"

	"github.com/memotree/memotree/backend/graph"
	"github.com/memotree/memotree/backend/library"
	"github.com/memotree/memotree/backend/vault"
	"github.com/memotree/memotree/backend/vpath"
)

// appConfigPath is Obsidian's settings file of a vault, which holds how it writes new
// links. MemoTree reads it and never writes it.
const appConfigPath vpath.Path = ".obsidian/app.json"

// linkStyle is how the vault's Obsidian writes the path of a new link: its "New link
// format" setting (newLinkFormat: "shortest", "relative" or "absolute"); without the
// file, Obsidian's default, the shortest path. The links MemoTree writes new are
// relations, which are properties, and Obsidian links a property only with
// "[[wikilinks]]" (its Properties help: "using the [[Link]] syntax"), so the
// useMarkdownLinks setting does not change them.
type linkStyle struct {
	format int // formShortest, formRelative or formAbsolute
	// problem says why the settings file was not followed ("" when it was, or when
	// there is none).
	problem string
}

// readLinkStyle reads the link settings of a library's Obsidian. A file that is not
// JSON, or holds a value MemoTree does not know (another Obsidian version), gives the
// default style and says so in problem.
func readLinkStyle(l *library.Library) linkStyle {
	b, err := l.Vault().ReadFile(appConfigPath)
	if errors.Is(err, vault.ErrNotFound) {
		return linkStyle{}
	}
	if err != nil {
		return linkStyle{problem: fmt.Sprintf("%s could not be read (%v): new links use Obsidian's default, the shortest path", appConfigPath, err)}
	}
	var cfg map[string]any
	if err := json.Unmarshal(b, &cfg); err != nil {
		return linkStyle{problem: fmt.Sprintf("%s is not valid JSON (%v): new links use Obsidian's default, the shortest path", appConfigPath, err)}
	}
	v, ok := cfg["newLinkFormat"]
	if !ok {
		return linkStyle{}
	}
	switch v {
	case "shortest":
		return linkStyle{format: formShortest}
	case "relative":
		return linkStyle{format: formRelative}
	case "absolute":
		return linkStyle{format: formAbsolute}
	}
	return linkStyle{problem: fmt.Sprintf("%s has newLinkFormat %v, which MemoTree does not know (it knows shortest, relative and absolute): new links use the shortest path", appConfigPath, v)}
}

// relationTarget returns what to write inside "[[...]]" for a new relation, written
// in the note at from, to the note named to: the note's path in the vault's format —
// its basename when no other note has it (else its vault path) for "shortest", its
// path from from's folder for "relative", its vault path for "absolute". A name that
// resolves to no note is written as given.
func (st linkStyle) relationTarget(g *graph.Graph, from vpath.Path, to string) string {
	dst, ok := g.Resolve(from, to)
	if !ok {
		return to
	}
	d := linkDest{path: dst, short: uniqueBase(g, dst)}
	return relinker{g: g}.text(d, form{kind: st.format}, from)
}
