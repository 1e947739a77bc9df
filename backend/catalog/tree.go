package catalog

import (
	"context"
	"fmt"

	"github.com/memotree/memotree/backend/graph"
	"github.com/memotree/memotree/backend/tool"
	"github.com/memotree/memotree/backend/vpath"
)

func init() { families = append(families, treeTools) }

// The Refs of the tree and graph tools: each tool is declared through its Ref, which
// names it with its input and output types, so that the compiler checks its handler
// and rules.
var (
	listLibraries = tool.NewRef[listLibrariesIn, *librariesOut]("list_libraries")
	getChildren   = tool.NewRef[getChildrenIn, *childrenForms]("get_children")
	getParent     = tool.NewRef[treeIn, *parentForms]("get_parent")
	getAncestors  = tool.NewRef[treeIn, *ancestorForms]("get_ancestors")
	getNeighbors  = tool.NewRef[getNeighborsIn, *neighborsOut]("get_neighbors")
	getBacklinks  = tool.NewRef[getBacklinksIn, *backlinksOut]("get_backlinks")
)

// treeTools declares the tree and graph family: libraries, the folder tree (seed
// 003's parent, children and ancestors) and the link graph around a note.
func treeTools(e *env) []*tool.Tool {
	return []*tool.Tool{
		listLibraries.New(tool.ReadOnly, desc("list_libraries"), e.listLibraries).
			Describe(tool.LibraryParam, "ignored: every library is listed"),
		getChildren.New(tool.ReadOnly, desc("get_children"), e.getChildren, libraryFrom(e, getChildrenIn.pageIndexes)),
		getParent.New(tool.ReadOnly, desc("get_parent"), e.getParent, libraryFrom(e, treeIn.pageIndexes)),
		getAncestors.New(tool.ReadOnly, desc("get_ancestors"), e.getAncestors, libraryFrom(e, treeIn.pageIndexes)),
		getNeighbors.New(tool.ReadOnly, desc("get_neighbors"), e.getNeighbors),
		getBacklinks.New(tool.ReadOnly, desc("get_backlinks"), e.getBacklinks),
	}
}

type listLibrariesIn struct {
	tool.LibraryArg
}

// libraryOut describes one mounted library.
type libraryOut struct {
	Name       string `json:"name"`
	Path       string `json:"path"`
	Notes      int    `json:"notes"`
	Permission string `json:"permission,omitempty"`
	Default    bool   `json:"default,omitempty"`
}

// librariesOut is the output of list_libraries. The keys of the tools' outputs are in
// alphabetical order, the order of the maps they were before they were typed.
type librariesOut struct {
	Libraries []libraryOut `json:"libraries"`
}

func (e *env) listLibraries(ctx context.Context, call *tool.Call, in listLibrariesIn) (tool.Result, *librariesOut, error) {
	libs := e.libraries(ctx)
	out := make([]libraryOut, 0, len(libs))
	for i, l := range libs {
		g, err := l.Graph(ctx)
		if err != nil {
			return tool.Result{}, nil, fmt.Errorf("read library %s: %w", l.Name(), err)
		}
		out = append(out, libraryOut{
			Name: l.Name(), Path: l.Vault().Dir(), Notes: g.Stats().Notes,
			Permission: string(e.ws.Permission(l.Name())), Default: i == 0,
		})
	}
	return tool.OK(fmt.Sprintf("%d libraries; pass library_name to any tool to use one other than the default", len(out))), &librariesOut{Libraries: out}, nil
}

// treeIn is the input of get_parent and get_ancestors: an entity_name, or seed
// 003's page_index, whose answer is then in pages.
type treeIn struct {
	PageIndex  string `json:"page_index,omitempty" jsonschema:"seed 003's form: a page index (\"notes:people/\"); the answer is then in pages {index, name, description, type, has_detail}"`
	EntityName string `json:"entity_name,omitempty" jsonschema:"a note's name, or a folder path (\"people\", \"/\" for the root)"`
	tool.LibraryArg
}

// pageIndexes returns the page index that decides the library of a call (libraryFrom).
func (in treeIn) pageIndexes() []string { return []string{in.PageIndex} }

type getChildrenIn struct {
	PageIndex  string `json:"page_index,omitempty" jsonschema:"seed 003's form: a page index (\"notes:people/\"); the children are then pages {index, name, description, type, has_detail}"`
	EntityName string `json:"entity_name,omitempty" jsonschema:"a folder path (\"people\", \"/\" for the root) or a note's name"`
	tool.LibraryArg
	tool.Paging
}

// pageIndexes returns the page index that decides the library of a call (libraryFrom).
func (in getChildrenIn) pageIndexes() []string { return []string{in.PageIndex} }

// childrenOut is the output of get_children: for a folder, its children; for a note
// without a folder of its own, no children and kind note.
type childrenOut struct {
	Children   []childOut     `json:"children"`
	Entity     string         `json:"entity"`
	Folder     string         `json:"folder,omitempty"`
	Kind       string         `json:"kind,omitempty"`
	NotesBelow *int           `json:"notes_below,omitempty"`
	Page       *tool.PageInfo `json:"page,omitempty"`
}

// parentOut is the output of get_parent; Parent is nil for the root.
type parentOut struct {
	Entity string     `json:"entity"`
	Parent *folderOut `json:"parent"`
}

// ancestorsOut is the output of get_ancestors.
type ancestorsOut struct {
	Ancestors []folderOut `json:"ancestors"`
	Entity    string      `json:"entity"`
}

// oneOf answers invalid_arguments unless exactly one of page_index and entity_name is
// given.
func oneOf(name, pageIndex, entityName string) *tool.Result {
	if (pageIndex == "") == (entityName == "") {
		r := tool.Fail(tool.CodeInvalidArguments, "%s takes entity_name (a note or folder) or page_index (seed 003's page), one of them: %s(entity_name=\"people\") or %s(page_index=\"notes:people/\")", name, name, name)
		return &r
	}
	return nil
}

// treeLookup resolves name to a node of the call's library tree, with the graph and
// folder index the tree tools answer from, or the result to answer instead.
func (e *env) treeLookup(ctx context.Context, call *tool.Call, name string) (*graph.Graph, *folderIndex, treeNode, *tool.Result, error) {
	l, fail, err := e.loaded(ctx, call)
	if fail != nil || err != nil {
		return nil, nil, treeNode{}, fail, err
	}
	g := l.Graph()
	fi := newFolderIndex(g)
	n, fail := resolveNode(l, fi, name)
	return g, fi, n, fail, nil
}

// childrenForms are get_children's two answers: a folder's children, or, for a
// page_index, the pages inside a contents page.
type childrenForms = tool.Either[childrenOut, childPagesOut]

func (e *env) getChildren(ctx context.Context, call *tool.Call, in getChildrenIn) (tool.Result, *childrenForms, error) {
	if fail := oneOf("get_children", in.PageIndex, in.EntityName); fail != nil {
		return *fail, nil, nil
	}
	if in.PageIndex != "" {
		r, out, err := e.pageChildren(ctx, call, in.PageIndex, in.Paging)
		return r, right[childrenOut](out), err
	}
	g, fi, n, fail, err := e.treeLookup(ctx, call, in.EntityName)
	if fail != nil || err != nil {
		return deref(fail), nil, err
	}
	folder, skip := n.path, vpath.Path("")
	if !n.folder {
		f, ok := notesFolder(fi, n.path)
		if !ok {
			return tool.OK(fmt.Sprintf("%s is a note without a folder of its own, so it has no children; get_neighbors shows what it links to", n.name())),
				&childrenForms{Left: &childrenOut{Entity: n.name(), Kind: "note", Children: []childOut{}}}, nil
		}
		folder, skip = f, n.path
	}
	children := childrenOf(g, fi, folder, skip)
	page, info := tool.Paginate(children, in.Paging)
	below := fi.total[folder]
	return tool.OK(info.Hint("children")), &childrenForms{Left: &childrenOut{
		Entity: n.name(), Folder: treeNode{folder: true, path: folder}.name(),
		NotesBelow: &below, Children: page, Page: &info,
	}}, nil
}

// right returns the Either holding r, or nil when r is nil (a failure's output).
func right[L, R any](r *R) *tool.Either[L, R] {
	if r == nil {
		return nil
	}
	return &tool.Either[L, R]{Right: r}
}

// notesFolder returns the folder a note stands for: the folder named like it next to
// it, or the folder holding it when the note is that folder's folder note.
func notesFolder(fi *folderIndex, p vpath.Path) (vpath.Path, bool) {
	if f, ok := fi.folder(vpath.Path(p.Name())); ok {
		return f, true
	}
	if d := p.Dir(); d != "" && d.Base()+".md" == p.Base() {
		return d, true
	}
	return "", false
}

// parentForms are get_parent's two answers: a note's or folder's folder, or, for a
// page_index, the contents page holding it.
type parentForms = tool.Either[parentOut, parentPageOut]

func (e *env) getParent(ctx context.Context, call *tool.Call, in treeIn) (tool.Result, *parentForms, error) {
	if fail := oneOf("get_parent", in.PageIndex, in.EntityName); fail != nil {
		return *fail, nil, nil
	}
	if in.PageIndex != "" {
		r, out, err := e.pageParent(ctx, call, in.PageIndex)
		return r, right[parentOut](out), err
	}
	g, fi, n, fail, err := e.treeLookup(ctx, call, in.EntityName)
	if fail != nil || err != nil {
		return deref(fail), nil, err
	}
	if n.folder && n.path == "" {
		return tool.OK("the library root has no parent"), &parentForms{Left: &parentOut{Entity: rootName}}, nil
	}
	parent := describeFolder(g, fi, n.path.Dir())
	return tool.OK(fmt.Sprintf("%s is in %s", n.name(), parent.Name)), &parentForms{Left: &parentOut{Entity: n.name(), Parent: &parent}}, nil
}

// ancestorForms are get_ancestors' two answers: the folders above a note or folder,
// or, for a page_index, the contents pages above a page.
type ancestorForms = tool.Either[ancestorsOut, ancestorPagesOut]

func (e *env) getAncestors(ctx context.Context, call *tool.Call, in treeIn) (tool.Result, *ancestorForms, error) {
	if fail := oneOf("get_ancestors", in.PageIndex, in.EntityName); fail != nil {
		return *fail, nil, nil
	}
	if in.PageIndex != "" {
		r, out, err := e.pageAncestors(ctx, call, in.PageIndex)
		return r, right[ancestorsOut](out), err
	}
	g, fi, n, fail, err := e.treeLookup(ctx, call, in.EntityName)
	if fail != nil || err != nil {
		return deref(fail), nil, err
	}
	ancestors := []folderOut{}
	if !(n.folder && n.path == "") {
		for d := n.path.Dir(); ; d = d.Dir() {
			ancestors = append(ancestors, describeFolder(g, fi, d))
			if d == "" {
				break
			}
		}
	}
	return tool.OK(fmt.Sprintf("%d ancestors of %s, from its parent to the root", len(ancestors), n.name())),
		&ancestorForms{Left: &ancestorsOut{Entity: n.name(), Ancestors: ancestors}}, nil
}
