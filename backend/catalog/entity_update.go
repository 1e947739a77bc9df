package catalog

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/memotree/memotree/backend/note"
	"github.com/memotree/memotree/backend/tool"
	"github.com/memotree/memotree/backend/vpath"
)

// updateEntityIn is the input of update_entity.
type updateEntityIn struct {
	EntityName string   `json:"entity_name" jsonschema:"the note to update"`
	Content    *string  `json:"content,omitempty" jsonschema:"Markdown body text (without front matter)"`
	Title      string   `json:"title,omitempty" jsonschema:"sets the title property (to rename the note use rename_entity)"`
	Tags       []string `json:"tags,omitempty" jsonschema:"tags; merged with the existing ones in merge, append and prepend modes, replacing them in replace mode"`
	EntityType string   `json:"entity_type,omitempty" jsonschema:"the entity type"`
	Aliases    []string `json:"aliases,omitempty" jsonschema:"aliases; merged or replaced like tags"`
	Summary    string   `json:"summary,omitempty" jsonschema:"sets the one-line summary property"`
	Mode       string   `json:"mode,omitempty" jsonschema:"merge (default): properties merged, body replaced only if content is given; replace: body replaced; append or prepend: content added to the body"`
	Level      string   `json:"level,omitempty" jsonschema:"title, summary or full: the level the note takes on your canvas (default view) after the update"`
	// RegenerateSummary asks the model for a new summary (seed 000).
	RegenerateSummary bool   `json:"regenerate_summary,omitempty" jsonschema:"the model writes a new summary, replacing the one the note has (needs a configured model)"`
	BaseHash          string `json:"base_hash,omitempty" jsonschema:"the hash read_entities returned; the update fails with conflict if the note changed since"`
	tool.LibraryArg
}

// updateEntity changes a note's properties and body.
func (e *env) updateEntity(ctx context.Context, call *tool.Call, in updateEntityIn) (tool.Result, *writeOut, error) {
	l, res := e.library(ctx, call)
	if res != nil {
		return *res, nil, nil
	}
	mode := in.Mode
	if mode == "" {
		mode = "merge"
	}
	if in.Content != nil && entHasFrontMatter(*in.Content) {
		return tool.Fail(tool.CodeInvalidArguments, "content starts with front matter: give the body only, and properties as tags, aliases, entity_type, title"), nil, nil
	}
	if (mode == "append" || mode == "prepend") && in.Content == nil {
		return tool.Fail(tool.CodeInvalidArguments, "mode %s needs content", mode), nil, nil
	}
	if in.RegenerateSummary && strings.TrimSpace(in.Summary) != "" {
		return tool.Fail(tool.CodeInvalidArguments, "summary and regenerate_summary ask for two summaries: give summary to write yours, or regenerate_summary for the model's"), nil, nil
	}
	p, _, h, res, err := readEntity(ctx, l, in.EntityName)
	if res != nil || err != nil {
		return entResult(res), nil, err
	}
	if r := checkBase(p, in.BaseHash, h); r != nil {
		return *r, nil, nil
	}
	when := summaryBySetting
	if in.RegenerateSummary {
		when = summaryAlways
	}
	if !changesNote(in) {
		// Only the canvas level or a new summary: the note is not rewritten for them.
		r := tool.OK(fmt.Sprintf("%s is unchanged", p.Name()))
		w := &writeOut{EntityName: p.Name(), Hash: string(h)}
		if when == summaryAlways {
			r = e.autoSummary(ctx, call, l, p, r, w, when)
		}
		return e.showAt(ctx, l, p, in.Level, r), w, nil
	}
	// Computed from the note as it is when written (under the vault lock): an append or
	// a merge of properties never conflicts with another writer's (see rewriteFile).
	h, res, err = rewriteFile(ctx, l, call, "update_entity", p, in.BaseHash, func(data []byte, exists bool) ([]byte, *tool.Result) {
		if r := mustExist(p, exists); r != nil {
			return nil, r
		}
		n := note.Parse(data)
		out, err := note.SetProperties(data, updateProps(n, data, in, mode == "replace"), nil)
		if err != nil {
			r := tool.Fail(tool.CodeInvalidArguments, "%s cannot be updated: %v; fix its front matter first (edit_entity)", p.Name(), err)
			return nil, &r
		}
		if in.Content != nil {
			out = setBody(out, *in.Content, mode)
		}
		return out, nil
	})
	if res != nil || err != nil {
		return entResult(res), nil, err
	}
	r := tool.OK(fmt.Sprintf("updated %s (%s)", p.Name(), mode))
	w := &writeOut{EntityName: p.Name(), Hash: string(h)}
	r = e.autoSummary(ctx, call, l, p, r, w, when)
	return e.showAt(ctx, l, p, in.Level, r), w, nil
}

// changesNote reports whether an update_entity call changes the note itself, rather
// than only its canvas level or its summary by the model.
func changesNote(in updateEntityIn) bool {
	return in.Content != nil || len(in.Tags) > 0 || len(in.Aliases) > 0 ||
		strings.TrimSpace(in.Title) != "" || strings.TrimSpace(in.EntityType) != "" || strings.TrimSpace(in.Summary) != ""
}

// hasFrontMatter reports whether s starts with a front matter fence.
func entHasFrontMatter(s string) bool {
	s = strings.TrimPrefix(s, "\uFEFF")
	return strings.HasPrefix(s, "---\n") || strings.HasPrefix(s, "---\r\n")
}

// updateProps lists the front matter changes of update_entity.
func updateProps(n *note.Note, src []byte, in updateEntityIn, replace bool) []note.Property {
	var set []note.Property
	if t := strings.TrimSpace(in.EntityType); t != "" {
		key := "entity type"
		if _, ok := n.Properties["entity type"]; !ok {
			if _, ok := n.Properties["type"]; ok {
				key = "type"
			}
		}
		set = append(set, note.Property{Key: key, Value: t})
	}
	if t := strings.TrimSpace(in.Title); t != "" {
		set = append(set, note.Property{Key: "title", Value: t})
	}
	if t := strings.TrimSpace(in.Summary); t != "" {
		set = append(set, note.Property{Key: "summary", Value: t})
	}
	if len(in.Aliases) > 0 {
		a := in.Aliases
		if !replace {
			a = append(append([]string{}, n.Aliases...), a...)
		}
		set = append(set, note.Property{Key: "aliases", Value: entCleanList(a, false)})
	}
	if len(in.Tags) > 0 {
		t := in.Tags
		if !replace {
			t = append(frontMatterTags(n), t...)
		}
		set = append(set, note.Property{Key: "tags", Value: entCleanList(t, true)})
	}
	return append(set, note.Property{Key: dateModifiedKey, Value: modifiedValue(src, time.Now())})
}

// frontMatterTags returns the tags a note declares in its front matter.
func frontMatterTags(n *note.Note) []string {
	var out []string
	for _, t := range n.Tags {
		if t.Line == 0 {
			out = append(out, t.Name)
		}
	}
	return out
}

// setBody replaces, appends to or prepends to the body of src, writing line breaks as
// src writes them.
func setBody(src []byte, content, mode string) []byte {
	start := note.Parse(src).BodyStart
	nl := note.LineEnding(src)
	head, body := string(src[:start]), string(src[start:])
	content = note.InLineEndings(src, content)
	if content != "" && !strings.HasSuffix(content, "\n") {
		content += nl
	}
	switch mode {
	case "append":
		if body != "" && !strings.HasSuffix(body, "\n") {
			body += nl
		}
		if strings.TrimSpace(body) != "" {
			body += nl
		}
		body += content
	case "prepend":
		lead := body[:len(body)-len(strings.TrimLeft(body, "\r\n"))] // the blank line after the front matter
		if start > 0 && lead == "" {
			lead = nl
		}
		body = lead + content + nl + strings.TrimLeft(body, "\r\n")
	default:
		lead := body[:len(body)-len(strings.TrimLeft(body, "\r\n"))]
		if start > 0 && body == "" {
			lead = nl
		}
		body = lead + content
	}
	return []byte(head + body)
}

// editEntityIn is the input of edit_entity.
type editEntityIn struct {
	EntityName    string `json:"entity_name" jsonschema:"the note to edit"`
	OldContent    string `json:"old_content" jsonschema:"the exact text to replace, copied from read_entities"`
	NewContent    string `json:"new_content" jsonschema:"the text to put in its place (empty deletes it)"`
	ExpectedCount int    `json:"expected_count,omitempty" jsonschema:"how many times old_content must occur (default 1); all occurrences are replaced"`
	BaseHash      string `json:"base_hash,omitempty" jsonschema:"the hash read_entities returned; the edit fails with conflict if the note changed since"`
	tool.LibraryArg
}

// editEntity replaces exact text in a note.
func (e *env) editEntity(ctx context.Context, call *tool.Call, in editEntityIn) (tool.Result, *writeOut, error) {
	l, res := e.library(ctx, call)
	if res != nil {
		return *res, nil, nil
	}
	if in.OldContent == "" {
		return tool.Fail(tool.CodeInvalidArguments, "old_content is empty: copy the exact text to replace; to add text use update_entity with mode append"), nil, nil
	}
	want := in.ExpectedCount
	if want < 0 {
		return tool.Fail(tool.CodeInvalidArguments, "expected_count must be 1 or more"), nil, nil
	}
	want = max(want, 1)
	p, res, err := findEntity(ctx, l, in.EntityName)
	if res != nil || err != nil {
		return deref(res), nil, err
	}
	h, res, err := rewriteFile(ctx, l, call, "edit_entity", p, in.BaseHash, func(data []byte, exists bool) ([]byte, *tool.Result) {
		if r := mustExist(p, exists); r != nil {
			return nil, r
		}
		old, repl := note.InLineEndings(data, in.OldContent), note.InLineEndings(data, in.NewContent)
		out, r := replaceExact(p.Name(), string(data), old, repl, want)
		if r != nil {
			return nil, r
		}
		return touchModified([]byte(out), time.Now()), nil
	})
	if res != nil || err != nil {
		return entResult(res), nil, err
	}
	return tool.OK(fmt.Sprintf("replaced %d occurrence(s) in %s", want, p.Name())), &writeOut{EntityName: p.Name(), Hash: string(h)}, nil
}

// replaceExact replaces old by repl in text, which must hold it exactly want times;
// otherwise it answers no_match or count_mismatch with the text near the spot.
func replaceExact(name, text, old, repl string, want int) (string, *tool.Result) {
	got := strings.Count(text, old)
	if got == want {
		return strings.ReplaceAll(text, old, repl), nil
	}
	if got == 0 {
		line, snippet := nearestSpot(text, old)
		r := tool.Fail(tool.CodeNoMatch, "old_content does not occur in %s; the closest text is at line %d (shown in data.nearest); copy it exactly, whitespace included, and retry", name, line)
		if line == 0 {
			r.Message = fmt.Sprintf("old_content does not occur in %s; read_entities it and copy the text exactly", name)
		}
		if strings.Count(entCollapseSpace(text), entCollapseSpace(old)) > 0 {
			r.Message += "; it differs only in white space or line breaks"
		}
		r.Data = struct {
			Line    int    `json:"line"`
			Nearest string `json:"nearest"`
		}{line, snippet}
		return "", &r
	}
	r := tool.Fail(tool.CodeCountMismatch, "old_content occurs %d times in %s, not %d; add surrounding text to make it unique, or set expected_count=%d to replace all", got, name, want, got)
	r.Data = struct {
		Lines []int `json:"lines"`
	}{occurrenceLines(text, old)}
	return "", &r
}

// collapseSpace replaces every run of white space by one space.
func entCollapseSpace(s string) string { return strings.Join(strings.Fields(s), " ") }

// occurrenceLines lists the 1-based lines where old starts in text.
func occurrenceLines(text, old string) []int {
	var out []int
	for i := 0; ; {
		j := strings.Index(text[i:], old)
		if j < 0 || len(out) >= 50 {
			return out
		}
		out = append(out, strings.Count(text[:i+j], "\n")+1)
		i += j + max(len(old), 1)
	}
}

// nearestSpot finds the line of text most like the first line of old and returns its
// 1-based number and the numbered lines around it.
func nearestSpot(text, old string) (int, string) {
	lines := strings.Split(text, "\n")
	probe := ""
	for _, s := range strings.Split(old, "\n") {
		if strings.TrimSpace(s) != "" {
			probe = strings.TrimSpace(s)
			break
		}
	}
	if probe == "" || len(lines) == 0 {
		return 0, ""
	}
	trimmed := make([]string, len(lines))
	for i, s := range lines {
		trimmed[i] = strings.TrimSpace(s)
	}
	best := tool.Nearest(probe, trimmed, 1)
	if len(best) == 0 {
		return 0, ""
	}
	at := slices.Index(trimmed, best[0])
	var b strings.Builder
	for i := max(at-2, 0); i < min(at+3+strings.Count(old, "\n"), len(lines)); i++ {
		fmt.Fprintf(&b, "%s\n", strings.TrimRight(fmt.Sprintf("%d| %s", i+1, lines[i]), " \t\r"))
	}
	return at + 1, b.String()
}

// deleteEntitiesIn is the input of delete_entities.
type deleteEntitiesIn struct {
	EntityNames []string `json:"entity_names" jsonschema:"the notes to delete"`
	tool.LibraryArg
}

// deleteEntities removes notes and reports the links left dangling.
func (e *env) deleteEntities(ctx context.Context, call *tool.Call, in deleteEntitiesIn) (tool.Result, *deleteOut, error) {
	l, res, err := e.loaded(ctx, call)
	if res != nil || err != nil {
		return deref(res), nil, err
	}
	if len(in.EntityNames) == 0 {
		return tool.Fail(tool.CodeInvalidArguments, "entity_names is empty: give the notes to delete"), nil, nil
	}
	var failed []string
	var steps []step
	gone := map[vpath.Path]bool{}
	for _, name := range in.EntityNames {
		p, data, h, res, err := readEntity(ctx, l.Library, name)
		if err != nil {
			return tool.Result{}, nil, err
		}
		if res != nil {
			failed = append(failed, res.Message)
			continue
		}
		if !gone[p] {
			gone[p] = true
			steps = append(steps, step{kind: stepRemove, path: p, old: data, hash: h})
		}
	}
	if len(steps) == 0 {
		return tool.Fail(tool.CodeNotFound, "nothing deleted: %s", strings.Join(failed, "; ")), nil, nil
	}
	dangling := danglingAfter(l, gone)
	if r, err := applySteps(ctx, l, call, "delete_entities", steps); r != nil || err != nil {
		return entResult(r), nil, err
	}
	deleted := make([]string, len(steps))
	for i, s := range steps {
		deleted[i] = s.path.Name()
	}
	out := &deleteOut{Deleted: deleted, DeletedEntities: deleted}
	msg := fmt.Sprintf("deleted %d entities", len(deleted))
	if len(dangling) > 0 {
		out.DanglingLinks = dangling
		msg += fmt.Sprintf("; %d links in other notes now point nowhere (data.dangling_links): fix them with edit_entity", len(dangling))
	}
	if len(failed) > 0 {
		return tool.Partial(msg, failed...), out, nil
	}
	return tool.OK(msg), out, nil
}

// deleteOut is the output of delete_entities: the notes deleted (under seed 002's key
// too, see docs/SEEDS.md), and the links of other notes that now point nowhere.
type deleteOut struct {
	DanglingLinks   []string `json:"dangling_links,omitempty"`
	Deleted         []string `json:"deleted"`
	DeletedEntities []string `json:"deleted_entities"`
}

// danglingAfter lists the links and relations of other notes to the notes in gone.
func danglingAfter(l lib, gone map[vpath.Path]bool) []string {
	var out []string
	for p := range gone {
		for _, ed := range l.Graph().Backlinks(p) {
			if gone[ed.From] {
				continue
			}
			where := ""
			if ed.Link != nil {
				where = fmt.Sprintf(" (line %d)", ed.Link.Line)
			}
			out = append(out, fmt.Sprintf("%s%s %s %s", ed.From.Name(), where, ed.Type, p.Name()))
		}
	}
	return out
}
