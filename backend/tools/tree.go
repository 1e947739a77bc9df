package tools

import (
	"context"
	"fmt"

	"github.com/memotree/memotree/backend/graph"
	"github.com/memotree/memotree/backend/tool"
	"github.com/memotree/memotree/backend/vpath"
)

func init() { families = append(families, treeTools) }

// treeTools declares the tree and graph family: libraries, the folder tree (seed
// 003's parent, children and ancestors) and the link graph around a note.
func treeTools(e *env) []*tool.Tool {
	from := e.libraryOfIndex("page_index")
	return []*tool.Tool{
		tool.New("list_libraries", tool.ReadOnly, desc("list_libraries"), e.listLibraries),
		tool.New("get_children", tool.ReadOnly, desc("get_children"), e.getChildren).WithLibraryFrom(from),
		tool.New("get_parent", tool.ReadOnly, desc("get_parent"), e.getParent).WithLibraryFrom(from),
		tool.New("get_ancestors", tool.ReadOnly, desc("get_ancestors"), e.getAncestors).WithLibraryFrom(from),
		tool.New("get_neighbors", tool.ReadOnly, desc("get_neighbors"), e.getNeighbors),
		tool.New("get_backlinks", tool.ReadOnly, desc("get_backlinks"), e.getBacklinks),
	}
}

type listLibrariesIn struct {
	LibraryName string `json:"library_name,omitempty" jsonschema:"ignored: every library is listed"`
}

// libraryOut describes one mounted library.
type libraryOut struct {
	Name       string `json:"name"`
	Path       string `json:"path"`
	Notes      int    `json:"notes"`
	Permission string `json:"permission,omitempty"`
	Default    bool   `json:"default,omitempty"`
}

func (e *env) listLibraries(ctx context.Context, call *tool.Call, in listLibrariesIn) (tool.Result, error) {
	libs := e.ws.Libraries()
	out := make([]libraryOut, 0, len(libs))
	for i, l := range libs {
		out = append(out, libraryOut{
			Name: l.Name(), Path: l.Vault().Dir(), Notes: l.Graph().Stats().Notes,
			Permission: string(e.ws.Permission(l.Name())), Default: i == 0,
		})
	}
	return tool.OK(fmt.Sprintf("%d libraries; pass library_name to any tool to use one other than the default", len(out)),
		map[string]any{"libraries": out}), nil
}

// treeIn is the input of get_parent and get_ancestors: an entity_name, or seed
// 003's page_index, whose answer is then in pages.
type treeIn struct {
	PageIndex   string `json:"page_index,omitempty" jsonschema:"seed 003's form: a page index (\"notes:people/\"); the answer is then in pages {index, name, description, type, has_detail}"`
	EntityName  string `json:"entity_name,omitempty" jsonschema:"a note's name, or a folder path (\"people\", \"/\" for the root)"`
	LibraryName string `json:"library_name,omitempty" jsonschema:"the library; the default one when absent"`
}

type getChildrenIn struct {
	PageIndex   string `json:"page_index,omitempty" jsonschema:"seed 003's form: a page index (\"notes:people/\"); the children are then pages {index, name, description, type, has_detail}"`
	EntityName  string `json:"entity_name,omitempty" jsonschema:"a folder path (\"people\", \"/\" for the root) or a note's name"`
	LibraryName string `json:"library_name,omitempty" jsonschema:"the library; the default one when absent"`
	tool.Paging
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
func (e *env) treeLookup(call *tool.Call, name string) (*graph.Graph, *folderIndex, treeNode, *tool.Result) {
	l, fail := e.library(call)
	if fail != nil {
		return nil, nil, treeNode{}, fail
	}
	g := l.Graph()
	fi := newFolderIndex(g)
	n, fail := resolveNode(l, fi, name)
	return g, fi, n, fail
}

func (e *env) getChildren(ctx context.Context, call *tool.Call, in getChildrenIn) (tool.Result, error) {
	if fail := oneOf("get_children", in.PageIndex, in.EntityName); fail != nil {
		return *fail, nil
	}
	if in.PageIndex != "" {
		return e.pageChildren(call, in.PageIndex, in.Paging), nil
	}
	g, fi, n, fail := e.treeLookup(call, in.EntityName)
	if fail != nil {
		return *fail, nil
	}
	folder, skip := n.path, vpath.Path("")
	if !n.folder {
		f, ok := notesFolder(fi, n.path)
		if !ok {
			return tool.OK(fmt.Sprintf("%s is a note without a folder of its own, so it has no children; get_neighbors shows what it links to", n.name()),
				map[string]any{"entity": n.name(), "kind": "note", "children": []childOut{}}), nil
		}
		folder, skip = f, n.path
	}
	children := childrenOf(g, fi, folder, skip)
	page, info := tool.Paginate(children, in.Paging)
	return tool.OK(info.Hint("children"), map[string]any{
		"entity": n.name(), "folder": treeNode{folder: true, path: folder}.name(),
		"notes_below": fi.total[folder], "children": page, "page": info,
	}), nil
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

func (e *env) getParent(ctx context.Context, call *tool.Call, in treeIn) (tool.Result, error) {
	if fail := oneOf("get_parent", in.PageIndex, in.EntityName); fail != nil {
		return *fail, nil
	}
	if in.PageIndex != "" {
		return e.pageParent(call, in.PageIndex), nil
	}
	g, fi, n, fail := e.treeLookup(call, in.EntityName)
	if fail != nil {
		return *fail, nil
	}
	if n.folder && n.path == "" {
		return tool.OK("the library root has no parent", map[string]any{"entity": rootName, "parent": nil}), nil
	}
	parent := describeFolder(g, fi, n.path.Dir())
	return tool.OK(fmt.Sprintf("%s is in %s", n.name(), parent.Name), map[string]any{"entity": n.name(), "parent": parent}), nil
}

func (e *env) getAncestors(ctx context.Context, call *tool.Call, in treeIn) (tool.Result, error) {
	if fail := oneOf("get_ancestors", in.PageIndex, in.EntityName); fail != nil {
		return *fail, nil
	}
	if in.PageIndex != "" {
		return e.pageAncestors(call, in.PageIndex), nil
	}
	g, fi, n, fail := e.treeLookup(call, in.EntityName)
	if fail != nil {
		return *fail, nil
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
	return tool.OK(fmt.Sprintf("%d ancestors of %s, from its parent to the root", len(ancestors), n.name()),
		map[string]any{"entity": n.name(), "ancestors": ancestors}), nil
}
