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
	return []*tool.Tool{
		tool.Untyped("list_libraries", tool.ReadOnly, desc("list_libraries"), e.listLibraries),
		tool.Untyped("get_children", tool.ReadOnly, desc("get_children"), e.getChildren),
		tool.Untyped("get_parent", tool.ReadOnly, desc("get_parent"), e.getParent),
		tool.Untyped("get_ancestors", tool.ReadOnly, desc("get_ancestors"), e.getAncestors),
		tool.Untyped("get_neighbors", tool.ReadOnly, desc("get_neighbors"), e.getNeighbors),
		tool.Untyped("get_backlinks", tool.ReadOnly, desc("get_backlinks"), e.getBacklinks),
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
			Permission: e.ws.PermissionOf(l.Name()), Default: i == 0,
		})
	}
	return tool.OK(fmt.Sprintf("%d libraries; pass library_name to any tool to use one other than the default", len(out))).WithData(map[string]any{"libraries": out}), nil
}

type entityNameIn struct {
	EntityName  string `json:"entity_name" jsonschema:"a note's name, or a folder path (\"people\", \"/\" for the root)"`
	LibraryName string `json:"library_name,omitempty" jsonschema:"the library; the default one when absent"`
}

type getChildrenIn struct {
	EntityName  string `json:"entity_name" jsonschema:"a folder path (\"people\", \"/\" for the root) or a note's name"`
	LibraryName string `json:"library_name,omitempty" jsonschema:"the library; the default one when absent"`
	tool.Paging
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
	g, fi, n, fail := e.treeLookup(call, in.EntityName)
	if fail != nil {
		return *fail, nil
	}
	folder, skip := n.path, vpath.Path("")
	if !n.folder {
		f, ok := notesFolder(fi, n.path)
		if !ok {
			return tool.OK(fmt.Sprintf("%s is a note without a folder of its own, so it has no children; get_neighbors shows what it links to", n.name())).WithData(map[string]any{"entity": n.name(), "kind": "note", "children": []childOut{}}), nil
		}
		folder, skip = f, n.path
	}
	children := childrenOf(g, fi, folder, skip)
	page, info := tool.Paginate(children, in.Paging)
	return tool.OK(info.Hint("children")).WithData(map[string]any{
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

func (e *env) getParent(ctx context.Context, call *tool.Call, in entityNameIn) (tool.Result, error) {
	g, fi, n, fail := e.treeLookup(call, in.EntityName)
	if fail != nil {
		return *fail, nil
	}
	if n.folder && n.path == "" {
		return tool.OK("the library root has no parent").WithData(map[string]any{"entity": rootName, "parent": nil}), nil
	}
	parent := describeFolder(g, fi, n.path.Dir())
	return tool.OK(fmt.Sprintf("%s is in %s", n.name(), parent.Name)).WithData(map[string]any{"entity": n.name(), "parent": parent}), nil
}

func (e *env) getAncestors(ctx context.Context, call *tool.Call, in entityNameIn) (tool.Result, error) {
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
	return tool.OK(fmt.Sprintf("%d ancestors of %s, from its parent to the root", len(ancestors), n.name())).WithData(map[string]any{"entity": n.name(), "ancestors": ancestors}), nil
}
