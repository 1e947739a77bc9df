package catalog

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/memotree/memotree/backend/library"
	"github.com/memotree/memotree/backend/note"
	"github.com/memotree/memotree/backend/tool"
	"github.com/memotree/memotree/backend/vault"
	"github.com/memotree/memotree/backend/vpath"
)

func init() { families = append(families, manualTools) }

// The Refs of the manual tools (ReadManual is in refs.go): each tool is declared
// through its Ref, which names it with its input and output types, so that the
// compiler checks its handler and rules.
var (
	editManualSection = tool.NewRef[editManualSectionIn, *writeOut]("edit_manual_section")
	addManualSection  = tool.NewRef[addManualSectionIn, *writeOut]("add_manual_section")
)

// manualPath is where a library keeps its manual.
const manualPath vpath.Path = "meta.md"

// manualTools is the manual family: read and edit meta.md.
func manualTools(e *env) []*tool.Tool {
	return []*tool.Tool{
		ReadManual.New(tool.ReadOnly, desc("read_manual"), e.readManual),
		editManualSection.New(tool.Write, desc("edit_manual_section"), e.editManualSection),
		addManualSection.New(tool.Write, desc("add_manual_section"), e.addManualSection),
	}
}

// ReadManualIn is the input of read_manual.
type ReadManualIn struct {
	tool.LibraryArg
}

// ManualOut is the output of read_manual: the manual's text (clipped when it is long)
// and its content hash.
type ManualOut struct {
	Content string `json:"content"`
	Hash    string `json:"hash"`
}

// readManual returns meta.md.
func (e *env) readManual(ctx context.Context, call *tool.Call, in ReadManualIn) (tool.Result, *ManualOut, error) {
	l, res := e.library(ctx, call)
	if res != nil {
		return *res, nil, nil
	}
	data, h, res, err := readManualFile(l)
	if res != nil || err != nil {
		return entResult(res), nil, err
	}
	content, clipped := tool.Clip(string(data), maxReadBytes*2)
	msg := fmt.Sprintf("the manual of library %s (%s)", l.Name(), manualPath)
	if clipped {
		msg += fmt.Sprintf("; clipped at %d of %d bytes: read_entities meta with content_offset for the rest", len(content), len(data))
	}
	return tool.OK(msg), &ManualOut{Content: content, Hash: string(h)}, nil
}

// noManual answers a library without a manual.
func noManual(l *library.Library) *tool.Result {
	r := tool.Fail(tool.CodeNotFound, "library %s has no manual (%s) yet; write one with add_manual_section: how to use the library, the entity types, templates and the relation vocabulary", l.Name(), manualPath)
	return &r
}

// readManualFile reads meta.md; res answers when it is absent.
func readManualFile(l *library.Library) ([]byte, vault.Hash, *tool.Result, error) {
	data, h, err := l.Vault().Read(manualPath)
	switch {
	case errors.Is(err, vault.ErrNotFound):
		r := tool.Fail(tool.CodeNotFound, "library %s has no manual (%s) yet; write one with add_manual_section: how to use the library, the entity types, templates and the relation vocabulary", l.Name(), manualPath)
		return nil, "", &r, nil
	case err != nil:
		if r, ok := writeFailure(manualPath, err); ok {
			return nil, "", &r, nil
		}
		return nil, "", nil, err
	}
	return data, h, nil, nil
}

// editManualSectionIn is the input of edit_manual_section.
type editManualSectionIn struct {
	OldContent string `json:"old_content" jsonschema:"the exact text of the manual to replace (it must occur once)"`
	NewContent string `json:"new_content" jsonschema:"the text to put in its place"`
	tool.LibraryArg
}

// editManualSection replaces text of meta.md that occurs exactly once.
func (e *env) editManualSection(ctx context.Context, call *tool.Call, in editManualSectionIn) (tool.Result, *writeOut, error) {
	l, res := e.library(ctx, call)
	if res != nil {
		return *res, nil, nil
	}
	if in.OldContent == "" {
		return tool.Fail(tool.CodeInvalidArguments, "old_content is empty: copy the exact text to replace; add_manual_section adds text"), nil, nil
	}
	h, res, err := rewriteFile(ctx, l, call, "edit_manual_section", manualPath, "", func(data []byte, exists bool) ([]byte, *tool.Result) {
		if !exists {
			return nil, noManual(l)
		}
		old, repl := note.InLineEndings(data, in.OldContent), note.InLineEndings(data, in.NewContent)
		out, r := replaceExact(manualPath.Name(), string(data), old, repl, 1)
		if r != nil {
			return nil, r
		}
		return []byte(out), nil
	})
	if res != nil || err != nil {
		return entResult(res), nil, err
	}
	return tool.OK("the manual was edited"), &writeOut{EntityName: manualPath.Name(), Hash: string(h)}, nil
}

// addManualSectionIn is the input of add_manual_section.
type addManualSectionIn struct {
	TOC        string `json:"toc" jsonschema:"the heading of the section to add to, such as \"Relation vocabulary\"; created at the end when absent"`
	NewContent string `json:"new_content" jsonschema:"the Markdown to append to that section"`
	tool.LibraryArg
}

// addManualSection appends text to a section of meta.md, creating the section (and
// the manual) when needed.
func (e *env) addManualSection(ctx context.Context, call *tool.Call, in addManualSectionIn) (tool.Result, *writeOut, error) {
	l, res := e.library(ctx, call)
	if res != nil {
		return *res, nil, nil
	}
	toc := strings.TrimSpace(strings.TrimLeft(strings.TrimSpace(in.TOC), "#"))
	if toc == "" || strings.ContainsAny(toc, "\r\n") {
		return tool.Fail(tool.CodeInvalidArguments, "toc must be one heading's text, such as \"Entity types\""), nil, nil
	}
	if strings.TrimSpace(in.NewContent) == "" {
		return tool.Fail(tool.CodeInvalidArguments, "new_content is empty: give the text to add"), nil, nil
	}
	// Computed from the manual as it is when written, created when there is none.
	created, fresh := false, false
	h, res, err := rewriteFile(ctx, l, call, "add_manual_section", manualPath, "", func(data []byte, exists bool) ([]byte, *tool.Result) {
		out, made := addToSection(string(data), toc, note.InLineEndings(data, in.NewContent))
		created, fresh = made, !exists
		return []byte(out), nil
	})
	if res != nil || err != nil {
		return entResult(res), nil, err
	}
	msg := fmt.Sprintf("added to section %q of the manual", toc)
	switch {
	case fresh:
		msg = fmt.Sprintf("created the manual with section %q", toc)
	case created:
		msg = fmt.Sprintf("added section %q at the end of the manual", toc)
	}
	return tool.OK(msg), &writeOut{EntityName: manualPath.Name(), Hash: string(h)}, nil
}

// addToSection appends content at the end of the section headed toc (before the next
// heading of the same or a higher level), or adds "## toc" with content at the end;
// created says which.
func addToSection(text, toc, content string) (string, bool) {
	content = strings.Trim(content, "\r\n") + "\n"
	n := note.Parse([]byte(text))
	lines := strings.SplitAfter(text, "\n")
	for i, hd := range n.Headings {
		if !strings.EqualFold(strings.TrimSpace(hd.Text), toc) {
			continue
		}
		end := len(lines)
		for _, next := range n.Headings[i+1:] {
			if next.Level <= hd.Level {
				end = int(next.Line) - 1
				break
			}
		}
		for end > int(hd.Line) && strings.TrimSpace(lines[end-1]) == "" {
			end--
		}
		head := strings.Join(lines[:end], "")
		if !strings.HasSuffix(head, "\n") {
			head += "\n"
		}
		tail := strings.Join(lines[end:], "")
		if tail != "" && !strings.HasPrefix(tail, "\n") {
			content += "\n"
		}
		return head + "\n" + content + tail, false
	}
	if text != "" && !strings.HasSuffix(text, "\n") {
		text += "\n"
	}
	if strings.TrimSpace(text) != "" {
		text += "\n"
	}
	return text + "## " + toc + "\n\n" + content, true
}
