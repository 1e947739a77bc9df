package catalog

import (
	"context"
	"fmt"
	"regexp"
	"slices"
	"strings"

	"github.com/memotree/memotree/backend/note"
	"github.com/memotree/memotree/backend/tool"
	"github.com/memotree/memotree/backend/vpath"
)

// maxReadBytes is how much of one note read_entities returns per call.
const maxReadBytes = 24 << 10

// readEntitiesIn is the input of read_entities.
type readEntitiesIn struct {
	EntityNames   []string `json:"entity_names" jsonschema:"the notes to read: full names, unique basenames or aliases"`
	ContentOffset int      `json:"content_offset,omitempty" jsonschema:"byte offset to continue a clipped note from (with one entity name)"`
	tool.LibraryArg
	tool.Paging
}

// entityText is one note as read_entities returns it.
type entityText struct {
	EntityName string `json:"entity_name"`
	Hash       string `json:"hash,omitempty"`
	Content    string `json:"content,omitempty"`
	Size       int    `json:"size,omitempty"`
	NextOffset int    `json:"next_content_offset,omitempty"`
	Error      string `json:"error,omitempty"`
}

// readEntitiesOut is the output of read_entities: a note that could not be read has
// an error in its place. A call that read none answers an error carrying it as data.
type readEntitiesOut struct {
	Entities []entityText  `json:"entities"`
	Page     tool.PageInfo `json:"page"`
}

// readEntities returns the content and hash of notes.
func (e *env) readEntities(ctx context.Context, call *tool.Call, in readEntitiesIn) (tool.Result, *readEntitiesOut, error) {
	l, res := e.library(ctx, call) // a note named by its path needs no scan
	if res != nil {
		return *res, nil, nil
	}
	if len(in.EntityNames) == 0 {
		return tool.Fail(tool.CodeInvalidArguments, "entity_names is empty: give the names of the notes to read"), nil, nil
	}
	if in.ContentOffset < 0 {
		return tool.Fail(tool.CodeInvalidArguments, "content_offset must be 0 or more"), nil, nil
	}
	names, info := tool.Paginate(in.EntityNames, in.Paging)
	out := make([]entityText, 0, len(names))
	var warns []string
	var firstFail *tool.Result
	for _, name := range names {
		p, data, h, res, err := readEntity(ctx, l, name)
		if err != nil {
			return tool.Result{}, nil, err
		}
		if res != nil {
			out = append(out, entityText{EntityName: name, Error: res.Message})
			warns = append(warns, res.Message)
			if firstFail == nil {
				firstFail = res
			}
			continue
		}
		out = append(out, clipEntity(p.Name(), string(data), string(h), in.ContentOffset))
	}
	data := &readEntitiesOut{Entities: out, Page: info}
	switch {
	case firstFail != nil && len(warns) == len(names):
		return firstFail.WithData(data), nil, nil
	case len(warns) > 0:
		return tool.Partial(fmt.Sprintf("read %d of %d entities", len(names)-len(warns), len(names)), warns...), data, nil
	}
	msg := info.Hint("entities")
	for _, t := range out {
		if t.NextOffset > 0 {
			msg += fmt.Sprintf("; %s is clipped: call read_entities with entity_names=[%q] and content_offset=%d for the rest", t.EntityName, t.EntityName, t.NextOffset)
		}
	}
	return tool.OK(msg), data, nil
}

// clipEntity returns at most maxReadBytes of content from offset.
func clipEntity(name, content, hash string, offset int) entityText {
	t := entityText{EntityName: name, Hash: hash, Size: len(content)}
	if offset >= len(content) {
		return t
	}
	rest := content[offset:]
	s, clipped := tool.Clip(rest, maxReadBytes)
	t.Content = s
	if clipped {
		t.NextOffset = offset + len(s)
	}
	return t
}

// listEntitiesIn is the input of list_entities.
type listEntitiesIn struct {
	EntityGlob string `json:"entity_glob" jsonschema:"a glob over entity names: * within a folder, ** across folders (**/Ada* finds Ada anywhere), ? one character, [abc] a set"`
	tool.LibraryArg
	tool.Paging
}

// entityListOut is the output of list_entities and search_in_names: one page of
// names.
type entityListOut[T any] struct {
	Entities []T           `json:"entities"`
	Page     tool.PageInfo `json:"page"`
	// Summary counts the matches by top-level folder and entity type (list_entities
	// with summary_only).
	Summary map[string]map[string]int `json:"summary,omitempty"`
}

// listEntities lists the notes whose names match a glob.
func (e *env) listEntities(ctx context.Context, call *tool.Call, in listEntitiesIn) (tool.Result, *entityListOut[string], error) {
	l, res, err := e.loaded(ctx, call)
	if res != nil || err != nil {
		return deref(res), nil, err
	}
	m, err := compileEntityGlob(in.EntityGlob)
	if err != nil {
		return tool.Fail(tool.CodeInvalidArguments, "entity_glob %q: %v; use *, **, ? and [...]", in.EntityGlob, err), nil, nil
	}
	var names []string
	var paths []vpath.Path
	for _, p := range l.Graph().Notes() {
		if m.match(p.Name()) {
			names = append(names, p.Name())
			paths = append(paths, p)
		}
	}
	slices.Sort(names)
	page, info := tool.Paginate(names, in.Paging)
	if len(names) == 0 {
		return tool.Fail(tool.CodeNoMatch, "no entity matches %q; try a wider glob such as \"**\", or search_in_names", in.EntityGlob), nil, nil
	}
	out := &entityListOut[string]{Entities: page, Page: info}
	if in.SummaryOnly {
		out.Summary = entitySummary(l, paths)
	}
	return tool.OK(info.Hint("entities")), out, nil
}

// entitySummary counts the named notes by top-level folder ("/" for the root) and by
// entity type ("(none)" for notes without one): list_entities' summary_only answer.
func entitySummary(l lib, paths []vpath.Path) map[string]map[string]int {
	folders, types := map[string]int{}, map[string]int{}
	g := l.Graph()
	for _, p := range paths {
		top, _, nested := strings.Cut(string(p), "/")
		if !nested {
			top = rootName
		}
		folders[top]++
		typ := "(none)"
		if n, ok := g.Note(p); ok && n.EntityType != "" {
			typ = n.EntityType
		}
		types[typ]++
	}
	return map[string]map[string]int{"folders": folders, "entity_types": types}
}

// entityGlob matches entity names against a glob.
type entityGlob struct {
	full *regexp.Regexp
}

// compileEntityGlob turns a glob into a case-insensitive matcher.
func compileEntityGlob(glob string) (*entityGlob, error) {
	g := strings.TrimSuffix(strings.TrimSpace(glob), ".md")
	if len(g) > vpath.MaxLen {
		return nil, fmt.Errorf("longer than %d bytes", vpath.MaxLen)
	}
	if g == "" {
		g = "**"
	}
	var b strings.Builder
	b.WriteString("(?is)^")
	for i := 0; i < len(g); i++ {
		switch c := g[i]; c {
		case '*':
			if i+1 < len(g) && g[i+1] == '*' {
				i++
				if i+1 < len(g) && g[i+1] == '/' {
					i++
					b.WriteString("(?:.*/)?")
				} else {
					b.WriteString(".*")
				}
			} else {
				b.WriteString("[^/]*")
			}
		case '?':
			b.WriteString("[^/]")
		case '[':
			j := strings.IndexByte(g[i+1:], ']')
			if j < 0 {
				return nil, fmt.Errorf("unclosed [")
			}
			set := g[i+1 : i+1+j]
			if strings.HasPrefix(set, "!") {
				set = "^" + set[1:]
			}
			b.WriteString("[" + strings.ReplaceAll(set, `\`, `\\`) + "]")
			i += j + 1
		default:
			b.WriteString(regexp.QuoteMeta(string(c)))
		}
	}
	b.WriteString("$")
	re, err := regexp.Compile(b.String())
	if err != nil {
		return nil, err
	}
	return &entityGlob{full: re}, nil
}

// match reports whether the entity name matches.
func (g *entityGlob) match(name string) bool { return g.full.MatchString(name) }

// tocIn is the input of get_entities_toc.
type tocIn struct {
	EntityNames []string `json:"entity_names" jsonschema:"the notes whose headings to list"`
	tool.LibraryArg
}

// tocEntry is the table of contents of one note.
type tocEntry struct {
	EntityName string       `json:"entity_name"`
	TOC        []tocHeading `json:"toc,omitempty"`
	Error      string       `json:"error,omitempty"`
}

// tocHeading is one heading of a table of contents: note.Heading as the tool's
// schema has always described it (note.Heading's fields are sized for the index).
type tocHeading struct {
	Level int    `json:"level"`
	Text  string `json:"text"`
	Line  int    `json:"line"`
}

// tocOf returns the table of contents of the note in data.
func tocOf(data []byte) []tocHeading {
	hs := note.Parse(data).Headings
	if len(hs) == 0 {
		return nil
	}
	out := make([]tocHeading, len(hs))
	for i, h := range hs {
		out[i] = tocHeading{Level: int(h.Level), Text: h.Text, Line: int(h.Line)}
	}
	return out
}

// tocOut is the output of get_entities_toc. A call that found none answers an error
// carrying it as data.
type tocOut struct {
	Entities []tocEntry `json:"entities"`
}

// getEntitiesTOC lists the headings of notes.
func (e *env) getEntitiesTOC(ctx context.Context, call *tool.Call, in tocIn) (tool.Result, *tocOut, error) {
	l, res := e.library(ctx, call) // a note named by its path needs no scan
	if res != nil {
		return *res, nil, nil
	}
	if len(in.EntityNames) == 0 {
		return tool.Fail(tool.CodeInvalidArguments, "entity_names is empty: give the names of the notes"), nil, nil
	}
	if len(in.EntityNames) > tool.MaxLimit {
		return tool.Fail(tool.CodeTooLarge, "at most %d names per call", tool.MaxLimit), nil, nil
	}
	var out []tocEntry
	var warns []string
	var firstFail *tool.Result
	for _, name := range in.EntityNames {
		p, data, _, res, err := readEntity(ctx, l, name)
		if err != nil {
			return tool.Result{}, nil, err
		}
		if res != nil {
			out = append(out, tocEntry{EntityName: name, Error: res.Message})
			warns = append(warns, res.Message)
			firstFail = cmpOrResult(firstFail, res)
			continue
		}
		out = append(out, tocEntry{EntityName: p.Name(), TOC: tocOf(data)})
	}
	data := &tocOut{Entities: out}
	switch {
	case len(warns) == len(out):
		return tool.Fail(firstFail.ErrorCode, "%s", strings.Join(warns, "; ")).WithData(data), nil, nil
	case len(warns) > 0:
		return tool.Partial(fmt.Sprintf("headings of %d of %d entities", len(out)-len(warns), len(out)), warns...), data, nil
	}
	return tool.OK(fmt.Sprintf("headings of %d entities", len(out))), data, nil
}

// cmpOrResult returns first, or r when first is nil.
func cmpOrResult(first, r *tool.Result) *tool.Result {
	if first != nil {
		return first
	}
	return r
}
