package catalog

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/memotree/memotree/backend/canvas"
	"github.com/memotree/memotree/backend/library"
	"github.com/memotree/memotree/backend/tool"
	"github.com/memotree/memotree/backend/vpath"
)

func init() { families = append(families, canvasTools) }

// The Refs of the canvas tools (ViewCanvas is in refs.go): each tool is declared
// through its Ref, which names it with its input and output types, so that the
// compiler checks its handler and rules.
var (
	expandNode   = tool.NewRef[expandNodeIn, *canvasChangeOut]("expand_node")
	collapseNode = tool.NewRef[collapseNodeIn, *canvasChangeOut]("collapse_node")
)

// canvasTools declares the canvas family: the agent's view of a library, raised and
// lowered node by node. They change only the view (in .memotree), never a note, so
// they are read-only for permissions.
func canvasTools(e *env) []*tool.Tool {
	return []*tool.Tool{
		expandNode.New(tool.ReadOnly, desc("expand_node"), e.expandNode).Enum("level", "title", "summary", "full"),
		collapseNode.New(tool.ReadOnly, desc("collapse_node"), e.collapseNode),
		ViewCanvas.New(tool.ReadOnly, desc("view_canvas"), e.viewCanvas),
	}
}

type expandNodeIn struct {
	EntityName       string `json:"entity_name" jsonschema:"a note, a folder (\"people/\", \"/\" for the root), a page of a large folder (\"people/[2]\") or a section (\"Note#Heading\")"`
	Level            string `json:"level,omitempty" jsonschema:"title, summary or full; default: full for a note or section, summary (open) for a folder or page"`
	IncludeChildren  bool   `json:"include_children,omitempty" jsonschema:"raise the children too: a folder's notes, a note's sections"`
	IncludeRelations bool   `json:"include_relations,omitempty" jsonschema:"also show the notes it links to and that link to it, by title"`
	ViewName         string `json:"view_name,omitempty" jsonschema:"the view; \"default\" when absent"`
	tool.LibraryArg
}

type collapseNodeIn struct {
	EntityName string `json:"entity_name" jsonschema:"the node to collapse, named as in the canvas"`
	Recursive  bool   `json:"recursive,omitempty" jsonschema:"also collapse everything shown below it (pinned nodes stay)"`
	ViewName   string `json:"view_name,omitempty" jsonschema:"the view; \"default\" when absent"`
	tool.LibraryArg
}

// ViewCanvasIn is the input of view_canvas.
type ViewCanvasIn struct {
	ViewName string `json:"view_name,omitempty" jsonschema:"the view; \"default\" when absent"`
	tool.LibraryArg
}

// canvasOf returns the canvas of a library. A transaction's fork gets a canvas of
// its own for the call, over the same stored views (they are the agent's, kept in
// .memotree, not notes: a script's changes to them are not held back), which reads
// the notes as the transaction sees them; the shared one would be replaced by it.
func (e *env) canvasOf(l *library.Library) *canvas.Canvas {
	if l.Parent() != l {
		return canvas.New(l, nil)
	}
	return e.canvases.For(l)
}

// Canvases returns the canvases the catalogue uses (those given in Deps, or its own).
func (e *env) Canvases() *canvas.Set { return e.canvases }

// nodeID turns an entity_name into a canvas node id, or the result to answer.
func nodeID(l lib, name string) (string, *tool.Result) {
	name = strings.TrimSpace(clipLong(name))
	if i := strings.LastIndex(name, "["); i >= 0 && strings.HasSuffix(name, "]") {
		return name, nil // a page: the canvas checks it
	}
	if base, heading, ok := strings.Cut(name, "#"); ok && strings.TrimSpace(base) != "" {
		p, fail := lookup(l, base)
		if fail != nil {
			return "", fail
		}
		n, _ := l.Graph().Note(p)
		for _, h := range n.Headings {
			if strings.EqualFold(strings.TrimSpace(h.Text), strings.TrimSpace(heading)) {
				return canvas.NoteID(p) + "#" + h.Text, nil
			}
		}
		var hs []string
		for _, h := range n.Headings {
			hs = append(hs, h.Text)
		}
		msg := fmt.Sprintf("%s has no heading %q", p.Name(), heading)
		if len(hs) > 0 {
			msg += "; its headings: " + strings.Join(quoteAll(hs), ", ")
		}
		r := tool.Fail(tool.CodeNotFound, "%s", msg)
		return "", &r
	}
	n, fail := resolveNode(l, newFolderIndex(l.Graph()), name)
	if fail != nil {
		return "", fail
	}
	if n.folder {
		return canvas.FolderID(n.path), nil
	}
	if canvas.InContext(n.path) {
		r := tool.Fail(tool.CodeInvalidArguments, "%s is not on the canvas: it is part of every call already (the manual, the memory notebook); read_entities shows it as a note", n.path.Name())
		return "", &r
	}
	return canvas.NoteID(n.path), nil
}

// canvasFailure maps a canvas error to the result to answer; ok is false for an
// infrastructure failure.
func canvasFailure(id string, err error) (tool.Result, bool) {
	switch {
	case errors.Is(err, canvas.ErrNoNode):
		return tool.Fail(tool.CodeNotFound, "%s is not a node of the canvas: pages are named as view_canvas shows them (\"folder/[2]\")", id), true
	case errors.Is(err, canvas.ErrOverBudget):
		return tool.Fail(tool.CodeInvalidArguments, "%v; expand it to summary, expand one section (\"Note#Heading\"), or read it with read_entities", err), true
	case errors.Is(err, canvas.ErrViewName):
		return tool.Fail(tool.CodeInvalidArguments, "%v", err), true
	case errors.Is(err, context.Canceled), errors.Is(err, context.DeadlineExceeded):
		return tool.Fail(tool.CodeCanceled, "stopped; the view did not change"), true
	}
	return tool.Result{}, false
}

func (e *env) expandNode(ctx context.Context, call *tool.Call, in expandNodeIn) (tool.Result, *canvasChangeOut, error) {
	l, fail, err := e.loaded(ctx, call)
	if fail != nil || err != nil {
		return deref(fail), nil, err
	}
	id, fail := nodeID(l, in.EntityName)
	if fail != nil {
		return *fail, nil, nil
	}
	level := canvas.Level(in.Level)
	if level == "" {
		// Seed 000 expands to the detail: a note's text; a folder or page opens.
		level = canvas.Full
		if strings.HasSuffix(id, "/") || strings.HasSuffix(id, "]") {
			level = canvas.Summary
		}
	}
	ch, err := e.canvasOf(l.Library).Expand(ctx, in.ViewName, id, level, canvas.ExpandOptions{Children: in.IncludeChildren, Relations: in.IncludeRelations})
	if err != nil {
		if r, ok := canvasFailure(id, err); ok {
			return r, nil, nil
		}
		return tool.Result{}, nil, fmt.Errorf("expand_node %s: %w", id, err)
	}
	msg := fmt.Sprintf("%s is now at %s in view %q (%d of %d tokens)", id, level, ch.View, ch.Tokens, ch.Budget)
	res, out := changeResult(msg, id, ch)
	return res, out, nil
}

func (e *env) collapseNode(ctx context.Context, call *tool.Call, in collapseNodeIn) (tool.Result, *canvasChangeOut, error) {
	l, fail, err := e.loaded(ctx, call)
	if fail != nil || err != nil {
		return deref(fail), nil, err
	}
	id, fail := nodeID(l, in.EntityName)
	if fail != nil {
		return *fail, nil, nil
	}
	ch, err := e.canvasOf(l.Library).Collapse(ctx, in.ViewName, id, in.Recursive)
	if err != nil {
		if r, ok := canvasFailure(id, err); ok {
			return r, nil, nil
		}
		return tool.Result{}, nil, fmt.Errorf("collapse_node %s: %w", id, err)
	}
	msg := fmt.Sprintf("collapsed %d node(s) in view %q (%d of %d tokens)", len(ch.Changed), ch.View, ch.Tokens, ch.Budget)
	if len(ch.Changed) == 0 {
		msg = fmt.Sprintf("%s was not expanded in view %q; nothing changed", id, ch.View)
	}
	res, out := changeResult(msg, id, ch)
	return res, out, nil
}

// canvasChangeOut is the output of expand_node and collapse_node: the view's tokens
// and budget, the nodes changed, the text of the node, and the nodes the budget
// collapsed.
type canvasChangeOut struct {
	Budget    int      `json:"budget"`
	Changed   []string `json:"changed"`
	Collapsed []string `json:"collapsed,omitempty"`
	Shown     string   `json:"shown,omitempty"`
	Tokens    int      `json:"tokens"`
	View      string   `json:"view"`
}

// showAt puts the note at p at level in the default view of l's canvas (seed 000's
// initial_level and level); "" leaves the canvas as it is. r is the result of the
// write, which happened whatever comes of this: a failure is a warning on it.
func (e *env) showAt(ctx context.Context, l *library.Library, p vpath.Path, level string, r tool.Result) tool.Result {
	if level == "" || r.IsError() || canvas.InContext(p) {
		return r
	}
	ch, err := e.canvasOf(l).Expand(ctx, "", canvas.NoteID(p), canvas.Level(level), canvas.ExpandOptions{})
	if err != nil {
		return r.WithWarning("the canvas did not show %s at %s: %v", p.Name(), level, err)
	}
	r.Message += fmt.Sprintf("; on your canvas at %s (%d of %d tokens)", level, ch.Tokens, ch.Budget)
	if len(ch.Collapsed) > 0 {
		r = r.WithWarning("to stay within the budget of %d tokens, these nodes expanded least recently were collapsed: %s", ch.Budget, strings.Join(ch.Collapsed, ", "))
	}
	return r
}

// changeResult reports a change of a view: the text of the node and what the budget
// collapsed, which the model must be told.
func changeResult(msg, id string, ch canvas.Change) (tool.Result, *canvasChangeOut) {
	shown := ""
	for _, n := range ch.Nodes {
		if n.ID == id || strings.HasPrefix(n.ID, id+"#") {
			shown += n.Text
		}
	}
	if base, _, ok := strings.Cut(id, "#"); ok && shown == "" {
		// The section is inside its note, shown at full.
		for _, n := range ch.Nodes {
			if n.ID == base {
				shown = n.Text
			}
		}
	}
	out := &canvasChangeOut{View: ch.View, Tokens: ch.Tokens, Budget: ch.Budget, Changed: ch.Changed, Shown: shown}
	r := tool.OK(msg)
	if len(ch.Collapsed) > 0 {
		out.Collapsed = ch.Collapsed
		r = r.WithWarning("to stay within the budget of %d tokens, these nodes expanded least recently were collapsed: %s", ch.Budget, strings.Join(ch.Collapsed, ", "))
	}
	return r, out
}

// ViewCanvasOut is the output of view_canvas: the rendered view, its name, and its
// tokens and budget.
type ViewCanvasOut struct {
	Budget int    `json:"budget"`
	Canvas string `json:"canvas"`
	Tokens int    `json:"tokens"`
	View   string `json:"view"`
}

func (e *env) viewCanvas(ctx context.Context, call *tool.Call, in ViewCanvasIn) (tool.Result, *ViewCanvasOut, error) {
	l, fail := e.library(ctx, call)
	if fail != nil {
		return *fail, nil, nil
	}
	r, err := e.canvasOf(l).Render(ctx, in.ViewName)
	if err != nil {
		if res, ok := canvasFailure(in.ViewName, err); ok {
			return res, nil, nil
		}
		return tool.Result{}, nil, fmt.Errorf("view_canvas: %w", err)
	}
	return tool.OK(fmt.Sprintf("view %q of library %q: %d nodes shown, %d of %d tokens", r.View, r.Library, len(r.Nodes), r.Tokens, r.Budget)), &ViewCanvasOut{View: r.View, Tokens: r.Tokens, Budget: r.Budget, Canvas: r.Text}, nil
}

// viewScope returns whether a note is shown in a view of the call's library: the
// scope current_view of search_nodes. view is the view_name argument ("" for the
// default view).
func (e *env) viewScope(ctx context.Context, call *tool.Call, view string) (func(vpath.Path) bool, *tool.Result) {
	l, fail := e.library(ctx, call)
	if fail != nil {
		return nil, fail
	}
	shown, err := e.canvasOf(l).Shown(ctx, view)
	if err != nil {
		r := tool.Fail(tool.CodeInvalidArguments, "scope current_view: %v", err)
		return nil, &r
	}
	return func(p vpath.Path) bool { return shown[p] }, nil
}

// canvasRenamed moves what the views hold of a renamed note; a failure only costs
// the view its entry, so it is a warning, not a failed rename.
func (e *env) canvasRenamed(ctx context.Context, l *library.Library, oldP, newP vpath.Path) []string {
	if err := e.canvasOf(l).Renamed(context.WithoutCancel(ctx), oldP, newP); err != nil {
		return []string{fmt.Sprintf("the canvas views could not follow the rename: %v", err)}
	}
	return nil
}
