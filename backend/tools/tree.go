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
		tool.New("list_libraries", tool.ReadOnly, desc("list_libraries"), e.listLibraries).
			Describe(tool.LibraryParam, "ignored: every library is listed"),
		tool.New("get_children", tool.ReadOnly, desc("get_children"), e.getChildren),
		tool.New("get_parent", tool.ReadOnly, desc("get_parent"), e.getParent),
		tool.New("get_ancestors", tool.ReadOnly, desc("get_ancestors"), e.getAncestors),
		tool.New("get_neighbors", tool.ReadOnly, desc("get_neighbors"), e.getNeighbors),
		tool.New("get_backlinks", tool.ReadOnly, desc("get_backlinks"), e.getBacklinks),
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
	libs := e.ws.Libraries()
	out := make([]libraryOut, 0, len(libs))
	for i, l := range libs {
		g, err := l.Graph(ctx)
		if err != nil {
			return tool.Result{}, nil, fmt.Errorf("read library %s: %w", l.Name(), err)
		}
		out = append(out, libraryOut{
			Name: l.Name(), Path: l.Vault().Dir(), Notes: g.Stats().Notes,
			Permission: e.ws.PermissionOf(l.Name()), Default: i == 0,
		})
	}
	return tool.OK(fmt.Sprintf("%d libraries; pass library_name to any tool to use one other than the default", len(out))), &librariesOut{Libraries: out}, nil
}

type entityNameIn struct {
	EntityName string `json:"entity_name" jsonschema:"a note's name, or a folder path (\"people\", \"/\" for the root)"`
	tool.LibraryArg
}

type getChildrenIn struct {
	EntityName string `json:"entity_name" jsonschema:"a folder path (\"people\", \"/\" for the root) or a note's name"`
	tool.LibraryArg
	tool.Paging
}

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

func (e *env) getChildren(ctx context.Context, call *tool.Call, in getChildrenIn) (tool.Result, *childrenOut, error) {
	g, fi, n, fail, err := e.treeLookup(ctx, call, in.EntityName)
	if fail != nil || err != nil {
		return deref(fail), nil, err
	}
	folder, skip := n.path, vpath.Path("")
	if !n.folder {
		f, ok := notesFolder(fi, n.path)
		if !ok {
			return tool.OK(fmt.Sprintf("%s is a note without a folder of its own, so it has no children; get_neighbors shows what it links to", n.name())), &childrenOut{Entity: n.name(), Kind: "note", Children: []childOut{}}, nil
		}
		folder, skip = f, n.path
	}
	children := childrenOf(g, fi, folder, skip)
	page, info := tool.Paginate(children, in.Paging)
	below := fi.total[folder]
	return tool.OK(info.Hint("children")), &childrenOut{
		Entity: n.name(), Folder: treeNode{folder: true, path: folder}.name(),
		NotesBelow: &below, Children: page, Page: &info,
	}, nil
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

func (e *env) getParent(ctx context.Context, call *tool.Call, in entityNameIn) (tool.Result, *parentOut, error) {
	g, fi, n, fail, err := e.treeLookup(ctx, call, in.EntityName)
	if fail != nil || err != nil {
		return deref(fail), nil, err
	}
	if n.folder && n.path == "" {
		return tool.OK("the library root has no parent"), &parentOut{Entity: rootName}, nil
	}
	parent := describeFolder(g, fi, n.path.Dir())
	return tool.OK(fmt.Sprintf("%s is in %s", n.name(), parent.Name)), &parentOut{Entity: n.name(), Parent: &parent}, nil
}

func (e *env) getAncestors(ctx context.Context, call *tool.Call, in entityNameIn) (tool.Result, *ancestorsOut, error) {
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
	return tool.OK(fmt.Sprintf("%d ancestors of %s, from its parent to the root", len(ancestors), n.name())), &ancestorsOut{Entity: n.name(), Ancestors: ancestors}, nil
}
