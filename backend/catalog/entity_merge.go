package catalog

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"gopkg.in/yaml.v3"

	"github.com/memotree/memotree/backend/graph"
	"github.com/memotree/memotree/backend/note"
	"github.com/memotree/memotree/backend/tool"
	"github.com/memotree/memotree/backend/vault"
	"github.com/memotree/memotree/backend/vpath"
)

// mergeEntitiesIn is the input of merge_entities.
type mergeEntitiesIn struct {
	SourceNames []string `json:"source_names" jsonschema:"the notes to merge into the target; they are removed"`
	TargetName  string   `json:"target_name" jsonschema:"the note that receives them and stays"`
	tool.LibraryArg
}

// mergeSource is one note being merged, as read.
type mergeSource struct {
	path vpath.Path
	data []byte
	hash vault.Hash
	note *note.Note
}

// mergeEntities joins notes into a target and re-points every link to them.
func (e *env) mergeEntities(ctx context.Context, call *tool.Call, in mergeEntitiesIn) (tool.Result, *mergeOut, error) {
	l, res, err := e.loaded(ctx, call)
	if res != nil || err != nil {
		return deref(res), nil, err
	}
	target, res, err := findEntity(ctx, l.Library, in.TargetName)
	if res != nil || err != nil {
		return deref(res), nil, err
	}
	srcs, res, err := readSources(ctx, l, in.SourceNames, target)
	if res != nil || err != nil {
		return entResult(res), nil, err
	}
	g := l.Graph()
	r := relinker{g: g, moved: map[vpath.Path]linkDest{}}
	paths := make([]vpath.Path, len(srcs))
	for i, s := range srcs {
		paths[i] = s.path
		r.moved[s.path] = linkDest{path: target, short: uniqueBase(g, target), heading: entBase(s.path)}
	}
	tstep, warns, res, err := mergedTarget(l, r, target, srcs)
	if res != nil || err != nil {
		return entResult(res), nil, err
	}
	others, count, w2, err := relinkSources(l, r, backlinkSources(l, append(paths, target), paths...))
	if err != nil {
		return tool.Result{}, nil, err
	}
	for i, st := range others {
		if out, n := dedupeMerged(g, st.path, target, st.data); n > 0 {
			others[i].data = out
			w2 = append(w2, fmt.Sprintf("%s: dropped %s that the merge made a repeat of one to %s", st.path.Name(), plural(n, "relation"), target.Name()))
		}
	}
	steps := append([]step{tstep}, others...)
	for _, s := range srcs {
		steps = append(steps, step{kind: stepRemove, path: s.path, old: s.data, hash: s.hash})
	}
	if r, err := applySteps(ctx, l, call, "merge_entities", steps); r != nil || err != nil {
		return entResult(r), nil, err
	}
	names := make([]string, len(srcs))
	for i, s := range srcs {
		names[i] = s.path.Name()
	}
	changed := make([]string, len(others))
	for i, s := range others {
		changed[i] = s.path.Name()
	}
	res2 := tool.OK(fmt.Sprintf("merged %s into %s; %d links in %d other notes now point to it", strings.Join(names, ", "), target.Name(), count, len(others)))
	res2.Warnings = append(warns, w2...)
	for _, s := range srcs {
		res2.Warnings = append(res2.Warnings, e.canvasRenamed(ctx, l.Library, s.path, target)...)
	}
	return res2, &mergeOut{Target: target.Name(), Merged: names, Rewritten: changed, TargetEntity: target.Name(), MergedSources: names}, nil
}

// mergeOut is the output of merge_entities: the notes merged into the target, and the
// other notes whose links were rewritten. The target and the sources are also under
// seed 002's keys (see docs/SEEDS.md).
type mergeOut struct {
	Merged        []string `json:"merged"`
	MergedSources []string `json:"merged_sources"`
	Rewritten     []string `json:"rewritten"`
	Target        string   `json:"target"`
	TargetEntity  string   `json:"target_entity"`
}

// readSources finds and reads the notes to merge; each must exist, once, and differ
// from the target.
func readSources(ctx context.Context, l lib, names []string, target vpath.Path) ([]mergeSource, *tool.Result, error) {
	if len(names) == 0 {
		r := tool.Fail(tool.CodeInvalidArguments, "source_names is empty: give the notes to merge into the target")
		return nil, &r, nil
	}
	var out []mergeSource
	for _, name := range names {
		p, data, h, res, err := readEntity(ctx, l.Library, name)
		if res != nil || err != nil {
			return nil, res, err
		}
		if p == target {
			r := tool.Fail(tool.CodeInvalidArguments, "%s is the target; a note cannot be merged into itself", p.Name())
			return nil, &r, nil
		}
		if slices.ContainsFunc(out, func(s mergeSource) bool { return s.path == p }) {
			continue
		}
		out = append(out, mergeSource{path: p, data: data, hash: h, note: note.Parse(data)})
	}
	return out, nil, nil
}

// mergedTarget computes the target's new content: its links to the sources re-pointed,
// the sources' aliases, names, tags and relations added to its front matter, and each
// source's body appended under a heading with the source's name.
func mergedTarget(l lib, r relinker, target vpath.Path, srcs []mergeSource) (step, []string, *tool.Result, error) {
	data, h, err := l.Vault().Read(target)
	if err != nil {
		if res, ok := writeFailure(target, err); ok {
			return step{}, nil, &res, nil
		}
		return step{}, nil, nil, err
	}
	n := note.Parse(data)
	edits, warns := r.relink(target, target, data, n, false)
	out := data
	if o, ok := entApplyEdits(target, data, n, edits, &warns); ok {
		out = o
	}
	if o, k := dedupeMerged(r.g, target, target, out); k > 0 {
		out = o
		warns = append(warns, fmt.Sprintf("%s: dropped %s to a merged note that the merge made a relation to itself or a repeat", target.Name(), plural(k, "relation")))
	}
	st := readLinkStyle(l.Library)
	if st.problem != "" {
		warns = append(warns, st.problem)
	}
	props := mergedProps(r, st, target, note.Parse(out), srcs)
	if len(props) > 0 {
		o, err := note.SetProperties(out, props, nil)
		if err != nil {
			res := tool.Fail(tool.CodeInvalidArguments, "%s cannot take the merged properties: %v; fix its front matter first", target.Name(), err)
			return step{}, nil, &res, nil
		}
		out = o
	}
	var b strings.Builder
	b.Write(out)
	for _, s := range srcs {
		edits, probs := r.relink(s.path, target, s.data, s.note, true)
		warns = append(warns, probs...)
		src := s.data
		if o, ok := entApplyEdits(s.path, s.data, s.note, edits, &warns); ok {
			src = o
		}
		appendSection(&b, entBase(s.path), string(src[s.note.BodyStart:]))
	}
	return writeStep(target, data, h, touchModified([]byte(b.String()), time.Now())), warns, nil, nil
}

// dedupeMerged drops from the relations of the note at p, whose content src has its
// links re-pointed to target, what the merge made redundant, as create_relations
// refuses it: a second relation of one type (ignoring case) to target, and in target
// itself any relation to target. It returns the new content and how many relations it
// dropped; src and 0 when none (or the front matter cannot be rewritten: the note is
// then written as the relinking left it).
func dedupeMerged(g *graph.Graph, p, target vpath.Path, src []byte) ([]byte, int) {
	dropped := 0
	out, res, err := relationsRewrite(p, src, func(seq *yaml.Node) bool {
		seen := map[string]bool{}
		kept := make([]*yaml.Node, 0, len(seq.Content))
		for _, item := range seq.Content {
			typ, to := itemFields(item)
			to, _, _ = strings.Cut(to, "#")
			if dst, ok := g.Resolve(p, to); ok && dst == target && typ != "" {
				k := strings.ToLower(typ)
				if p == target || seen[k] {
					dropped++
					continue
				}
				seen[k] = true
			}
			kept = append(kept, item)
		}
		seq.Content = kept
		return dropped > 0
	})
	if res != nil || err != nil || out == nil {
		return src, 0
	}
	return out, dropped
}

// appendSection adds "## heading" and body at the end of b.
func appendSection(b *strings.Builder, heading, body string) {
	s := b.String()
	if s != "" && !strings.HasSuffix(s, "\n") {
		b.WriteString("\n")
	}
	if strings.TrimSpace(s) != "" && !strings.HasSuffix(s, "---\n") {
		b.WriteString("\n")
	}
	b.WriteString("## " + heading + "\n")
	if body = strings.Trim(body, "\r\n"); body != "" {
		b.WriteString("\n" + body + "\n")
	}
}

// mergedProps returns the target's aliases, tags and relations united with the
// sources', for the keys that change.
func mergedProps(r relinker, st linkStyle, target vpath.Path, tn *note.Note, srcs []mergeSource) []note.Property {
	aliases, tags := slices.Clone(tn.Aliases), frontMatterTags(tn)
	for _, s := range srcs {
		aliases = append(append(aliases, entBase(s.path)), s.note.Aliases...)
		tags = append(tags, frontMatterTags(s.note)...)
	}
	aliases = slices.DeleteFunc(entCleanList(aliases, false), func(a string) bool { return strings.EqualFold(a, entBase(target)) })
	var props []note.Property
	if len(aliases) != len(tn.Aliases) {
		props = append(props, note.Property{Key: "aliases", Value: aliases})
	}
	if t := entCleanList(tags, true); len(t) != len(entCleanList(frontMatterTags(tn), true)) {
		props = append(props, note.Property{Key: "tags", Value: t})
	}
	if rels := mergedRelations(r, st, target, tn, srcs); rels != nil {
		props = append(props, note.Property{Key: "relations", Value: rels})
	}
	return props
}

// mergedRelations returns the target's relations followed by the sources' relations
// it lacks (relations between the merged notes are dropped), or nil if none is added.
func mergedRelations(r relinker, st linkStyle, target vpath.Path, tn *note.Note, srcs []mergeSource) *yaml.Node {
	key := func(from vpath.Path, rel note.Relation) (string, vpath.Path) {
		to := note.StripLink(rel.To)
		dst, ok := r.g.Resolve(from, to)
		if !ok {
			return strings.ToLower(rel.Type + "\x00" + to), ""
		}
		return strings.ToLower(rel.Type) + "\x00" + string(dst), dst
	}
	have := map[string]bool{}
	for _, rel := range tn.Relations {
		k, _ := key(target, rel)
		have[k] = true
	}
	var added []*yaml.Node
	for _, s := range srcs {
		for _, rel := range s.note.Relations {
			k, dst := key(s.path, rel)
			if _, merged := r.moved[dst]; have[k] || dst == target || merged {
				continue
			}
			have[k] = true
			to := note.StripLink(rel.To)
			if dst != "" { // a new relation of the target, in the vault's link format
				to = r.text(linkDest{path: dst, short: uniqueBase(r.g, dst)}, form{kind: st.format}, target)
			}
			added = append(added, entRelationItem(rel.Type, "[["+to+"]]"))
		}
	}
	if len(added) == 0 {
		return nil
	}
	seq := &yaml.Node{Kind: yaml.SequenceNode}
	if old, ok := tn.Properties["relations"].([]any); ok {
		for _, v := range old {
			var nd yaml.Node
			if err := nd.Encode(v); err == nil {
				seq.Content = append(seq.Content, orderRelation(&nd))
			}
		}
	}
	seq.Content = append(seq.Content, added...)
	return seq
}

// orderRelation puts "relation type" and "relation to" first in a relation mapping
// and writes a "[[link]]" value double-quoted, as the vault's format has it.
func orderRelation(nd *yaml.Node) *yaml.Node {
	if nd.Kind != yaml.MappingNode {
		return nd
	}
	var first, rest []*yaml.Node
	for i := 0; i+1 < len(nd.Content); i += 2 {
		k, v := nd.Content[i], nd.Content[i+1]
		if v.Kind == yaml.ScalarNode && strings.HasPrefix(v.Value, "[[") {
			v.Style = yaml.DoubleQuotedStyle
		}
		switch k.Value {
		case "relation type":
			first = append([]*yaml.Node{k, v}, first...)
		case "relation to":
			first = append(first, k, v)
		default:
			rest = append(rest, k, v)
		}
	}
	nd.Content = append(first, rest...)
	return nd
}
