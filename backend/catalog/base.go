// Package catalog is the catalogue: the tool families of DESIGN.md declared once on the
// registry of package tool. A family's declaration file (entity.go, git.go, pages.go,
// relation.go, …) holds the Ref of each of its tools (tool.NewRef: the name with the
// input and output types; the Refs Go code calls are exported, in refs.go) and the
// family function that declares them and adds itself to families; its handlers live
// there and in files named after it (entity_read.go, git_write.go, …), and each tool's
// Markdown description is docs/<name>.md. The catalogue holds tools, not engines: the
// search tools (search.go, search_nodes.go) decode their arguments, call the
// registry's search.Engine (env.search) and shape its answers into results, and the
// engine, with its tests, is package search. Every write goes through the library
// (Library.Write and Apply) to the vault's atomic, compare-and-swap, locked path,
// records the journey with the caller's actor, and is in the graph before the tool
// returns. A handler that reads the graph takes its library with env.loaded, which
// loads it (a lazily opened library scans then) or returns the scan's error.
//
// Concurrency: handlers are safe for concurrent use; writes to one vault are serialised
// by the vault's cross-process lock, and a compare-and-swap on the content hash read
// refuses a write whose file changed in between.
package catalog

import (
	"context"
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"strings"
	"time"

	"github.com/memotree/memotree/backend/canvas"
	"github.com/memotree/memotree/backend/event"
	"github.com/memotree/memotree/backend/graph"
	"github.com/memotree/memotree/backend/internal/fsfault"
	"github.com/memotree/memotree/backend/library"
	"github.com/memotree/memotree/backend/search"
	"github.com/memotree/memotree/backend/tool"
	"github.com/memotree/memotree/backend/vault"
	"github.com/memotree/memotree/backend/vpath"
)

//go:embed docs/*.md
var docs embed.FS

// desc returns the embedded description of a tool, docs/<name>.md.
func desc(name string) string {
	sub, err := fs.Sub(docs, "docs")
	if err != nil {
		panic(err) // the folder is embedded: this cannot fail
	}
	return tool.MustDescription(sub, name)
}

// Libraries is what the catalogue needs of the workspace: the mounted libraries.
type Libraries interface {
	// Library returns the library mounted under name; "" is the default library.
	Library(name string) (*library.Library, error)
	// Libraries returns every mounted library, the default first.
	Libraries() []*library.Library
	// Permission is what the agent and MCP clients may do in the library named name.
	Permission(name string) tool.Permission
}

// Embedder computes one vector per text (the LLM gateway's Embeddings).
type Embedder = search.Embedder

// Deps are what the catalogue needs.
type Deps struct {
	Libraries Libraries
	// Canvases holds the agent's views of each library; nil gives the catalogue its
	// own (the workspace passes the one its window also uses).
	Canvases *canvas.Set
	// Summarizer writes missing summaries when the library's canvas settings ask for
	// it and a model is configured (see ConfiguredSummarizer); nil for none.
	Summarizer Summarizer
	// Embedder serves semantic and hybrid search_nodes; nil disables them.
	Embedder Embedder
	// Bus, when set, receives the progress of background embedding.
	Bus *event.Bus
	// AtClose, when set, registers a function to run when the workspace closes: the
	// search indexes are saved and closed then, and stop following their libraries.
	AtClose func(func())
	// BuildInBackground opens (or builds) each library's search index in the
	// background once the library's scan has ended, so that the first search of a
	// long-running process (the app, serve, MCP) does not wait for it. It needs
	// AtClose, which stops the work.
	BuildInBackground bool
	// SearchTimeout bounds one content search (search_in_contents, search_anywhere):
	// what was found by then is answered with a warning. Zero means 10 s.
	SearchTimeout time.Duration
}

// env is shared by every handler of the catalogue.
type env struct {
	ws         Libraries
	search     *search.Engine // the searches: each library's index and text cache
	canvases   *canvas.Set
	summarizer Summarizer
	// searchTimeout bounds one content search (Deps.SearchTimeout).
	searchTimeout time.Duration
}

// embedder returns the embeddings model, or nil.
func (e *env) embedder() Embedder { return e.search.Embedder() }

// family registers one family of tools.
type family func(e *env) []*tool.Tool

// families lists every family; a new family file adds itself here.
var families []family

// Register declares every tool of the catalogue on r.
func Register(r *tool.Registry, d Deps) error {
	engine := search.NewEngine(search.EngineOptions{Embedder: d.Embedder, Bus: d.Bus, AtClose: d.AtClose})
	e := &env{ws: d.Libraries, search: engine, canvases: d.Canvases, summarizer: d.Summarizer, searchTimeout: d.SearchTimeout}
	if e.searchTimeout <= 0 {
		e.searchTimeout = defaultSearchTimeout
	}
	if e.canvases == nil {
		e.canvases = canvas.NewSet()
	}
	for _, f := range families {
		if err := r.Register(f(e)...); err != nil {
			return err
		}
	}
	if d.BuildInBackground && d.AtClose != nil {
		e.search.InBackground(d.Libraries.Libraries(), d.AtClose)
	}
	return nil
}

// lib is a library whose graph is loaded, as the handlers that read the graph hold it
// (see env.loaded): its Graph needs no context, the scan having run.
type lib struct {
	*library.Library
	g *graph.Graph
}

// Graph returns the library's loaded graph.
func (l lib) Graph() *graph.Graph { return l.g }

// loaded returns the library a call acts on with its graph loaded (a lazily opened
// library scans now), the result to answer when there is no such library, or the
// error of the scan.
func (e *env) loaded(ctx context.Context, call *tool.Call) (lib, *tool.Result, error) {
	l, res := e.library(ctx, call)
	if res != nil {
		return lib{}, res, nil
	}
	g, err := l.Graph(ctx)
	if err != nil {
		return lib{}, nil, fmt.Errorf("read library %s: %w", l.Name(), err)
	}
	return lib{l, g}, nil, nil
}

// library returns the library a call acts on, or the result to answer. Inside a
// transaction (a script's: see library.WithTx) it is the transaction's view of it.
func (e *env) library(ctx context.Context, call *tool.Call) (*library.Library, *tool.Result) {
	l, err := e.ws.Library(call.Library)
	if err != nil {
		r := tool.Fail(tool.CodeNotFound, "%v; call list_libraries to see them", err)
		return nil, &r
	}
	l, err = library.InTx(ctx, l)
	if err != nil {
		r := tool.Fail(tool.CodeInternal, "library %s cannot be changed in this script: %v", call.Library, err)
		return nil, &r
	}
	return l, nil
}

// libraries returns every mounted library, the default first, each as a call in ctx
// sees it (a transaction's fork where it has one).
func (e *env) libraries(ctx context.Context) []*library.Library {
	libs := e.ws.Libraries()
	out := make([]*library.Library, 0, len(libs))
	for _, l := range libs {
		if f, err := library.InTx(ctx, l); err == nil {
			l = f
		}
		out = append(out, l)
	}
	return out
}

// lookup resolves an entity name (a path with or without .md, a unique basename, a
// partial path or an alias) to the note it names, or the result to answer: not_found
// with the nearest names, or ambiguous with the candidates.
func lookup(l lib, name string) (vpath.Path, *tool.Result) {
	if strings.TrimSpace(name) == "" {
		r := tool.Fail(tool.CodeInvalidArguments, "entity_name is empty: give a note's name, such as \"people/Ada Lovelace\"")
		return "", &r
	}
	p, err := l.Graph().Lookup(name)
	if err == nil {
		return p, nil
	}
	var le *graph.LookupError
	switch {
	case errors.As(err, &le) && errors.Is(err, graph.ErrAmbiguous):
		names := make([]string, len(le.Candidates))
		for i, c := range le.Candidates {
			names[i] = c.Name()
		}
		r := tool.Fail(tool.CodeAmbiguous, "%q names more than one note: %s; use the full name", name, strings.Join(quoteAll(names), ", "))
		r.Data = struct {
			Candidates []string `json:"candidates"`
		}{names}
		return "", &r
	case errors.As(err, &le) && errors.Is(err, graph.ErrNotFound):
		msg := fmt.Sprintf("no note named %q", name)
		if len(le.Nearest) > 0 {
			msg += "; did you mean " + strings.Join(quoteAll(le.Nearest), ", ") + "?"
		} else {
			msg += "; list_entities or search_in_names find names"
		}
		r := tool.Fail(tool.CodeNotFound, "%s", msg)
		if len(le.Nearest) > 0 {
			r.Data = struct {
				Nearest []string `json:"nearest"`
			}{le.Nearest}
		}
		return "", &r
	}
	r := tool.Fail(tool.CodeInvalidArguments, "entity name %q: %v", name, err)
	return "", &r
}

// newPath turns a name for a note that does not exist yet into its path: the name,
// slash-separated, with ".md" added when missing. Names that leave the vault, name an
// ignored folder or are not valid paths are refused with the result to answer.
func newPath(name string) (vpath.Path, *tool.Result) {
	name = strings.TrimSpace(name)
	if !strings.HasSuffix(strings.ToLower(name), ".md") {
		name += ".md"
	}
	p, err := vpath.ParseNew(name)
	if err == nil && p.Ignored() {
		err = fmt.Errorf("%s is inside a folder MemoTree does not manage", p.Dir())
	}
	if err == nil && (p == "" || p.Base() == ".md") {
		err = errors.New("the name is empty")
	}
	if err != nil {
		r := tool.Fail(tool.CodeInvalidArguments, "entity name %q: %v; use a vault-relative name such as \"folder/Note\"", name, err)
		return "", &r
	}
	return p, nil
}

// twin answers already_exists when a note other than except has p's name but for
// case or Unicode normalisation ("notes/a" beside "Notes/A"): distinct files on
// Linux, but one file on macOS and Windows, so creating p would clobber it there.
func twin(l lib, p, except vpath.Path) *tool.Result {
	for _, q := range l.Graph().SameName(p) {
		if q != except {
			r := tool.Fail(tool.CodeAlreadyExists, "%s differs only in case or Unicode form from the existing %s, and macOS and Windows would take them for one file; use that note, or choose another name", p.Name(), q.Name())
			return &r
		}
	}
	return nil
}

// respell puts a new note's path in the spelling of the folders that already exist:
// "NOTES/B" becomes "Notes/B" when the vault has a Notes folder and no NOTES one, as
// macOS and Windows would do, so that Linux does not grow a second folder they would
// merge. A folder spelled exactly as given is kept.
func respell(l lib, p vpath.Path) vpath.Path {
	dir := p.Dir()
	if dir == "" {
		return p
	}
	var prefix string
	for _, part := range strings.Split(string(dir), "/") {
		want := part
		if prefix != "" {
			want = prefix + "/" + part
		}
		if !l.Graph().HasFolder(want) { // the common case, an existing folder, needs no scan
			if have := l.Graph().FolderSpellings(want); len(have) > 0 {
				want = have[0]
			}
		}
		prefix = want
	}
	return vpath.Path(prefix).Join(p.Base())
}

// writeOpts returns the vault write options for a call.
func writeOpts(call *tool.Call, op string) vault.WriteOptions {
	return vault.WriteOptions{Actor: actorOf(call), Op: op, Turn: call.Turn, Session: call.Session}
}

// createOpts is writeOpts for a write that must not overwrite.
func createOpts(call *tool.Call, op string) vault.WriteOptions {
	o := writeOpts(call, op)
	o.CreateOnly = true
	return o
}

// actorOf names the caller in the journey: the actor, with the turn when there is one.
func actorOf(call *tool.Call) string {
	if call.Turn != "" {
		return call.Actor + "@" + call.Turn
	}
	return call.Actor
}

// writeFailure maps a vault error to the result a model can act on; ok is false when
// the error is an infrastructure failure the caller must return as an error.
func writeFailure(p vpath.Path, err error) (tool.Result, bool) {
	switch {
	case errors.Is(err, vault.ErrExists):
		return tool.Fail(tool.CodeAlreadyExists, "%s already exists; choose another name, or update_entity to change it", p.Name()), true
	case errors.Is(err, vault.ErrConflict):
		return tool.Fail(tool.CodeConflict, "%s changed since it was read (someone else edited it); read it again and retry", p.Name()), true
	case errors.Is(err, vault.ErrNotFound):
		return tool.Fail(tool.CodeNotFound, "%s does not exist", p.Name()), true
	case errors.Is(err, vault.ErrOutside), errors.Is(err, vpath.ErrInvalid):
		return tool.Fail(tool.CodeInvalidArguments, "%s: %v", p, err), true
	case errors.Is(err, vault.ErrReadOnly):
		return tool.Fail(tool.CodePermissionDenied, "%s is a read-only note (its file permissions allow no writing): nothing changed; ask the person to make it writable if it should change", p.Name()), true
	case errors.Is(err, vault.ErrNotRegular):
		return tool.Fail(tool.CodeInvalidArguments, "%s: %v; nothing changed", p, err), true
	case errors.Is(err, vault.ErrInUse):
		return tool.Fail(tool.CodeInUse, "%s is held by another program: %v. Ask the person to close it there, then try again", p.Name(), err), true
	case errors.Is(err, context.Canceled), errors.Is(err, context.DeadlineExceeded):
		return tool.Fail(tool.CodeCanceled, "stopped before %s was written; nothing changed", p.Name()), true
	}
	if advice := fsfault.Advice(err); advice != "" {
		if errors.Is(err, vault.ErrPending) {
			return tool.Fail(tool.CodeDiskFull, "%s: %v. %s", p.Name(), err, advice), true
		}
		return tool.Fail(tool.CodeDiskFull, "%s was not written: %v. Nothing changed. %s", p.Name(), err, advice), true
	}
	return tool.Result{}, false
}

// clipText shortens s to at most n bytes without splitting a character, and marks a
// cut with "…".
func clipText(s string, n int) (string, bool) {
	c, cut := tool.Clip(s, n)
	if cut {
		c += "…"
	}
	return c, cut
}

func quoteAll(s []string) []string {
	out := make([]string, len(s))
	for i, v := range s {
		out[i] = fmt.Sprintf("%q", v)
	}
	return out
}

// deref returns *r, or the zero Result for nil.
func deref(r *tool.Result) tool.Result {
	if r == nil {
		return tool.Result{}
	}
	return *r
}
