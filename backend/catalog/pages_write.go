package catalog

import (
	"context"
	"fmt"
	"strings"

	"github.com/memotree/memotree/backend/tool"
	"github.com/memotree/memotree/backend/vpath"
)

// updatePageIn is the input of update_page.
type updatePageIn struct {
	PageIndex   string  `json:"page_index" jsonschema:"the page to update"`
	Name        *string `json:"name,omitempty" jsonschema:"the page's new name: a note is renamed in its folder, every link to it rewritten"`
	Description *string `json:"description,omitempty" jsonschema:"the page's new one-line description: a note's summary, a folder's folder-note summary"`
	tool.LibraryArg
}

// pageIndexes returns the page index that decides the library of a call (libraryFrom).
func (in updatePageIn) pageIndexes() []string { return []string{in.PageIndex} }

// updatePage renames a page and sets its description, through rename_entity and
// update_entity (or create_entity for a folder's first folder note).
func (e *env) updatePage(ctx context.Context, call *tool.Call, in updatePageIn) (tool.Result, *pageOut, error) {
	ref, fail, err := e.resolvePage(ctx, call, "page_index", in.PageIndex)
	if fail != nil || err != nil {
		return deref(fail), nil, err
	}
	switch {
	case in.Name == nil && in.Description == nil:
		return tool.Fail(tool.CodeInvalidArguments, "update_page needs name, description or both: update_page(page_index, name, description)"), nil, nil
	case in.Name != nil && strings.TrimSpace(*in.Name) == "":
		return tool.Fail(tool.CodeInvalidArguments, "name is empty: give the page's new name, or leave name out to keep it"), nil, nil
	case in.Name != nil && strings.ContainsAny(*in.Name, `/\`):
		return tool.Fail(tool.CodeInvalidArguments, "name %q holds a '/': a name is the page's own name; move_page puts it under another page", entClip(*in.Name)), nil, nil
	case in.Description != nil && strings.TrimSpace(*in.Description) == "":
		return tool.Fail(tool.CodeInvalidArguments, "description is empty: give a one-line description, or leave description out to keep it"), nil, nil
	case ref.node.folder && in.Name != nil && strings.TrimSpace(*in.Name) != ref.page().Name:
		return tool.Fail(tool.CodeInvalidArguments, "%s is a folder, which update_page does not rename (that would move every note in it); move_page moves its pages one by one, or update only its description", pageIndex(ref.lib, ref.node)), nil, nil
	}
	p := ref.node.path
	var warns []string
	if !ref.node.folder && in.Name != nil && strings.TrimSpace(*in.Name) != entBase(p) {
		r, _, err := e.renameEntity(ctx, call, renameEntityIn{OldName: string(p), NewName: strings.TrimSpace(*in.Name)})
		if err != nil || r.IsError() {
			return r, nil, err
		}
		warns = append(warns, r.Warnings...)
		p = p.Dir().Join(strings.TrimSpace(*in.Name) + ".md")
	}
	if in.Description != nil {
		r, err := e.describe(ctx, call, ref, p, strings.TrimSpace(*in.Description))
		if err != nil || r.IsError() {
			if p != ref.node.path {
				r.Message += fmt.Sprintf(" (the page was renamed to %s already)", pageIndex(ref.lib, treeNode{path: p}))
			}
			return r, nil, err
		}
		warns = append(warns, r.Warnings...)
	}
	node := treeNode{folder: ref.node.folder, path: p}
	out := describePage(ref.lib, ref.g, newFolderIndex(ref.g), node)
	r := tool.OK(fmt.Sprintf("updated page %s", out.Index)).WithScriptValue(nil)
	r.Warnings = warns
	return r, &out, nil
}

// describe sets the description of a page: the summary of the note at p, or for a
// folder that of its folder note, created inside it when there is none.
func (e *env) describe(ctx context.Context, call *tool.Call, ref pageRef, p vpath.Path, text string) (tool.Result, error) {
	var r tool.Result
	var err error
	switch fn, ok := folderNote(ref.g, ref.node.path); {
	case !ref.node.folder:
		r, _, err = e.updateEntity(ctx, call, updateEntityIn{EntityName: string(p), Summary: text})
	case ok:
		r, _, err = e.updateEntity(ctx, call, updateEntityIn{EntityName: string(fn), Summary: text})
	case ref.node.path == "":
		r = tool.Fail(tool.CodeInvalidArguments, "the root page's description is the library's manual: edit_manual_section changes it")
	default:
		name := ref.node.path.Join(ref.node.path.Base()).Name()
		r, _, err = e.createEntity(ctx, call, createEntityIn{entityIn: entityIn{EntityName: name, Summary: text}})
	}
	return r, err
}

// canvasPageOut is the data of expand_details and hide_details.
type canvasPageOut struct {
	Index  string `json:"index"`
	View   string `json:"view"`
	Tokens int    `json:"tokens"`
	Budget int    `json:"budget"`
	Shown  string `json:"shown,omitempty"`
}

// detailsIn is the input of expand_details and hide_details.
type detailsIn struct {
	PageIndex string `json:"page_index" jsonschema:"the page"`
	ViewName  string `json:"view_name,omitempty" jsonschema:"the canvas view; \"default\" when absent"`
	tool.LibraryArg
}

// pageIndexes returns the page index that decides the library of a call (libraryFrom).
func (in detailsIn) pageIndexes() []string { return []string{in.PageIndex} }

// nodeName is how the canvas tools name the node of a page.
func (ref pageRef) nodeName() string {
	switch {
	case ref.node.folder && ref.node.path == "":
		return rootName
	case ref.node.folder:
		return string(ref.node.path) + "/"
	}
	return string(ref.node.path)
}

// expandDetails raises a page on the canvas: a detail page to its whole text, a
// contents page open (expand_node).
func (e *env) expandDetails(ctx context.Context, call *tool.Call, in detailsIn) (tool.Result, *canvasPageOut, error) {
	ref, fail, err := e.resolvePage(ctx, call, "page_index", in.PageIndex)
	if fail != nil || err != nil {
		return deref(fail), nil, err
	}
	r, ch, err := e.expandNode(ctx, call, expandNodeIn{EntityName: ref.nodeName(), ViewName: in.ViewName})
	r, out := canvasPage(ref, r, ch)
	return r, out, err
}

// hideDetails lowers a page on the canvas to one line; a contents page closes
// (collapse_node, not recursive).
func (e *env) hideDetails(ctx context.Context, call *tool.Call, in detailsIn) (tool.Result, *canvasPageOut, error) {
	ref, fail, err := e.resolvePage(ctx, call, "page_index", in.PageIndex)
	if fail != nil || err != nil {
		return deref(fail), nil, err
	}
	r, ch, err := e.collapseNode(ctx, call, collapseNodeIn{EntityName: ref.nodeName(), ViewName: in.ViewName})
	r, out := canvasPage(ref, r, ch)
	return r, out, err
}

// canvasPage turns a canvas tool's result and output into the page tools' (None for
// a script).
func canvasPage(ref pageRef, r tool.Result, ch *canvasChangeOut) (tool.Result, *canvasPageOut) {
	if r.IsError() || ch == nil {
		return r, nil
	}
	out := &canvasPageOut{Index: pageIndex(ref.lib, ref.node), View: ch.View, Tokens: ch.Tokens, Budget: ch.Budget, Shown: ch.Shown}
	return r.WithScriptValue(nil), out
}

// movePageIn is the input of move_page.
type movePageIn struct {
	Source string `json:"source" jsonschema:"the page to move (a detail page: a note)"`
	Target string `json:"target" jsonschema:"the page to move it under: a folder, a folder's note, or a detail page, which becomes a contents page"`
	tool.LibraryArg
}

// pageIndexes returns the page indexes that decide the library of a call, in order
// (libraryFrom).
func (in movePageIn) pageIndexes() []string { return []string{in.Source, in.Target} }

// movedPageOut is move_page's data.
type movedPageOut struct {
	From  string  `json:"from"`
	Index string  `json:"index"`
	Page  pageOut `json:"page"`
}

// movePage moves a note under another page (move_entity), rewriting every link to it.
func (e *env) movePage(ctx context.Context, call *tool.Call, in movePageIn) (tool.Result, *movedPageOut, error) {
	src, fail, err := e.resolvePage(ctx, call, "source", in.Source)
	if fail != nil || err != nil {
		return deref(fail), nil, err
	}
	dst, fail, err := e.resolvePage(ctx, call, "target", in.Target)
	if fail != nil || err != nil {
		return deref(fail), nil, err
	}
	if src.node.folder {
		return tool.Fail(tool.CodeInvalidArguments, "source %s is a folder: move_page moves one page, a note; move the pages inside it one by one", pageIndex(src.lib, src.node)), nil, nil
	}
	folder := dst.folderOf()
	if !dst.node.folder && dst.node.path == src.node.path {
		return tool.Fail(tool.CodeInvalidArguments, "a page cannot be moved under itself"), nil, nil
	}
	r, _, err := e.moveEntity(ctx, call, moveEntityIn{EntityName: string(src.node.path), Folder: string(folder)})
	if err != nil || r.IsError() {
		return r, nil, err
	}
	to := treeNode{path: folder.Join(src.node.path.Base())}
	out := &movedPageOut{From: pageIndex(src.lib, src.node), Index: pageIndex(src.lib, to), Page: describePage(src.lib, src.g, newFolderIndex(src.g), to)}
	res := tool.OK(fmt.Sprintf("moved %s to %s; %s", out.From, out.Index, r.Message)).WithScriptValue(nil)
	res.Warnings = r.Warnings
	return res, out, nil
}

// removedPageOut is remove_page's data.
type removedPageOut struct {
	Index         string   `json:"index"`
	DanglingLinks []string `json:"dangling_links,omitempty"`
}

// removePage deletes a detail or contents note (delete_entities); a folder is not
// removed whole.
func (e *env) removePage(ctx context.Context, call *tool.Call, in pageIndexIn) (tool.Result, *removedPageOut, error) {
	ref, fail, err := e.resolvePage(ctx, call, "page_index", in.PageIndex)
	if fail != nil || err != nil {
		return deref(fail), nil, err
	}
	if ref.node.folder {
		return tool.Fail(tool.CodeInvalidArguments, "%s is a folder of %d notes: remove_page removes one page, a note; remove or move (move_page) its pages one by one", pageIndex(ref.lib, ref.node), ref.fi.total[ref.node.path]), nil, nil
	}
	r, del, err := e.deleteEntities(ctx, call, deleteEntitiesIn{EntityNames: []string{string(ref.node.path)}})
	if err != nil || r.IsError() {
		return r, nil, err
	}
	out := &removedPageOut{Index: pageIndex(ref.lib, ref.node)}
	if del != nil {
		out.DanglingLinks = del.DanglingLinks
	}
	return r.WithScriptValue(nil), out, nil
}

// createdPageOut is the data of create_detail_page and create_contents_page.
type createdPageOut struct {
	Index string   `json:"index"`
	Page  pageOut  `json:"page"`
	Moved []string `json:"moved,omitempty"`
}

// createDetailPageIn is the input of create_detail_page.
type createDetailPageIn struct {
	Name        string `json:"name" jsonschema:"the new page's name (its note's name, without '/')"`
	Description string `json:"description,omitempty" jsonschema:"a one-line description: the note's summary"`
	Detail      string `json:"detail,omitempty" jsonschema:"the page's text: the note's Markdown body"`
	ParentIndex string `json:"parent_index" jsonschema:"the page to put it under: a folder, a folder's note, or a detail page, which becomes a contents page"`
	tool.LibraryArg
}

// pageIndexes returns the page index that decides the library of a call (libraryFrom).
func (in createDetailPageIn) pageIndexes() []string { return []string{in.ParentIndex} }

// createDetailPage writes a new note under a page (create_entity) and returns its
// index.
func (e *env) createDetailPage(ctx context.Context, call *tool.Call, in createDetailPageIn) (tool.Result, *createdPageOut, error) {
	parent, fail, err := e.resolvePage(ctx, call, "parent_index", in.ParentIndex)
	if fail != nil || err != nil {
		return deref(fail), nil, err
	}
	name, fail := pageName(in.Name)
	if fail != nil {
		return *fail, nil, nil
	}
	p := parent.folderOf().Join(name + ".md")
	r, _, err := e.createEntity(ctx, call, createEntityIn{entityIn: entityIn{EntityName: p.Name(), Content: in.Detail, Summary: in.Description}})
	if err != nil || r.IsError() {
		return r, nil, err
	}
	res, out := createdPage(parent, r, p, nil)
	return res, out, nil
}

// pageName checks a new page's name.
func pageName(name string) (string, *tool.Result) {
	name = strings.TrimSpace(name)
	switch {
	case name == "":
		r := tool.Fail(tool.CodeInvalidArguments, "name is empty: give the new page's name")
		return "", &r
	case strings.ContainsAny(name, `/\`):
		r := tool.Fail(tool.CodeInvalidArguments, "name %q holds a '/': a name is the page's own name; parent_index says where it goes", entClip(name))
		return "", &r
	case name == "." || name == "..":
		r := tool.Fail(tool.CodeInvalidArguments, "name %q is not a page name", name)
		return "", &r
	}
	return name, nil
}

// createdPage is the result of a page creation, and its output: the new page, whose
// index a script gets back.
func createdPage(parent pageRef, r tool.Result, p vpath.Path, moved []string) (tool.Result, *createdPageOut) {
	g := parent.g
	fi := newFolderIndex(g)
	node := treeNode{path: p}
	if moved != nil {
		node = treeNode{folder: true, path: p.Dir()}
	}
	out := &createdPageOut{Index: pageIndex(parent.lib, node), Page: describePage(parent.lib, g, fi, node), Moved: moved}
	res := tool.OK(fmt.Sprintf("created %s page %s under %s", out.Page.Type, out.Index, pageIndex(parent.lib, parent.node))).
		WithScriptValue(out.Index)
	res.Warnings = r.Warnings
	return res, out
}

// createContentsPageIn is the input of create_contents_page.
type createContentsPageIn struct {
	Name        string   `json:"name" jsonschema:"the new page's name: the folder's name, without '/'"`
	Description string   `json:"description,omitempty" jsonschema:"a one-line description: the summary of the folder's note"`
	ParentIndex string   `json:"parent_index" jsonschema:"the page to put it under: a folder, a folder's note, or a detail page, which becomes a contents page"`
	Children    []string `json:"children" jsonschema:"the indexes of pages (notes) to move into it; may be empty"`
	tool.LibraryArg
}

// pageIndexes returns the page index that decides the library of a call (libraryFrom).
func (in createContentsPageIn) pageIndexes() []string { return []string{in.ParentIndex} }

// createContentsPage makes a folder with its folder note (create_entity) under a
// page and moves the given pages into it (move_entity). Every child is checked
// before anything is written.
func (e *env) createContentsPage(ctx context.Context, call *tool.Call, in createContentsPageIn) (tool.Result, *createdPageOut, error) {
	parent, fail, err := e.resolvePage(ctx, call, "parent_index", in.ParentIndex)
	if fail != nil || err != nil {
		return deref(fail), nil, err
	}
	name, fail := pageName(in.Name)
	if fail != nil {
		return *fail, nil, nil
	}
	folder := parent.folderOf().Join(name)
	if _, ok := parent.fi.folder(folder); ok || parent.g.Has(vpath.Path(string(folder)+".md")) {
		return tool.Fail(tool.CodeAlreadyExists, "a page named %q is already under %s: choose another name, or move pages into it with move_page", name, pageIndex(parent.lib, parent.node)), nil, nil
	}
	note := folder.Join(name + ".md")
	kids, fail, err := e.contentsChildren(ctx, call, in.Children, note)
	if fail != nil || err != nil {
		return deref(fail), nil, err
	}
	r, _, err := e.createEntity(ctx, call, createEntityIn{entityIn: entityIn{EntityName: note.Name(), Summary: strings.TrimSpace(in.Description)}})
	if err != nil || r.IsError() {
		return r, nil, err
	}
	moved := []string{}
	for i, k := range kids {
		m, _, err := e.moveEntity(ctx, call, moveEntityIn{EntityName: string(k), Folder: string(folder)})
		if err != nil {
			return tool.Result{}, nil, err
		}
		if m.IsError() {
			res, out := createdPage(parent, r, note, moved)
			res.Status, res.ErrorCode = tool.StatusPartial, m.ErrorCode
			res.Message = fmt.Sprintf("created %s and moved %d of %d children; %s could not be moved: %s; the rest were not moved", res.Message, i, len(kids), k.Name(), m.Message)
			return res, out, nil
		}
		moved = append(moved, pageIndex(parent.lib, treeNode{path: folder.Join(k.Base())}))
	}
	res, out := createdPage(parent, r, note, moved)
	return res, out, nil
}

// contentsChildren resolves the children of a new contents page whose folder note will
// be note: each must be a note of the call's library, given once, whose name does not
// clash with another's in the new folder.
func (e *env) contentsChildren(ctx context.Context, call *tool.Call, children []string, note vpath.Path) ([]vpath.Path, *tool.Result, error) {
	var out []vpath.Path
	seen := map[string]string{strings.ToLower(note.Base()): "the new page's own note"}
	for i, c := range children {
		ref, fail, err := e.resolvePage(ctx, call, fmt.Sprintf("children[%d]", i), c)
		if fail != nil || err != nil {
			return nil, fail, err
		}
		if ref.node.folder {
			r := tool.Fail(tool.CodeInvalidArguments, "children[%d] %s is a folder: a contents page takes notes as children; move a folder's pages one by one", i, pageIndex(ref.lib, ref.node))
			return nil, &r, nil
		}
		key := strings.ToLower(ref.node.path.Base())
		if other, taken := seen[key]; taken {
			r := tool.Fail(tool.CodeInvalidArguments, "children[%d] %s would take the name of %s in the new folder; rename one first (update_page)", i, pageIndex(ref.lib, ref.node), other)
			return nil, &r, nil
		}
		seen[key] = pageIndex(ref.lib, ref.node)
		out = append(out, ref.node.path)
	}
	return out, nil, nil
}
