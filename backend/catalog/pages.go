package catalog

import (
	"context"
	"fmt"
	"strings"

	"github.com/memotree/memotree/backend/canvas"
	"github.com/memotree/memotree/backend/graph"
	"github.com/memotree/memotree/backend/library"
	"github.com/memotree/memotree/backend/tool"
	"github.com/memotree/memotree/backend/vpath"
)

// Seed 003's page model, as it maps onto a vault (docs/get_page.md says it to the
// model):
//
//   - a segment is a mounted library: its id is the library's name, its type says
//     whether it is the default library, its permission is the agent's, and its root
//     page is the library's root folder;
//   - a page is a node of a library's folder tree. A contents page is a folder (its
//     description is its folder note's summary) or a note standing for a folder (a
//     folder note); a detail page is any other note, whose description is its
//     `summary` and whose detail is its body;
//   - a page_index is "library:path": the note's name, or the folder's path with a
//     trailing "/" ("notes:/" for the root). It stays valid until the page is moved or
//     renamed. A plain name, in the call's library, is accepted too.
//
// The page tools are thin: every write goes through the entity tools' handlers
// (create, update, rename, move, delete), every view change through the canvas ones.

func init() { families = append(families, pageTools) }

// The Refs of the page tools: each tool is declared through its Ref, which names it
// with its input and output types, so that the compiler checks its handler and rules.
var (
	listSegments       = tool.NewRef[listSegmentsIn, *segmentsOut]("list_segments")
	getSegment         = tool.NewRef[getSegmentIn, *segmentOut]("get_segment")
	getPage            = tool.NewRef[pageIndexIn, *pageOut]("get_page")
	findPage           = tool.NewRef[findPageIn, *pagesOut]("find_page")
	updatePage         = tool.NewRef[updatePageIn, *pageOut]("update_page")
	expandDetails      = tool.NewRef[detailsIn, *canvasPageOut]("expand_details")
	hideDetails        = tool.NewRef[detailsIn, *canvasPageOut]("hide_details")
	movePage           = tool.NewRef[movePageIn, *movedPageOut]("move_page")
	removePage         = tool.NewRef[pageIndexIn, *removedPageOut]("remove_page")
	createDetailPage   = tool.NewRef[createDetailPageIn, *createdPageOut]("create_detail_page")
	createContentsPage = tool.NewRef[createContentsPageIn, *createdPageOut]("create_contents_page")
)

// The two kinds of page.
const (
	pageContents = "contents"
	pageDetail   = "detail"
)

// pageTools declares seed 003's segment and page tools, under its names and with its
// parameters; get_children, get_parent and get_ancestors (tree.go) take page_index too.
func pageTools(e *env) []*tool.Tool {
	return []*tool.Tool{
		listSegments.New(tool.ReadOnly, desc("list_segments"), e.listSegments).
			Describe(tool.LibraryParam, "ignored: every segment is listed"),
		getSegment.New(tool.ReadOnly, desc("get_segment"), e.getSegment),
		getPage.New(tool.ReadOnly, desc("get_page"), e.getPage, libraryFrom(e, pageIndexIn.pageIndexes)).
			Describe(tool.LibraryParam, libraryOfPage),
		findPage.New(tool.ReadOnly, desc("find_page"), e.findPage).Describe(tool.LibraryParam, librarySearched),
		updatePage.New(tool.Write, desc("update_page"), e.updatePage, libraryFrom(e, updatePageIn.pageIndexes)).
			Describe(tool.LibraryParam, libraryOfPage),
		expandDetails.New(tool.ReadOnly, desc("expand_details"), e.expandDetails, libraryFrom(e, detailsIn.pageIndexes)).
			Describe(tool.LibraryParam, libraryOfPage),
		hideDetails.New(tool.ReadOnly, desc("hide_details"), e.hideDetails, libraryFrom(e, detailsIn.pageIndexes)).
			Describe(tool.LibraryParam, libraryOfPage),
		movePage.New(tool.Write, desc("move_page"), e.movePage, libraryFrom(e, movePageIn.pageIndexes)).
			Describe(tool.LibraryParam, "the library; by default the one source names, else the default one"),
		removePage.New(tool.Destructive, desc("remove_page"), e.removePage, libraryFrom(e, pageIndexIn.pageIndexes)).
			Describe(tool.LibraryParam, libraryOfPage),
		createDetailPage.New(tool.Write, desc("create_detail_page"), e.createDetailPage, libraryFrom(e, createDetailPageIn.pageIndexes)).
			Describe(tool.LibraryParam, libraryOfParent),
		createContentsPage.New(tool.Write, desc("create_contents_page"), e.createContentsPage, libraryFrom(e, createContentsPageIn.pageIndexes)).
			Describe(tool.LibraryParam, libraryOfParent),
	}
}

// pageOut is one page as seed 003 returns it: {index, name, description, type,
// has_detail}, with the entity type of a note and the notes below a folder.
type pageOut struct {
	Index       string `json:"index"`
	Name        string `json:"name"`
	Description string `json:"description"`
	Type        string `json:"type"`
	HasDetail   bool   `json:"has_detail"`
	EntityType  string `json:"entity_type,omitempty"`
	Notes       int    `json:"notes,omitempty"`
}

// segmentOut is one segment as seed 003 returns it: {id, type, permission,
// root_index}, with the number of notes.
type segmentOut struct {
	ID         string `json:"id"`
	Type       string `json:"type"`
	Permission string `json:"permission"`
	RootIndex  string `json:"root_index"`
	Notes      int    `json:"notes"`
}

// segmentsOut is list_segments' data.
type segmentsOut struct {
	Segments []segmentOut `json:"segments"`
}

// pageIndex formats the index of node n of library l.
func pageIndex(l *library.Library, n treeNode) string {
	switch {
	case n.folder && n.path == "":
		return l.Name() + ":" + rootName
	case n.folder:
		return l.Name() + ":" + string(n.path) + "/"
	}
	return l.Name() + ":" + n.path.Name()
}

// splitIndex cuts a page index into the mounted library it names and the path; ok is
// false when s does not start with the name of a mounted library and a colon.
func (e *env) splitIndex(s string) (lib, rest string, ok bool) {
	lib, rest, found := strings.Cut(strings.TrimSpace(s), ":")
	if !found || !vpath.ValidName(lib) {
		return "", "", false
	}
	if _, err := e.ws.Library(lib); err != nil {
		return "", "", false
	}
	return lib, rest, true
}

// libraryFrom is the LibraryFrom rule of a tool that takes page indexes: a call
// without library_name acts on the library named by the first of indexes(in) that is
// a page index of a mounted library.
func libraryFrom[In any](e *env, indexes func(in In) []string) tool.Option[In] {
	return tool.LibraryFrom(func(in In) string {
		for _, s := range indexes(in) {
			if lib, _, ok := e.splitIndex(s); ok {
				return lib
			}
		}
		return ""
	})
}

// pageRef is a page found by its index: its library, the library's graph and folder
// index, and the node.
type pageRef struct {
	lib  *library.Library
	g    *graph.Graph
	fi   *folderIndex
	node treeNode
}

// resolvePage finds the page index names in the call's library (its graph loaded);
// param names the argument, for the messages. An index of another library than the
// call's is refused. The error is the scan's.
func (e *env) resolvePage(ctx context.Context, call *tool.Call, param, index string) (pageRef, *tool.Result, error) {
	l, fail, err := e.loaded(ctx, call)
	if fail != nil || err != nil {
		return pageRef{}, fail, err
	}
	index = strings.TrimSpace(clipLong(index))
	if index == "" {
		r := tool.Fail(tool.CodeInvalidArguments, "%s is empty: give a page's index, such as %q (list_segments, get_children and find_page give them)", param, l.Name()+":"+rootName)
		return pageRef{}, &r, nil
	}
	rest := index
	if lib, path, ok := e.splitIndex(index); ok {
		if lib != l.Name() {
			r := tool.Fail(tool.CodeInvalidArguments, "%s %q is a page of library %q, but this call acts on library %q: a page tool works within one library; give pages of %q, or leave library_name out", param, index, lib, l.Name(), l.Name())
			return pageRef{}, &r, nil
		}
		rest = path
	}
	g := l.Graph()
	fi := newFolderIndex(g)
	ref := pageRef{lib: l.Library, g: g, fi: fi}
	if strings.TrimSpace(rest) == "" || rest == rootName {
		ref.node = treeNode{folder: true}
		return ref, nil, nil
	}
	n, fail := resolveNode(l, fi, rest)
	if fail != nil {
		f := *fail
		f.Message = fmt.Sprintf("%s %q names no page: %s", param, index, f.Message)
		if lib, _, found := strings.Cut(index, ":"); found && vpath.ValidName(lib) && lib != l.Name() {
			f.Message += fmt.Sprintf("; %q is not a mounted library either (list_segments lists them)", lib)
		}
		return pageRef{}, &f, nil
	}
	ref.node = n
	return ref, nil, nil
}

// page describes the page ref points at.
func (ref pageRef) page() pageOut {
	return describePage(ref.lib, ref.g, ref.fi, ref.node)
}

// describePage describes node n of library l as a page.
func describePage(l *library.Library, g *graph.Graph, fi *folderIndex, n treeNode) pageOut {
	out := pageOut{Index: pageIndex(l, n)}
	if n.folder {
		out.Type, out.Notes = pageContents, fi.total[n.path]
		out.Name = n.path.Base()
		if n.path == "" {
			out.Name = l.Name()
		}
		if fn, ok := folderNote(g, n.path); ok {
			if nt, ok := g.Note(fn); ok {
				out.Description = nt.Summary
			}
		}
		return out
	}
	out.Name, out.Type = entBase(n.path), pageDetail
	if _, ok := notesFolder(fi, n.path); ok {
		out.Type = pageContents
	}
	if nt, ok := g.Note(n.path); ok {
		out.Description, out.EntityType = nt.Summary, nt.EntityType
		if data, _, err := l.Vault().Read(n.path); err == nil && nt.BodyStart <= len(data) {
			out.HasDetail = strings.TrimSpace(string(data[nt.BodyStart:])) != ""
		}
	}
	return out
}

// childPages lists the pages inside a contents page: its subfolders, then its notes,
// leaving out the folder notes (a folder's own note is described by the folder) and,
// as the canvas does, the manual and the memory notebook, which every call carries.
// They are only named here: describePage reads a note's file, so a caller describes
// the page of them it shows, not a whole folder of thousands.
func childPages(fi *folderIndex, folder vpath.Path) []treeNode {
	var out []treeNode
	for _, sub := range fi.folders[folder] {
		out = append(out, treeNode{folder: true, path: sub})
	}
	for _, p := range fi.notes[folder] {
		if f, ok := notesFolder(fi, p); ok && (f == folder || f.Dir() == folder) || canvas.InContext(p) {
			continue
		}
		out = append(out, treeNode{path: p})
	}
	return out
}

// folderOf returns the folder a page holds its children in: a folder itself, the
// folder a folder note stands for, and for a detail page the folder named like it
// beside it (which a child creates: the detail page becomes a contents page).
func (ref pageRef) folderOf() vpath.Path {
	if ref.node.folder {
		return ref.node.path
	}
	if f, ok := notesFolder(ref.fi, ref.node.path); ok {
		return f
	}
	return vpath.Path(ref.node.path.Name())
}

type listSegmentsIn struct {
	tool.LibraryArg
}

// segmentOf describes library l as a segment; first says it is the default library.
// The error is that of the library's scan.
func (e *env) segmentOf(ctx context.Context, l *library.Library, first bool) (segmentOut, error) {
	typ := "library"
	if first {
		typ = "default"
	}
	g, err := l.Graph(ctx)
	if err != nil {
		return segmentOut{}, fmt.Errorf("read library %s: %w", l.Name(), err)
	}
	return segmentOut{ID: l.Name(), Type: typ, Permission: string(e.ws.Permission(l.Name())),
		RootIndex: pageIndex(l, treeNode{folder: true}), Notes: g.Stats().Notes}, nil
}

func (e *env) listSegments(ctx context.Context, call *tool.Call, in listSegmentsIn) (tool.Result, *segmentsOut, error) {
	out := &segmentsOut{Segments: []segmentOut{}}
	for i, l := range e.libraries(ctx) {
		s, err := e.segmentOf(ctx, l, i == 0)
		if err != nil {
			return tool.Result{}, nil, err
		}
		out.Segments = append(out.Segments, s)
	}
	return tool.OK(fmt.Sprintf("%d segments (libraries); each root_index is a page_index for get_children", len(out.Segments))).
		WithScriptValue(out.Segments), out, nil
}

type getSegmentIn struct {
	ID string `json:"id" jsonschema:"the segment's id: a library's name, as list_segments gives it"`
}

func (e *env) getSegment(ctx context.Context, call *tool.Call, in getSegmentIn) (tool.Result, *segmentOut, error) {
	var ids []string
	for i, l := range e.libraries(ctx) {
		if l.Name() == strings.TrimSpace(in.ID) {
			s, err := e.segmentOf(ctx, l, i == 0)
			if err != nil {
				return tool.Result{}, nil, err
			}
			return tool.OK(fmt.Sprintf("segment %s", l.Name())), &s, nil
		}
		ids = append(ids, l.Name())
	}
	shown, _ := tool.Clip(in.ID, 64)
	return tool.Fail(tool.CodeNotFound, "there is no segment %q; the segments are %s (list_segments)", shown, strings.Join(quoteAll(ids), ", ")), nil, nil
}
