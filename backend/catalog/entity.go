package catalog

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"gopkg.in/yaml.v3"

	"github.com/memotree/memotree/backend/library"
	"github.com/memotree/memotree/backend/note"
	"github.com/memotree/memotree/backend/tool"
	"github.com/memotree/memotree/backend/vault"
	"github.com/memotree/memotree/backend/vpath"
)

func init() { families = append(families, entityTools) }

// The Refs of the entity tools: each tool is declared through its Ref, which names it
// with its input and output types, so that the compiler checks its handler and rules.
var (
	createEntity   = tool.NewRef[createEntityIn, *writeOut]("create_entity")
	addEntities    = tool.NewRef[addEntitiesIn, *batchOut]("add_entities")
	readEntities   = tool.NewRef[readEntitiesIn, *readEntitiesOut]("read_entities")
	listEntities   = tool.NewRef[listEntitiesIn, *entityListOut[string]]("list_entities")
	getEntitiesTOC = tool.NewRef[tocIn, *tocOut]("get_entities_toc")
	updateEntity   = tool.NewRef[updateEntityIn, *writeOut]("update_entity")
	editEntity     = tool.NewRef[editEntityIn, *writeOut]("edit_entity")
	deleteEntities = tool.NewRef[deleteEntitiesIn, *deleteOut]("delete_entities")
	renameEntity   = tool.NewRef[renameEntityIn, *renameOut]("rename_entity")
	moveEntity     = tool.NewRef[moveEntityIn, *renameOut]("move_entity")
	mergeEntities  = tool.NewRef[mergeEntitiesIn, *mergeOut]("merge_entities")
)

// entityTools is the entity family: create, read, list, update, edit, delete, rename,
// move and merge notes.
func entityTools(e *env) []*tool.Tool {
	return []*tool.Tool{
		createEntity.New(tool.Write, desc("create_entity"), e.createEntity).Enum("initial_level", "title", "summary", "full"),
		addEntities.New(tool.Write, desc("add_entities"), e.addEntities),
		readEntities.New(tool.ReadOnly, desc("read_entities"), e.readEntities),
		listEntities.New(tool.ReadOnly, desc("list_entities"), e.listEntities),
		getEntitiesTOC.New(tool.ReadOnly, desc("get_entities_toc"), e.getEntitiesTOC),
		updateEntity.New(tool.Write, desc("update_entity"), e.updateEntity).
			Enum("mode", "merge", "replace", "append", "prepend").Enum("level", "title", "summary", "full"),
		editEntity.New(tool.Write, desc("edit_entity"), e.editEntity),
		deleteEntities.New(tool.Destructive, desc("delete_entities"), e.deleteEntities),
		renameEntity.New(tool.Write, desc("rename_entity"), e.renameEntity),
		moveEntity.New(tool.Write, desc("move_entity"), e.moveEntity),
		mergeEntities.New(tool.Destructive, desc("merge_entities"), e.mergeEntities),
	}
}

// relationIn is one typed relation given to create_entity.
type relationIn struct {
	Type string `json:"type" jsonschema:"the relation type, such as \"collaborator of\" (see the manual's vocabulary)"`
	To   string `json:"to" jsonschema:"the entity the relation points to"`
}

// entityIn describes one new entity.
type entityIn struct {
	EntityName string       `json:"entity_name" jsonschema:"the new note's name: a vault-relative path without .md, such as \"people/Ada Lovelace\""`
	EntityType string       `json:"entity_type,omitempty" jsonschema:"the entity type, such as person or project"`
	Content    string       `json:"content,omitempty" jsonschema:"the Markdown body"`
	Aliases    []string     `json:"aliases,omitempty" jsonschema:"other names of the entity"`
	Tags       []string     `json:"tags,omitempty" jsonschema:"tags, without #"`
	Relations  []relationIn `json:"relations,omitempty" jsonschema:"typed relations from this entity"`
	Summary    string       `json:"summary,omitempty" jsonschema:"a one-line summary"`
	Title      string       `json:"title,omitempty" jsonschema:"a title property, shown instead of the name by some Obsidian themes (the note's name is entity_name)"`
}

// createEntityIn is the input of create_entity.
type createEntityIn struct {
	entityIn
	InitialLevel        string `json:"initial_level,omitempty" jsonschema:"title, summary or full: the level the new note starts at on your canvas (default view); absent leaves the canvas as it is"`
	AutoGenerateSummary *bool  `json:"auto_generate_summary,omitempty" jsonschema:"true: the model writes a summary when none is given; false: never; absent: as the library's auto_summary setting says"`
	tool.LibraryArg
}

// createEntity writes a new note; it never overwrites.
func (e *env) createEntity(ctx context.Context, call *tool.Call, in createEntityIn) (tool.Result, *writeOut, error) {
	l, res, err := e.loaded(ctx, call)
	if res != nil || err != nil {
		return deref(res), nil, err
	}
	st := readLinkStyle(l.Library)
	p, data, res := buildEntity(in.entityIn, time.Now(), func(p vpath.Path, to string) string { return st.relationTarget(l.Graph(), p, to) })
	if res != nil {
		return *res, nil, nil
	}
	p = respell(l, p)
	if entityExists(l.Library, p) {
		return tool.Fail(tool.CodeAlreadyExists, "%s already exists; update_entity or edit_entity change it, or choose another name", p.Name()), nil, nil
	}
	if res := twin(l, p, ""); res != nil {
		return *res, nil, nil
	}
	h, err := l.Write(ctx, p, data, createOpts(call, "create_entity"))
	if err != nil {
		return entFailWrite[*writeOut](p, err)
	}
	r := tool.OK(fmt.Sprintf("created %s", p.Name()))
	out := &writeOut{EntityName: p.Name(), Hash: string(h)}
	for _, w := range danglingRelations(l, p, in.Relations) {
		r = r.WithWarning("%s", w)
	}
	if st.problem != "" && len(in.Relations) > 0 {
		r = r.WithWarning("%s", st.problem)
	}
	r = e.autoSummary(ctx, call, l.Library, p, r, out, summaryFor(in.AutoGenerateSummary))
	return e.showAt(ctx, l.Library, p, in.InitialLevel, r), out, nil
}

// writeOut is the output of the tools that write one note: its name and new content
// hash, and the summary the model wrote for it, if any (a new manual has no name).
type writeOut struct {
	EntityName string `json:"entity_name,omitempty"`
	Hash       string `json:"hash"`
	Summary    string `json:"summary,omitempty"`
}

// entFailWrite answers a failed vault write: a result for what the caller can fix, a
// Go error for a broken infrastructure.
func entFailWrite[Out any](p vpath.Path, err error) (tool.Result, Out, error) {
	var none Out
	if r, ok := writeFailure(p, err); ok {
		return r, none, nil
	}
	return tool.Result{}, none, err
}

// entNewPath is newPath for a name a note will take: it also refuses characters that
// a wikilink cannot carry ([ ] | # ^) and control characters, so that every note a
// tool names can be linked to.
func entNewPath(name string) (vpath.Path, *tool.Result) {
	if i := strings.IndexFunc(name, func(r rune) bool { return strings.ContainsRune("[]|#^", r) || r < ' ' || r == 0x7f }); i >= 0 {
		r := tool.Fail(tool.CodeInvalidArguments, "entity name %q: %q cannot be used in a name, since links could not reach the note; leave it out", entClip(name), name[i:i+1])
		return "", &r
	}
	return newPath(name)
}

// buildEntity checks a new entity and returns its path and file content.
// target writes a relation's target for a note at p (see linkStyle.relationTarget).
func buildEntity(in entityIn, now time.Time, target func(p vpath.Path, to string) string) (vpath.Path, []byte, *tool.Result) {
	p, res := entNewPath(in.EntityName)
	if res != nil {
		return "", nil, res
	}
	for _, r := range in.Relations {
		if strings.TrimSpace(r.To) == "" || strings.TrimSpace(r.Type) == "" {
			f := tool.Fail(tool.CodeInvalidArguments, "every relation needs a type and a to, such as {\"type\":\"works on\",\"to\":\"Engine\"}")
			return "", nil, &f
		}
	}
	stamp := now.Truncate(time.Second)
	body := in.Content
	if body != "" && !strings.HasSuffix(body, "\n") {
		body += "\n"
	}
	if !strings.HasPrefix(body, "---") && body != "" {
		body = "\n" + body
	}
	typ, aliases, tags := strings.TrimSpace(in.EntityType), entCleanList(in.Aliases, false), entCleanList(in.Tags, true)
	summary, title := strings.TrimSpace(in.Summary), strings.TrimSpace(in.Title)
	if len(in.Relations) == 0 && title == "" {
		if data, ok := emitEntity(typ, aliases, stamp, tags, summary, body); ok {
			return p, data, nil
		}
	}
	var rels any
	if len(in.Relations) > 0 {
		rels = relationsNode(in.Relations, func(to string) string { return target(p, to) })
	}
	props := entityProps(typ, aliases, stamp, rels, tags, summary)
	if title != "" {
		props = append([]note.Property{{Key: "title", Value: title}}, props...)
	}
	data, err := note.SetProperties([]byte(body), props, nil)
	if err != nil {
		f := tool.Fail(tool.CodeInvalidArguments, "the content's front matter cannot be used: %v; give the body only and pass properties as arguments", err)
		return "", nil, &f
	}
	return p, data, nil
}

// entityProps lists the front matter of a new note in DESIGN's order, leaving out what
// is empty; rels is the relations list (nil for none).
func entityProps(typ string, aliases []string, stamp time.Time, rels any, tags []string, summary string) []note.Property {
	var props []note.Property
	if typ != "" {
		props = append(props, note.Property{Key: "entity type", Value: typ})
	}
	if len(aliases) > 0 {
		props = append(props, note.Property{Key: "aliases", Value: aliases})
	}
	// Obsidian's "Date & time" form, local time (see note.DateLayout).
	props = append(props, note.Property{Key: "date created", Value: note.DateValue(nil, "date created", stamp)},
		note.Property{Key: "date modified", Value: note.DateValue(nil, "date modified", stamp)})
	if rels != nil {
		props = append(props, note.Property{Key: "relations", Value: rels})
	}
	if len(tags) > 0 {
		props = append(props, note.Property{Key: "tags", Value: tags})
	}
	if summary != "" {
		props = append(props, note.Property{Key: "summary", Value: summary})
	}
	return props
}

// cleanList trims, drops empty and duplicate (case-insensitive) items; for tags a
// leading # is removed.
func entCleanList(in []string, tags bool) []string {
	var out []string
	seen := map[string]bool{}
	for _, s := range in {
		s = strings.TrimSpace(s)
		if tags {
			s = strings.TrimLeft(s, "#")
		}
		if k := strings.ToLower(s); s != "" && !seen[k] {
			seen[k] = true
			out = append(out, s)
		}
	}
	return out
}

// relationsNode renders relations in the vault's format, with "relation to" as a
// double-quoted wikilink so that Obsidian's graph shows the edge.
func relationsNode(rels []relationIn, target func(to string) string) *yaml.Node {
	seq := &yaml.Node{Kind: yaml.SequenceNode}
	for _, r := range rels {
		seq.Content = append(seq.Content, entRelationItem(r.Type, "[["+target(note.StripLink(r.To))+"]]"))
	}
	return seq
}

// entRelationItem is one relation mapping: relation type, then relation to.
func entRelationItem(typ, to string) *yaml.Node {
	str := func(s string, style yaml.Style) *yaml.Node {
		return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: s, Style: style}
	}
	return &yaml.Node{Kind: yaml.MappingNode, Content: []*yaml.Node{
		str("relation type", 0), str(strings.TrimSpace(typ), 0),
		str("relation to", 0), str(to, yaml.DoubleQuotedStyle),
	}}
}

// danglingRelations warns about relations of the note at p whose target is not a note.
func danglingRelations(l lib, p vpath.Path, rels []relationIn) []string {
	var out []string
	for _, r := range rels {
		if _, ok := l.Graph().Resolve(p, note.StripLink(r.To)); !ok {
			out = append(out, fmt.Sprintf("relation %q points to %q, which does not exist yet", r.Type, note.StripLink(r.To)))
		}
	}
	return out
}

// addEntitiesIn is the input of add_entities.
type addEntitiesIn struct {
	Entities []entityIn `json:"entities" jsonschema:"the entities to create, each as for create_entity"`
	tool.LibraryArg
}

// addEntities creates several notes; those that cannot be created are listed.
func (e *env) addEntities(ctx context.Context, call *tool.Call, in addEntitiesIn) (tool.Result, *batchOut, error) {
	l, res, err := e.loaded(ctx, call)
	if res != nil || err != nil {
		return deref(res), nil, err
	}
	if len(in.Entities) == 0 {
		return tool.Fail(tool.CodeInvalidArguments, "entities is empty: give at least one {entity_name, content?}"), nil, nil
	}
	now := time.Now()
	st := readLinkStyle(l.Library)
	target := func(p vpath.Path, to string) string { return st.relationTarget(l.Graph(), p, to) }
	var steps []step
	var failed []string
	seen := map[string]bool{}
	for _, ent := range in.Entities {
		p, data, res := buildEntity(ent, now, target)
		if res == nil {
			p = respell(l, p)
		}
		switch {
		case res != nil:
			failed = append(failed, fmt.Sprintf("%s: %s", ent.EntityName, res.Message))
		case seen[strings.ToLower(string(p))]:
			failed = append(failed, fmt.Sprintf("%s: given twice in this batch", p.Name()))
		case entityExists(l.Library, p):
			failed = append(failed, fmt.Sprintf("%s: already exists; update_entity changes it", p.Name()))
		case twin(l, p, "") != nil:
			failed = append(failed, fmt.Sprintf("%s: %s", p.Name(), twin(l, p, "").Message))
		default:
			seen[strings.ToLower(string(p))] = true
			steps = append(steps, step{kind: stepCreate, path: p, data: data})
		}
	}
	return e.finishBatch(ctx, call, l, steps, failed, "add_entities")
}

// finishBatch applies the creations of add_entities and reports what failed.
func (e *env) finishBatch(ctx context.Context, call *tool.Call, l lib, steps []step, failed []string, op string) (tool.Result, *batchOut, error) {
	if len(steps) == 0 {
		return tool.Fail(tool.CodeInvalidArguments, "no entity was created: %s", strings.Join(failed, "; ")), nil, nil
	}
	if r, err := applySteps(ctx, l, call, op, steps); r != nil || err != nil {
		return entResult(r), nil, err
	}
	out := &batchOut{Created: make([]string, len(steps)), Failed: failed}
	for i, s := range steps {
		out.Created[i] = s.path.Name()
	}
	out.CreatedEntities = out.Created
	if len(failed) > 0 {
		return tool.Partial(fmt.Sprintf("created %d of %d entities", len(out.Created), len(out.Created)+len(failed)), failed...), out, nil
	}
	return tool.OK(fmt.Sprintf("created %d entities", len(out.Created))), out, nil
}

// batchOut is the output of add_entities: the notes created (under seed 002's key too,
// see docs/SEEDS.md), and those that could not be, with why.
type batchOut struct {
	Created         []string `json:"created"`
	CreatedEntities []string `json:"created_entities"`
	Failed          []string `json:"failed,omitempty"`
}

// resultOr dereferences r, or returns the zero Result.
func entResult(r *tool.Result) tool.Result {
	if r == nil {
		return tool.Result{}
	}
	return *r
}

// exists reports whether a file (or folder) exists at p.
func entityExists(l *library.Library, p vpath.Path) bool {
	_, err := l.Vault().Stat(p)
	return err == nil || !errors.Is(err, vault.ErrNotFound)
}

// entClip shortens a name for a message.
func entClip(s string) string {
	if c, clipped := tool.Clip(s, 80); clipped {
		return c + "…"
	}
	return s
}
