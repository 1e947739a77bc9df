package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestCallRunStarlark runs a script through `memotree call`: the person's script
// writes, and its result, output and change set come back as JSON.
func TestCallRunStarlark(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "Ada.md"), []byte("Ada wrote [[Notes]].\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	args := `{"target": "count and add", "code": "n = len(list_entities(entity_glob=\"**\")[\"entities\"])\ncreate_entity(entity_name=\"Notes\", content=\"by script\")\nprint(\"had\", n)\n__result__ = {\"had\": n}"}`
	code, stdout, stderr := runCLI(t, "call", "--json", "--library", "v="+dir, "run_starlark", args)
	if code != 0 {
		t.Fatalf("exit %d\nstdout %s\nstderr %s", code, stdout, stderr)
	}
	var res struct {
		Status string
		Data   struct {
			Result  map[string]int
			Output  string
			Applied bool
			Changes []struct{ Path, Change string }
			Code    string
		}
	}
	if err := json.Unmarshal([]byte(stdout), &res); err != nil {
		t.Fatalf("%v: %s", err, stdout)
	}
	d := res.Data
	if res.Status != "success" || d.Result["had"] != 1 || d.Output != "had 1\n" || !d.Applied || !strings.Contains(d.Code, "create_entity") {
		t.Errorf("result: %s", stdout)
	}
	if len(d.Changes) != 1 || d.Changes[0].Path != "Notes.md" || d.Changes[0].Change != "created" {
		t.Errorf("changes: %+v", d.Changes)
	}
	if _, err := os.Stat(filepath.Join(dir, "Notes.md")); err != nil {
		t.Errorf("the note was not created: %v", err)
	}

	dry := `{"target": "try", "code": "edit_entity(entity_name=\"Ada\", old_content=\"wrote\", new_content=\"drafted\")", "dry_run": true}`
	code, stdout, _ = runCLI(t, "call", "--library", "v="+dir, "run_starlark", dry)
	if code != 0 || !strings.Contains(stdout, "dry run") || !strings.Contains(stdout, "+Ada drafted [[Notes]].") || !strings.Contains(stdout, "applied: false") {
		t.Errorf("dry run: exit %d\n%s", code, stdout)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "Ada.md")); string(b) != "Ada wrote [[Notes]].\n" {
		t.Errorf("the dry run changed Ada.md: %q", b)
	}

	bad := `{"target": "t", "code": "read_entities(entity_names=[\"Nobody\"])"}`
	if code, stdout, _ := runCLI(t, "call", "--library", "v="+dir, "run_starlark", bad); code != 1 || !strings.Contains(stdout, "not_found") {
		t.Errorf("failing script: exit %d, %s", code, stdout)
	}
}
