package catalog_test

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/memotree/memotree/backend/note"
	"github.com/memotree/memotree/backend/tool"
)

// kitSource is a note whose front matter has comments, quoting and keys of several
// kinds around its relations, and a body with trailing spaces: a relation write must
// change only the relations block.
const kitSource = "---\n" +
	"# the person's own comment\n" +
	"title: 'Quoted title'   # trailing comment\n" +
	"relations:\n" +
	"  - relation type: knows\n" +
	"    relation to: Plain Target\n" +
	"tags: [a, b]\n" +
	"custom:\n" +
	"  nested: {x: 1}\n" +
	"---\n" +
	"Body with [[Plain Target]] and trailing spaces   \n\n#tag\n"

// kitRelationVault is the demo vault with the source note and its targets added.
func kitRelationVault(t *testing.T) (string, *tool.Registry) {
	t.Helper()
	dir := kitCopy(t, kitDemo)
	kitWrite(t, dir, "lab/Source.md", kitSource)
	kitWrite(t, dir, "lab/Plain Target.md", "# Plain Target\n")
	kitWrite(t, dir, "lab/Other.md", "# Other\n")
	return dir, kitOpen(t, dir)
}

// kitRelations lists the found_relations of a find_relations result as from|type|to.
func kitRelations(t *testing.T, res tool.Result) []string {
	t.Helper()
	kitWant(t, res, tool.StatusSuccess)
	var out []string
	rels, _ := kitData(t, res)["found_relations"].([]any)
	for _, r := range rels {
		m := r.(map[string]any)
		s := m["from"].(string) + "|" + m["type"].(string) + "|" + m["to"].(string)
		if m["dangling"] == true {
			s += "|dangling"
		}
		out = append(out, s)
	}
	return out
}

func TestCreateThenFindRelations(t *testing.T) {
	dir, reg := kitRelationVault(t)
	res := kitCall(t, reg, "create_relations", `{"relations":[
		{"from":"Source","to":"Other","type":"cites"},
		{"from":"lab/Source","to":"[[Not Yet Written]]","type":"plans"},
		{"from":"Source","to":"plain target","type":"KNOWS"}]}`)
	kitWant(t, res, tool.StatusSuccess)
	if got := strings.Join(res.Warnings, "\n"); !strings.Contains(got, "already has") || !strings.Contains(got, "Not Yet Written does not exist yet") {
		t.Errorf("warnings should report the duplicate and the dangling target:\n%s", got)
	}
	created, _ := kitData(t, res)["created_relations"].([]any)
	if len(created) != 2 {
		t.Fatalf("created %d relations, want 2:\n%s", len(created), res.YAML())
	}

	after := kitRead(t, dir, "lab/Source.md")
	wantBlock := "relations:\n" +
		"  - relation type: knows\n" +
		"    relation to: Plain Target\n" +
		"  - relation type: cites\n" +
		"    relation to: \"[[Other]]\"\n" +
		"  - relation type: plans\n" +
		"    relation to: \"[[Not Yet Written]]\"\n"
	before := kitSource
	i := strings.Index(before, "relations:\n")
	j := strings.Index(before, "tags:")
	want := before[:i] + wantBlock + before[j:]
	if d := cmp.Diff(want, after); d != "" {
		t.Errorf("only the relations block may change (-want +got):\n%s", d)
	}
	n := note.Parse([]byte(after))
	if len(n.Warnings) > 0 {
		t.Errorf("the rewritten note has warnings: %v", n.Warnings)
	}
	wantRels := []note.Relation{{Type: "knows", To: "Plain Target", Line: 6}, {Type: "cites", To: "Other", Line: 8}, {Type: "plans", To: "Not Yet Written", Line: 10}}
	if d := cmp.Diff(wantRels, n.Relations); d != "" {
		t.Errorf("relations read back (-want +got):\n%s", d)
	}

	got := kitRelations(t, kitCall(t, reg, "find_relations", `{"from":"Source"}`))
	wantFound := []string{"lab/Source|knows|lab/Plain Target", "lab/Source|cites|lab/Other", "lab/Source|plans|Not Yet Written|dangling"}
	if d := cmp.Diff(wantFound, got); d != "" {
		t.Errorf("find_relations(from) (-want +got):\n%s", d)
	}
	got = kitRelations(t, kitCall(t, reg, "find_relations", `{"to_entity":"Other","relation_type":"cites"}`))
	if d := cmp.Diff([]string{"lab/Source|cites|lab/Other"}, got); d != "" {
		t.Errorf("find_relations(to_entity) (-want +got):\n%s", d)
	}
	got = kitRelations(t, kitCall(t, reg, "find_relations", `{"to_entity":"Not Yet Written"}`))
	if d := cmp.Diff([]string{"lab/Source|plans|Not Yet Written|dangling"}, got); d != "" {
		t.Errorf("find_relations(to_entity) of a missing note (-want +got):\n%s", d)
	}
	got = kitRelations(t, kitCall(t, reg, "find_relations", `{"from":"Source","relation_type":"links to"}`))
	if d := cmp.Diff([]string{"lab/Source|links to|lab/Plain Target"}, got); d != "" {
		t.Errorf("find_relations(links to) (-want +got):\n%s", d)
	}
	if !strings.Contains(kitRead(t, dir, "journey.yaml"), "create_relations") {
		t.Error("the write is not in the journey")
	}
}

func TestDeleteRelations(t *testing.T) {
	dir, reg := kitRelationVault(t)
	res := kitCall(t, reg, "delete_relations", `{"relations":[{"from":"Source","to":"[[Plain Target]]","type":"knows"}]}`)
	kitWant(t, res, tool.StatusSuccess)
	after := kitRead(t, dir, "lab/Source.md")
	i := strings.Index(kitSource, "relations:\n")
	j := strings.Index(kitSource, "tags:")
	if d := cmp.Diff(kitSource[:i]+kitSource[j:], after); d != "" {
		t.Errorf("deleting the last relation removes the key and nothing else (-want +got):\n%s", d)
	}
	res = kitCall(t, reg, "delete_relations", `{"relations":[{"from":"Source","to":"Plain Target","type":"knows"}]}`)
	kitWant(t, res, tool.StatusError)
	if res.ErrorCode != tool.CodeNoMatch {
		t.Errorf("deleting a missing relation: code %s, want no_match", res.ErrorCode)
	}
}

func TestGarbageCollectRelations(t *testing.T) {
	dir, reg := kitRelationVault(t)
	kitWant(t, kitCall(t, reg, "create_relations", `{"relations":[{"from":"Source","to":"Ghost","type":"haunts"},{"from":"Other","to":"Ghost 2","type":"haunts"}]}`), tool.StatusSuccess)
	dry := kitCall(t, reg, "garbage_collect_relations", `{}`)
	kitWant(t, dry, tool.StatusSuccess)
	found, _ := kitData(t, dry)["dangling_relations_found"].([]any)
	if len(found) != 2 {
		t.Fatalf("dry run found %d dangling relations, want 2:\n%s", len(found), dry.YAML())
	}
	before := kitRead(t, dir, "lab/Source.md")
	if !strings.Contains(before, "Ghost") {
		t.Fatal("the dry run removed the relation")
	}
	res := kitCall(t, reg, "garbage_collect_relations", `{"dry_run":false}`)
	kitWant(t, res, tool.StatusSuccess)
	data := kitData(t, res)
	if data["cleaned_relations_count"] != float64(2) {
		t.Errorf("cleaned %v, want 2:\n%s", data["cleaned_relations_count"], res.YAML())
	}
	if d := cmp.Diff(kitSource, kitRead(t, dir, "lab/Source.md")); d != "" {
		t.Errorf("after the clean-up the note is as before the dangling relation (-want +got):\n%s", d)
	}
	if got := kitRead(t, dir, "lab/Other.md"); got != "# Other\n" {
		t.Errorf("Other.md = %q; its only relation was dangling, so the key goes", got)
	}
}

func TestRelationsPartialBatch(t *testing.T) {
	_, reg := kitRelationVault(t)
	res := kitCall(t, reg, "create_relations", `{"relations":[{"from":"Source","to":"Other","type":"cites"},{"from":"Nobody","to":"Other","type":"cites"}]}`)
	kitWant(t, res, tool.StatusPartial)
	if len(res.Warnings) == 0 || !strings.Contains(res.Warnings[0], "relations[1]") {
		t.Errorf("the warning should name the failed item: %v", res.Warnings)
	}
}
