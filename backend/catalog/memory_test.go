package catalog_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/memotree/memotree/backend/catalog"
	"github.com/memotree/memotree/backend/tool"
	"github.com/memotree/memotree/backend/workspace"
)

func TestMemoryNotebookReplace(t *testing.T) {
	const start = "# My notebook\n\n- They like short notes.\n- Dates: exact.\n- Dates: exact.\n"
	tests := []struct {
		name, args string
		code       tool.Code
		want       string // the notebook afterwards
	}{
		{"append adds a line", `{"old_text":"","new_text":"- New fact."}`, "", start + "- New fact.\n"},
		{"replace a unique text", `{"old_text":"short notes","new_text":"long notes"}`, "", strings.Replace(start, "short", "long", 1)},
		{"delete with an empty new_text", `{"old_text":"- They like short notes.\n","new_text":""}`, "", "# My notebook\n\n- Dates: exact.\n- Dates: exact.\n"},
		{"no match", `{"old_text":"they like shorter notes","new_text":"x"}`, tool.CodeNoMatch, start},
		{"several matches", `{"old_text":"Dates: exact.","new_text":"x"}`, tool.CodeCountMismatch, start},
		{"over the budget", `{"old_text":"","new_text":"` + strings.Repeat("长", catalog.MemoryBudget) + `"}`, tool.CodeTooLarge, start},
		{"nothing to do", `{"old_text":"","new_text":"  "}`, tool.CodeInvalidArguments, start},
		{"control characters", `{"old_text":"","new_text":"a\u0000b"}`, tool.CodeInvalidArguments, start},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dir := kitCopy(t, kitDemo)
			kitWrite(t, dir, "memory.md", start)
			reg := kitOpen(t, dir)
			res := kitCall(t, reg, "memory_notebook_replace", tc.args)
			if res.ErrorCode != tc.code {
				t.Fatalf("code %q, want %q:\n%s", res.ErrorCode, tc.code, res.YAML())
			}
			if d := cmp.Diff(tc.want, kitRead(t, dir, "memory.md")); d != "" {
				t.Errorf("notebook (-want +got):\n%s", d)
			}
			if tc.code == tool.CodeNoMatch && !strings.Contains(res.Message, "They like short notes") {
				t.Errorf("no_match should show the nearest text:\n%s", res.YAML())
			}
			if tc.code == tool.CodeTooLarge && !strings.Contains(res.Message, "condense") {
				t.Errorf("too_large should advise condensing:\n%s", res.YAML())
			}
		})
	}
}

func TestMemoryNotebookCreatedInDefaultLibrary(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "empty")
	other := kitCopy(t, kitDemo)
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	reg := kitOpen(t, dir, workspace.Spec{Name: "demo", Path: other})
	before := kitSnapshot(t, filepath.Dir(other))
	call := func(args string) tool.Result {
		res, err := reg.Call(t.Context(), &tool.Call{Actor: tool.ActorAgent}, "memory_notebook_replace", json.RawMessage(args))
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	// Another library is refused, not silently replaced by the default one.
	res := call(`{"old_text":"","new_text":"- First memory.","library_name":"demo"}`)
	if res.ErrorCode != tool.CodeInvalidArguments || !strings.Contains(res.Message, `default library "t"`) {
		t.Errorf("library_name demo: %s", res.YAML())
	}
	if _, err := os.Stat(filepath.Join(dir, "memory.md")); !os.IsNotExist(err) {
		t.Errorf("a refused call wrote the notebook: %v", err)
	}
	for _, args := range []string{`{"old_text":"","new_text":"- First memory."}`, `{"old_text":"","new_text":"- Second.","library_name":"t"}`} {
		kitWant(t, call(args), tool.StatusSuccess)
	}
	if got := kitRead(t, dir, "memory.md"); got != "# My notebook\n\n- First memory.\n- Second.\n" {
		t.Errorf("new notebook = %q", got)
	}
	kitSame(t, before, kitSnapshot(t, filepath.Dir(other)), "a memory write naming another library")
}

// TestMemoryNotebookKeepsPermissions checks that naming a writable library does not
// let the agent write the notebook of a read-only default library.
func TestMemoryNotebookKeepsPermissions(t *testing.T) {
	dir, other := kitCopy(t, kitDemo), kitCopy(t, kitDemo)
	ws, err := workspace.Open(t.Context(), []workspace.Spec{{Name: "t", Path: dir, Permission: tool.PermRead}, {Name: "w", Path: other, Permission: tool.PermWrite}}, workspace.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer ws.Close()
	reg, err := ws.Registry()
	if err != nil {
		t.Fatal(err)
	}
	before := kitRead(t, dir, "memory.md")
	res, err := reg.Call(t.Context(), &tool.Call{Actor: tool.ActorAgent}, "memory_notebook_replace", json.RawMessage(`{"old_text":"","new_text":"- x","library_name":"w"}`))
	if err != nil || !res.IsError() {
		t.Errorf("the agent wrote the notebook of a read-only library: %v %s", err, res.YAML())
	}
	if kitRead(t, dir, "memory.md") != before {
		t.Error("memory.md of the read-only library changed")
	}
}
