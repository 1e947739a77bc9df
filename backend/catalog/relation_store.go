package catalog

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"strings"
	"time"
	"unicode"

	"gopkg.in/yaml.v3"

	"github.com/memotree/memotree/backend/graph"
	"github.com/memotree/memotree/backend/library"
	"github.com/memotree/memotree/backend/note"
	"github.com/memotree/memotree/backend/tool"
	"github.com/memotree/memotree/backend/vault"
	"github.com/memotree/memotree/backend/vpath"
)

// The keys of a relation item in the front matter (seed 002).
const (
	relationsKey    = "relations"
	relationTypeKey = "relation type"
	relationToKey   = "relation to"
)

// Bounds on what a relation may hold.
const (
	maxRelationType   = 100
	maxRelationTarget = 300
	maxRelationsCall  = 200
)

// relationSpec is one relation as tools take it.
type relationSpec struct {
	From string `json:"from" jsonschema:"the note the relation starts from; it is stored in this note's front matter"`
	To   string `json:"to" jsonschema:"the note the relation points to (it may not exist yet)"`
	Type string `json:"type" jsonschema:"the relation type, such as \"collaborator of\""`
}

// relationOut is one relation in a result.
type relationOut struct {
	From     string `json:"from"`
	To       string `json:"to"`
	Type     string `json:"type"`
	Line     int    `json:"line,omitempty"`
	Dangling bool   `json:"dangling,omitempty"`
}

// checkRelationText validates a relation's type and target; it returns the cleaned
// values or a message saying what is wrong.
func checkRelationText(r relationSpec) (to, typ, problem string) {
	typ = strings.TrimSpace(r.Type)
	to = strings.TrimSpace(note.StripLink(strings.TrimSpace(r.To)))
	switch {
	case typ == "":
		return "", "", "type is empty: give a relation type such as \"collaborator of\""
	case len(typ) > maxRelationType || hasControl(typ):
		return "", "", fmt.Sprintf("type must be one line of at most %d bytes", maxRelationType)
	case strings.EqualFold(typ, graph.TypeLink) || strings.EqualFold(typ, graph.TypeEmbed):
		return "", "", fmt.Sprintf("%q is the type of body links; write a [[link]] in the text instead, or choose another type", typ)
	case to == "":
		return "", "", "to is empty: give the name of the note the relation points to"
	case len(to) > maxRelationTarget || hasControl(to) || strings.ContainsAny(to, badNameChars):
		return "", "", fmt.Sprintf("to %q is not a note name (one line, at most %d bytes, without any of %s)", clipName(to), maxRelationTarget, badNameChars)
	}
	p, err := vpath.Parse(to)
	if err != nil || p.Ignored() || p == "" {
		return "", "", fmt.Sprintf("to %q is not a note name inside the vault", clipName(to))
	}
	return to, typ, ""
}

// badNameChars are the characters Obsidian does not allow in a note's name, and those
// that would break the "[[...]]" form of a relation.
const badNameChars = `[]|^*"<>:?\`

// hasControl reports whether s holds a control character (line breaks, NUL).
func hasControl(s string) bool {
	return strings.IndexFunc(s, unicode.IsControl) >= 0
}

// clipName shortens a name for a message.
func clipName(s string) string {
	c, _ := clipText(s, 80)
	return c
}

// frontMatterRoot decodes the front matter of src as a YAML mapping node; nil when the
// note has none.
func frontMatterRoot(src []byte, n *note.Note) (*yaml.Node, error) {
	if n.FrontMatterEnd <= n.FrontMatterStart {
		return nil, nil
	}
	block := src[n.FrontMatterStart:n.FrontMatterEnd]
	block = block[bytes.IndexByte(block, '\n')+1:] // the opening fence
	if i := bytes.LastIndex(bytes.TrimRight(block, "\r\n"), []byte("\n")); i >= 0 {
		block = block[:i+1]
	} else {
		block = nil
	}
	var doc yaml.Node
	if err := yaml.Unmarshal(block, &doc); err != nil {
		return nil, fmt.Errorf("%w: %v", note.ErrBrokenFrontMatter, err)
	}
	if len(doc.Content) == 0 {
		return nil, nil
	}
	if doc.Content[0].Kind != yaml.MappingNode {
		return nil, note.ErrBrokenFrontMatter
	}
	return doc.Content[0], nil
}

// relationsSeq returns the "relations" list of the front matter of src (a new empty
// one when absent), which the caller may change and store with storeRelations. absent
// says the front matter is a non-empty mapping without a "relations" key at all.
func relationsSeq(src []byte, n *note.Note) (seq *yaml.Node, absent bool, err error) {
	root, err := frontMatterRoot(src, n)
	if err != nil {
		return nil, false, err
	}
	absent = root != nil
	if root != nil {
		for i := 0; i+1 < len(root.Content); i += 2 {
			if root.Content[i].Value == relationsKey {
				absent = false
				v := root.Content[i+1]
				if v.Kind == yaml.SequenceNode {
					return v, false, nil
				}
				if v.Kind == yaml.ScalarNode && (v.Tag == "!!null" || v.Value == "") {
					break
				}
				return nil, false, fmt.Errorf("%w: %q is not a list", note.ErrBrokenFrontMatter, relationsKey)
			}
		}
	}
	return &yaml.Node{Kind: yaml.SequenceNode, Tag: "!!seq"}, absent, nil
}

// relationItem builds a block-style relation item with the target in Obsidian's link
// form, so that Obsidian's own graph shows it.
func relationItem(typ, to string) *yaml.Node {
	str := func(s string, style yaml.Style) *yaml.Node {
		return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: s, Style: style}
	}
	return &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map", Content: []*yaml.Node{
		str(relationTypeKey, 0), str(typ, 0),
		str(relationToKey, 0), str(note.FormatWikiLink(to, "", "", false, false), yaml.DoubleQuotedStyle),
	}}
}

// itemFields returns the type and target name of a relation item.
func itemFields(item *yaml.Node) (typ, to string) {
	if item.Kind != yaml.MappingNode {
		return "", ""
	}
	for i := 0; i+1 < len(item.Content); i += 2 {
		switch item.Content[i].Value {
		case relationTypeKey:
			typ = strings.TrimSpace(item.Content[i+1].Value)
		case relationToKey:
			to = note.StripLink(item.Content[i+1].Value)
		}
	}
	return typ, to
}

// relSeqEdit changes the relations list of one note; it reports whether it changed
// anything.
type relSeqEdit func(seq *yaml.Node) bool

// relationsRewrite applies edit to the relations list of the note at p, whose content
// is src, changing only the "relations" key. It returns the new content, or nil when
// the note is left as it is, or the result to answer for this note; a Go error means
// the infrastructure failed.
func relationsRewrite(p vpath.Path, src []byte, edit relSeqEdit) ([]byte, *tool.Result, error) {
	n := note.Parse(src)
	seq, absent, err := relationsSeq(src, n)
	if err != nil {
		r := tool.Fail(tool.CodeConflict, "%s: the front matter cannot be read (%v); fix it by hand first", p.Name(), err)
		return nil, &r, nil
	}
	if !edit(seq) {
		return nil, nil, nil
	}
	if absent {
		if out, ok := appendRelationsKey(src, n, seq); ok {
			return touchModified(out, time.Now()), nil, nil
		}
	}
	var set []note.Property
	var remove []string
	if len(seq.Content) == 0 {
		remove = []string{relationsKey}
	} else {
		set = []note.Property{{Key: relationsKey, Value: seq}}
	}
	out, err := note.SetProperties(src, set, remove)
	if err != nil {
		if errors.Is(err, note.ErrBrokenFrontMatter) || errors.Is(err, note.ErrNotUTF8) {
			r := tool.Fail(tool.CodeConflict, "%s cannot be rewritten safely: %v; fix it by hand first", p.Name(), err)
			return nil, &r, nil
		}
		return nil, nil, fmt.Errorf("rewrite relations of %s: %w", p, err)
	}
	return note.KeepStyle(src, touchModified(dropEmptyFrontMatter(out), time.Now())), nil, nil
}

// relRewrite is a rewrite of the relations lists of several notes, made from their
// content as it is when they are written (vault.Update): two writers adding or
// removing relations never conflict, and neither loses the other's.
type relRewrite struct {
	// start runs before each attempt (an outside save can make the vault read the
	// notes again): it resets what edit and skip accumulate.
	start func()
	// edit changes the relations list of the note at p.
	edit func(p vpath.Path, seq *yaml.Node) bool
	// skip hears of a note that cannot be rewritten, with the reason.
	skip func(p vpath.Path, why *tool.Result)
	// wrote, when set, hears of a note whose rewrite is in the batch.
	wrote func(p vpath.Path)
}

// run rewrites the notes at paths through the library, all or nothing, which indexes
// them; fail is the answer when the batch was refused (nothing was written then).
func (rw relRewrite) run(ctx context.Context, call *tool.Call, l *library.Library, op string, paths []vpath.Path) (fail *tool.Result, err error) {
	_, err = l.Update(ctx, paths, func(cur map[vpath.Path]vault.Current) ([]vault.Change, error) {
		rw.start()
		var changes []vault.Change
		for _, p := range paths {
			c := cur[p]
			if !c.Exists {
				r, _ := writeFailure(p, vault.ErrNotFound)
				rw.skip(p, &r)
				continue
			}
			out, res, err := relationsRewrite(p, c.Data, func(seq *yaml.Node) bool { return rw.edit(p, seq) })
			switch {
			case err != nil:
				return nil, err
			case res != nil:
				rw.skip(p, res)
			case out != nil:
				changes = append(changes, vault.Change{Path: p, Data: out})
				if rw.wrote != nil {
					rw.wrote(p)
				}
			}
		}
		return changes, nil
	}, writeOpts(call, op))
	if err != nil {
		failed := paths[0]
		var pe *fs.PathError
		if errors.As(err, &pe) {
			failed = vpath.Path(pe.Path)
		}
		if r, ok := writeFailure(failed, err); ok {
			r.Message += "; no relation was changed"
			return &r, nil
		}
		return nil, fmt.Errorf("%s: %w", op, err)
	}
	return nil, nil
}

// dropEmptyFrontMatter removes a front matter block left with no keys at all (after
// its last relation was removed), so a note that had none gets none back.
func dropEmptyFrontMatter(b []byte) []byte {
	bom := []byte("\ufeff")
	head := b
	if bytes.HasPrefix(head, bom) {
		head = head[len(bom):]
	}
	for _, empty := range []string{"---\n---\n", "---\r\n---\r\n"} {
		if bytes.HasPrefix(head, []byte(empty)) {
			return append(b[:len(b)-len(head)], head[len(empty):]...)
		}
	}
	return b
}
