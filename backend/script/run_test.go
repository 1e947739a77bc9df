package script

import (
	"context"
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"go.starlark.net/starlark"
)

func TestResultAndPrintComeBackApart(t *testing.T) {
	e := newEnv(t, writeVault(t, false), Limits{})
	o := e.mustRun(t, readStar(t, "result_types.star"), false)
	if o.Failure != nil {
		t.Fatalf("failure: %+v", o.Failure)
	}
	got, _ := json.Marshal(o.Result)
	want := `{"big":1180591620717411303424,"d":{"k":[]},"f":2.5,"i":3,"l":[1,[2,3]],"none":null,"s":"é","t":true}`
	if string(got) != want {
		t.Errorf("result %s\nwant   %s", got, want)
	}
	if o.Output != "printed apart\n" {
		t.Errorf("output %q", o.Output)
	}
}

func readStar(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestChangesCarryDiffs(t *testing.T) {
	e := newEnv(t, writeVault(t, true), Limits{})
	o := e.mustRun(t, `
edit_entity(entity_name="Charles Babbage", old_content="Designed", new_content="Designed and never finished")
create_entity(entity_name="ideas/New", content="fresh")
delete_entities(entity_names=["machines/Analytical Engine"])
__result__ = "done"`, false)
	if o.Failure != nil || !o.Applied {
		t.Fatalf("failure %+v applied %v", o.Failure, o.Applied)
	}
	kinds := map[string]string{}
	for _, c := range o.Changes {
		kinds[c.Path] = c.Change
	}
	want := map[string]string{"people/Charles Babbage.md": "modified", "ideas/New.md": "created", "machines/Analytical Engine.md": "deleted"}
	if d := cmp.Diff(want, kinds); d != "" {
		t.Errorf("changes (-want +got):\n%s", d)
	}
	for _, c := range o.Changes {
		if c.Path == "people/Charles Babbage.md" && (!strings.Contains(c.Diff, "-Designed the") || !strings.Contains(c.Diff, "+Designed and never finished")) {
			t.Errorf("diff:\n%s", c.Diff)
		}
	}
	if _, err := os.Stat(filepath.Join(e.dir, "ideas", "New.md")); err != nil {
		t.Errorf("the created note is not there: %v", err)
	}
	assertNoIntent(t, e.dir)
}

// assertNoIntent checks that no batch's intent outlived its script: the script's
// changes were applied whole, or never decided.
func assertNoIntent(t *testing.T, dir string) {
	t.Helper()
	if _, err := os.Stat(filepath.Join(dir, ".memotree", "intent.json")); !os.IsNotExist(err) {
		t.Errorf("a batch's intent is left: %v", err)
	}
}

const writeThenFail = `
for i in range(20):
    create_entity(entity_name="batch/n%d" % i, content="note %d" % i)
edit_entity(entity_name="Ada Lovelace", old_content="First", new_content="The first")
rename_entity(old_name="Analytical Engine", new_name="The Engine")
delete_entities(entity_names=["Charles Babbage"])
read_entities(entity_names=["nobody"])
`

func TestWriteThenFailLeavesTheTreeAsItWas(t *testing.T) {
	dir := writeVault(t, true)
	before := treeHash(t, dir)
	e := newEnv(t, dir, Limits{})
	o := e.mustRun(t, writeThenFail, false)
	if o.Failure == nil || o.Failure.Code != "not_found" || o.Failure.Line != 7 {
		t.Fatalf("failure %+v; want not_found at line 7", o.Failure)
	}
	if o.Applied || len(o.Changes) < 23 {
		t.Errorf("applied %v, %d files in the change set that was not applied", o.Applied, len(o.Changes))
	}
	if after := treeHash(t, dir); after != before {
		t.Errorf("tree %s after the failed script, %s before", after, before)
	}
	if st := git(t, dir, "status", "--porcelain"); st != "" {
		t.Errorf("git status after the failed script (the journey included: nothing was written):\n%s", st)
	}
	assertNoIntent(t, dir)
	assertGraphMatchesFiles(t, e)
}

// assertGraphMatchesFiles compares the library's graph with a fresh scan of the folder.
func assertGraphMatchesFiles(t *testing.T, e *env) {
	t.Helper()
	g, err := e.lib.Graph(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	fresh, err := newEnv(t, e.dir, Limits{}).lib.Graph(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(fresh.Notes(), g.Notes()); d != "" {
		t.Errorf("graph notes (-files +graph):\n%s", d)
	}
	if d := cmp.Diff(fresh.Edges(), g.Edges()); d != "" {
		t.Errorf("graph edges (-files +graph):\n%s", d)
	}
}

func TestDryRunWritesNothing(t *testing.T) {
	dir := writeVault(t, true)
	e := newEnv(t, dir, Limits{})
	before := everyFileAndTime(t, dir)
	o := e.mustRun(t, `
create_entity(entity_name="ideas/Draft", content="maybe")
edit_entity(entity_name="Ada Lovelace", old_content="First", new_content="The first")
__result__ = read_entities(entity_names=["ideas/Draft"])["entities"][0]["content"]`, true)
	if o.Failure != nil || o.Applied || !o.DryRun {
		t.Fatalf("failure %+v applied %v", o.Failure, o.Applied)
	}
	if s, _ := o.Result.(string); !strings.Contains(s, "maybe") {
		t.Errorf("the script did not see its own write: %v", o.Result)
	}
	if len(o.Changes) != 2 || !strings.Contains(o.Changes[1].Diff, "+The first") {
		t.Errorf("changes: %+v", o.Changes)
	}
	if diff := cmp.Diff(before, everyFileAndTime(t, dir)); diff != "" {
		t.Errorf("a dry run wrote to the vault (its notes, journey or .memotree) (-before +after):\n%s", diff)
	}
	assertGraphMatchesFiles(t, e)
}

// everyFileAndTime describes every file and folder under dir, .git aside: its
// content's hash, or for a folder its entries, and its modification time.
func everyFileAndTime(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		if d.IsDir() && rel == ".git" {
			return filepath.SkipDir
		}
		st, err := d.Info()
		if err != nil {
			return err
		}
		desc := st.ModTime().String()
		if !d.IsDir() {
			b, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			desc += fmt.Sprintf(" %x", sha256.Sum256(b))
		}
		out[filepath.ToSlash(rel)] = desc
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func TestLimitsStopRunawayScripts(t *testing.T) {
	cases := []struct {
		name, code string
		lim        Limits
		limit      string
	}{
		{"infinite loop", "while True:\n    pass", Limits{Steps: 200_000}, "steps"},
		{"wall clock", "while True:\n    pass", Limits{Steps: 1 << 62, Wall: 300 * time.Millisecond}, "time"},
		{"memory bomb", "s = 'x'\nfor i in range(64):\n    s = s + s", Limits{}, "string"},
		{"budget", "l = []\nfor i in range(100):\n    l.append('y' * (4 << 20))", Limits{}, "memory"},
		{"repeat", "l = [0] * (1 << 40)", Limits{}, "list"},
		{"tool data", "read_entities(entity_names=['meta'])", Limits{ToolData: 50}, "tool_data"},
		{"result", "__result__ = 'z' * 5000", Limits{Result: 1000}, "result"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			e := newEnv(t, writeVault(t, false), c.lim)
			start := time.Now()
			o := e.mustRun(t, c.code, false)
			took := time.Since(start)
			if o.Failure == nil || o.Failure.Code != CodeLimit || o.Failure.Limit != c.limit {
				t.Fatalf("failure %+v; want the %s limit", o.Failure, c.limit)
			}
			if !strings.Contains(o.Failure.Message, c.limit+" limit") {
				t.Errorf("message %q does not name the limit", o.Failure.Message)
			}
			if limit := e.run.lim.Wall; took > limit+time.Second {
				t.Errorf("stopped after %v", took)
			}
		})
	}
}

func TestHugeOutputIsCut(t *testing.T) {
	e := newEnv(t, writeVault(t, false), Limits{Output: 1000})
	o := e.mustRun(t, "for i in range(10000):\n    print('line', i)\n__result__ = 1", false)
	if o.Failure != nil || !o.OutputTruncated || len(o.Output) > 1000 || !strings.HasPrefix(o.Output, "line 0\n") {
		t.Errorf("failure %v truncated %v output %d bytes", o.Failure, o.OutputTruncated, len(o.Output))
	}
}

func TestCanceledContextStopsTheScript(t *testing.T) {
	e := newEnv(t, writeVault(t, false), Limits{Steps: 1 << 62})
	ctx, cancel := context.WithTimeout(t.Context(), 200*time.Millisecond)
	defer cancel()
	start := time.Now()
	o, err := e.run.Run(ctx, agent, Input{Code: "create_entity(entity_name='x', content='y')\nwhile True:\n    pass"})
	if err != nil || o.Failure == nil || time.Since(start) > 2*time.Second {
		t.Fatalf("err %v failure %+v after %v", err, o.Failure, time.Since(start))
	}
	if _, err := os.Stat(filepath.Join(e.dir, "x.md")); !os.IsNotExist(err) {
		t.Errorf("the canceled script's note stayed: %v", err)
	}
}

// outsideEdit is a builtin for tests: outside_edit(path, text) writes a file of the
// vault as another program would, while the script runs.
func outsideEdit(e *env) starlark.StringDict {
	return starlark.StringDict{"outside_edit": starlark.NewBuiltin("outside_edit", func(_ *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, _ []starlark.Tuple) (starlark.Value, error) {
		p := filepath.Join(e.dir, filepath.FromSlash(string(args[0].(starlark.String))))
		return starlark.None, os.WriteFile(p, []byte(args[1].(starlark.String)), 0o644)
	})}
}

// overtakenScript edits two notes, lets another program rewrite the second, and ends
// as ending says.
const overtakenScript = `
edit_entity(entity_name="Ada Lovelace", old_content="First", new_content="The first")
edit_entity(entity_name="Charles Babbage", old_content="Designed", new_content="Drew")
outside_edit("people/Charles Babbage.md", "the person's own words\n")
`

// assertOvertakenLeftAlone checks what overtakenScript leaves when nothing of it was
// applied: Ada as she was, Charles as the other program wrote him.
func assertOvertakenLeftAlone(t *testing.T, e *env) {
	t.Helper()
	ada, _ := os.ReadFile(filepath.Join(e.dir, "people", "Ada Lovelace.md"))
	charles, _ := os.ReadFile(filepath.Join(e.dir, "people", "Charles Babbage.md"))
	if string(ada) != seedNotes["people/Ada Lovelace.md"] || string(charles) != "the person's own words\n" {
		t.Errorf("ada %q\ncharles %q", ada, charles)
	}
}

// TestFailedScriptLeavesSomeoneElsesEdit: a script that fails after someone else
// changed a note it had changed leaves their version and writes nothing of its own.
func TestFailedScriptLeavesSomeoneElsesEdit(t *testing.T) {
	e := newEnv(t, writeVault(t, false), Limits{})
	e.run.extra = outsideEdit(e)
	o := e.mustRun(t, overtakenScript+`fail("stop")`, false)
	if o.Failure == nil || o.Applied {
		t.Fatalf("failure %+v, applied %v; want a failure, nothing applied", o.Failure, o.Applied)
	}
	assertOvertakenLeftAlone(t, e)
}

// TestScriptOvertakenByAnotherWriterAppliesNothing: a script that finishes after
// someone else changed a note it changed is applied not at all, says which note, and
// their version stays.
func TestScriptOvertakenByAnotherWriterAppliesNothing(t *testing.T) {
	e := newEnv(t, writeVault(t, false), Limits{})
	e.run.extra = outsideEdit(e)
	o := e.mustRun(t, overtakenScript+`__result__ = "done"`, false)
	if o.Failure == nil || o.Failure.Code != CodeConflict || !strings.Contains(o.Failure.Message, "Charles Babbage") || o.Applied {
		t.Fatalf("failure %+v, applied %v; want a conflict naming Charles Babbage, nothing applied", o.Failure, o.Applied)
	}
	assertOvertakenLeftAlone(t, e)
}

// TestScriptSearchesSeeItsOwnWrites: inside a script, every search answers from the
// vault as the script left it — the notes it created and changed found by their new
// text, the ones it deleted not at all — though none of it is on disk yet.
func TestScriptSearchesSeeItsOwnWrites(t *testing.T) {
	e := newEnv(t, writeVault(t, false), Limits{})
	o := e.mustRun(t, `
create_entity(entity_name="ideas/Zebra", content="the quixotic zebra grazes")
edit_entity(entity_name="Ada Lovelace", old_content="First", new_content="Quixotic first")
delete_entities(entity_names=["Charles Babbage"])
ranked = [h["entity_name"] for h in search_nodes(query="quixotic")["results"]]
pattern = [r["entity_name"] for r in search_in_contents(content_glob="/uixotic/")["results"]]
names = [x if type(x) == "string" else x["entity_name"] for x in list_entities(entity_glob="**")["entities"]]
__result__ = {"ranked": sorted(ranked), "pattern": sorted(pattern), "names": "people/Charles Babbage" in names}
`, true)
	if o.Failure != nil {
		t.Fatalf("failure %+v\n%s", o.Failure, o.Output)
	}
	got, _ := json.Marshal(o.Result)
	want := `{"names":false,"pattern":["ideas/Zebra","people/Ada Lovelace"],"ranked":["ideas/Zebra","people/Ada Lovelace"]}`
	if string(got) != want {
		t.Errorf("searches inside the script: %s\nwant %s", got, want)
	}
}
