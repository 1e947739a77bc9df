package catalog

import (
	"sort"
	"strings"

	"github.com/memotree/memotree/backend/graph"
	"github.com/memotree/memotree/backend/tool"
	"github.com/memotree/memotree/backend/vpath"
)

// rootName is how results name the library root folder.
const rootName = "/"

// treeNode is a note or a folder of the page tree (seed 003).
type treeNode struct {
	folder bool
	path   vpath.Path // the folder's path ("" for the root) or the note's path
}

// name is the node's name in results: the entity name, or the folder path.
func (n treeNode) name() string {
	if !n.folder {
		return n.path.Name()
	}
	if n.path == "" {
		return rootName
	}
	return string(n.path)
}

// folderIndex lists the notes of a library by folder.
type folderIndex struct {
	notes   map[vpath.Path][]vpath.Path // folder → the notes directly in it
	folders map[vpath.Path][]vpath.Path // folder → its direct subfolders
	total   map[vpath.Path]int          // folder → the notes in it and below
}

// newFolderIndex builds the folder index of g's notes.
func newFolderIndex(g *graph.Graph) *folderIndex {
	fi := &folderIndex{notes: map[vpath.Path][]vpath.Path{}, folders: map[vpath.Path][]vpath.Path{}, total: map[vpath.Path]int{"": 0}}
	for _, p := range g.Notes() {
		d := p.Dir()
		fi.notes[d] = append(fi.notes[d], p)
		for {
			if _, seen := fi.total[d]; !seen && d != "" {
				parent := d.Dir()
				fi.folders[parent] = append(fi.folders[parent], d)
			}
			fi.total[d]++
			if d == "" {
				break
			}
			d = d.Dir()
		}
	}
	for _, subs := range fi.folders {
		sort.Slice(subs, func(i, j int) bool { return subs[i] < subs[j] })
	}
	return fi
}

// folder finds a folder by path, ignoring case when there is no exact match.
func (fi *folderIndex) folder(p vpath.Path) (vpath.Path, bool) {
	if _, ok := fi.total[p]; ok {
		return p, true
	}
	for f := range fi.total {
		if strings.EqualFold(string(f), string(p)) {
			return f, true
		}
	}
	return "", false
}

// resolveNode finds the note or folder an entity_name means: "/" is the root; a name
// ending in "/" or naming a folder and no note is a folder; anything else is looked up
// as a note.
func resolveNode(l lib, fi *folderIndex, name string) (treeNode, *tool.Result) {
	name = strings.TrimSpace(clipLong(name))
	if name == rootName || name == "." {
		return treeNode{folder: true}, nil
	}
	trimmed := strings.TrimSuffix(name, "/")
	if p, err := vpath.Parse(trimmed); err == nil && p != "" && !p.Ignored() {
		if f, ok := fi.folder(p); ok {
			if strings.HasSuffix(name, "/") {
				return treeNode{folder: true, path: f}, nil
			}
			if _, err := l.Graph().Lookup(name); err != nil {
				return treeNode{folder: true, path: f}, nil
			}
		}
	}
	p, fail := lookup(l, name)
	if fail != nil {
		return treeNode{}, fail
	}
	return treeNode{path: p}, nil
}

// childOut is one child in get_children.
type childOut struct {
	Name       string `json:"name"`
	Kind       string `json:"kind"`
	Notes      int    `json:"notes,omitempty"`
	EntityType string `json:"entity_type,omitempty"`
	Summary    string `json:"summary,omitempty"`
}

// folderOut describes a folder in get_parent and get_ancestors.
type folderOut struct {
	Name       string `json:"name"`
	Kind       string `json:"kind"`
	Notes      int    `json:"notes"`
	FolderNote string `json:"folder_note,omitempty"`
}

// describeFolder describes the folder at f.
func describeFolder(g *graph.Graph, fi *folderIndex, f vpath.Path) folderOut {
	out := folderOut{Name: treeNode{folder: true, path: f}.name(), Kind: "folder", Notes: fi.total[f]}
	if fn, ok := folderNote(g, f); ok {
		out.FolderNote = fn.Name()
	}
	return out
}

// folderNote returns the note that stands for folder f: "f.md" next to it, or
// "f/<name of f>.md" inside it (the folder-note conventions of Obsidian plugins).
func folderNote(g *graph.Graph, f vpath.Path) (vpath.Path, bool) {
	if f == "" {
		return "", false
	}
	for _, p := range []vpath.Path{vpath.Path(string(f) + ".md"), f.Join(f.Base() + ".md")} {
		if _, ok := g.Note(p); ok {
			return p, true
		}
	}
	return "", false
}

// childrenOf lists the subfolders then the notes of folder f, except skip.
func childrenOf(g *graph.Graph, fi *folderIndex, f, skip vpath.Path) []childOut {
	var out []childOut
	for _, sub := range fi.folders[f] {
		out = append(out, childOut{Name: string(sub), Kind: "folder", Notes: fi.total[sub]})
	}
	for _, p := range fi.notes[f] {
		if p == skip {
			continue
		}
		c := childOut{Name: p.Name(), Kind: "note"}
		if n, ok := g.Note(p); ok {
			c.EntityType = n.EntityType
			c.Summary, _ = clipText(n.Summary, 160)
		}
		out = append(out, c)
	}
	return out
}
