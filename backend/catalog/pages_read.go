package catalog

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/memotree/memotree/backend/search"
	"github.com/memotree/memotree/backend/tool"
	"github.com/memotree/memotree/backend/vpath"
)

// pageIndexIn is the input of the tools that take one page.
type pageIndexIn struct {
	PageIndex string `json:"page_index" jsonschema:"the page: \"library:path\" as the page tools give it (\"notes:people/Ada Lovelace\", \"notes:people/\", \"notes:/\"), or a note's name or folder path in the call's library"`
	tool.LibraryArg
}

// pageIndexes returns the page index that decides the library of a call (libraryFrom).
func (in pageIndexIn) pageIndexes() []string { return []string{in.PageIndex} }

// How library_name reads in the page tools, which act by default on the library the
// page index names.
const (
	libraryOfPage   = "the library; by default the one page_index names, else the default one"
	libraryOfParent = "the library; by default the one parent_index names, else the default one"
)

func (e *env) getPage(ctx context.Context, call *tool.Call, in pageIndexIn) (tool.Result, *pageOut, error) {
	ref, fail, err := e.resolvePage(ctx, call, "page_index", in.PageIndex)
	if fail != nil || err != nil {
		return deref(fail), nil, err
	}
	p := ref.page()
	return tool.OK(fmt.Sprintf("%s page %s", p.Type, p.Index)), &p, nil
}

// findPageIn is the input of find_page.
type findPageIn struct {
	Query      string `json:"query" jsonschema:"words to look for in the pages' names, summaries and text"`
	MaxResults int    `json:"max_results,omitempty" jsonschema:"the most pages returned (default 10, at most 100)"`
	tool.LibraryArg
}

// pagesOut is find_page's data.
type pagesOut struct {
	Query string    `json:"query"`
	Pages []pageOut `json:"pages"`
}

// findPage finds pages by words: folders whose name holds the query first, then the
// notes full-text search ranks best. No match is an empty list, not an error: a script
// looping over the answer must not stop.
func (e *env) findPage(ctx context.Context, call *tool.Call, in findPageIn) (tool.Result, *pagesOut, error) {
	l, fail, err := e.loaded(ctx, call)
	if fail != nil || err != nil {
		return deref(fail), nil, err
	}
	q := strings.TrimSpace(in.Query)
	if q == "" {
		return tool.Fail(tool.CodeInvalidArguments, "query is empty: give words to look for, such as \"engine\""), nil, nil
	}
	limit := in.MaxResults
	if limit <= 0 {
		limit = 10
	}
	limit = min(limit, 100)
	g := l.Graph()
	fi := newFolderIndex(g)
	out := &pagesOut{Query: q, Pages: []pageOut{}}
	low := strings.ToLower(q)
	var folders []vpath.Path
	for f := range fi.total {
		if f != "" && strings.Contains(strings.ToLower(f.Base()), low) {
			folders = append(folders, f)
		}
	}
	slices.Sort(folders)
	for _, f := range folders[:min(len(folders), limit)] {
		out.Pages = append(out.Pages, describePage(l.Library, g, fi, treeNode{folder: true, path: f}))
	}
	ix, err := e.search.IndexOf(ctx, l.Library)
	if err != nil {
		return tool.Result{}, nil, err
	}
	hits, err := ix.Search(ctx, search.Request{Query: q, Limit: limit, NoSnippet: true})
	if err != nil {
		return tool.Result{}, nil, fmt.Errorf("find_page %s: %w", l.Name(), err)
	}
	for _, h := range hits {
		if len(out.Pages) >= limit {
			break
		}
		if g.Has(h.Path) {
			out.Pages = append(out.Pages, describePage(l.Library, g, fi, treeNode{path: h.Path}))
		}
	}
	msg := fmt.Sprintf("%d pages match %q, best first", len(out.Pages), q)
	if len(out.Pages) == 0 {
		msg = fmt.Sprintf("no page matches %q; try other or fewer words, or get_children to browse", q)
	}
	return tool.OK(msg).WithScriptValue(out.Pages), out, nil
}

// childPagesOut is get_children's data when it is called with a page_index.
type childPagesOut struct {
	Index    string        `json:"index"`
	Children []pageOut     `json:"children"`
	Page     tool.PageInfo `json:"page"`
}

// pageChildren answers get_children(page_index): the pages inside a contents page.
func (e *env) pageChildren(ctx context.Context, call *tool.Call, index string, paging tool.Paging) (tool.Result, *childPagesOut, error) {
	ref, fail, err := e.resolvePage(ctx, call, "page_index", index)
	if fail != nil || err != nil {
		return deref(fail), nil, err
	}
	out := &childPagesOut{Index: pageIndex(ref.lib, ref.node), Children: []pageOut{}}
	if f, ok := ref.contents(); ok {
		page, info := tool.Paginate(childPages(ref.fi, f), paging)
		for _, n := range page {
			out.Children = append(out.Children, describePage(ref.lib, ref.g, ref.fi, n))
		}
		out.Page = info
	}
	msg := out.Page.Hint("child pages of " + out.Index)
	if len(out.Children) == 0 && out.Page.Total == 0 {
		msg = fmt.Sprintf("%s is a detail page: it has no children (create_detail_page with it as parent_index gives it some)", out.Index)
	}
	return tool.OK(msg).WithScriptValue(out.Children), out, nil
}

// contents returns the folder whose pages a contents page lists; false for a detail
// page.
func (ref pageRef) contents() (vpath.Path, bool) {
	if ref.node.folder {
		return ref.node.path, true
	}
	return notesFolder(ref.fi, ref.node.path)
}

// parentPageOut is get_parent's data when it is called with a page_index.
type parentPageOut struct {
	Index  string   `json:"index"`
	Parent *pageOut `json:"parent"`
}

// pageParent answers get_parent(page_index): the contents page holding a page, None
// for the root.
func (e *env) pageParent(ctx context.Context, call *tool.Call, index string) (tool.Result, *parentPageOut, error) {
	ref, fail, err := e.resolvePage(ctx, call, "page_index", index)
	if fail != nil || err != nil {
		return deref(fail), nil, err
	}
	out := &parentPageOut{Index: pageIndex(ref.lib, ref.node)}
	if ref.node.folder && ref.node.path == "" {
		return tool.OK("the root page has no parent").WithScriptValue(nil), out, nil
	}
	p := describePage(ref.lib, ref.g, ref.fi, treeNode{folder: true, path: ref.node.path.Dir()})
	out.Parent = &p
	return tool.OK(fmt.Sprintf("%s is in %s", out.Index, p.Index)).WithScriptValue(p), out, nil
}

// ancestorPagesOut is get_ancestors' data when it is called with a page_index.
type ancestorPagesOut struct {
	Index     string    `json:"index"`
	Ancestors []pageOut `json:"ancestors"`
}

// pageAncestors answers get_ancestors(page_index): the contents pages from the
// page's parent up to the root.
func (e *env) pageAncestors(ctx context.Context, call *tool.Call, index string) (tool.Result, *ancestorPagesOut, error) {
	ref, fail, err := e.resolvePage(ctx, call, "page_index", index)
	if fail != nil || err != nil {
		return deref(fail), nil, err
	}
	out := &ancestorPagesOut{Index: pageIndex(ref.lib, ref.node), Ancestors: []pageOut{}}
	if !(ref.node.folder && ref.node.path == "") {
		for d := ref.node.path.Dir(); ; d = d.Dir() {
			out.Ancestors = append(out.Ancestors, describePage(ref.lib, ref.g, ref.fi, treeNode{folder: true, path: d}))
			if d == "" {
				break
			}
		}
	}
	return tool.OK(fmt.Sprintf("%d ancestors of %s, from its parent to the root", len(out.Ancestors), out.Index)).
		WithScriptValue(out.Ancestors), out, nil
}
