package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestCallSeed003Example runs seed 003's own example through `memotree call
// run_starlark`, with an existing page as its parent_index, and one of its tools by
// name.
func TestCallSeed003Example(t *testing.T) {
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "ideas"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "ideas", "Tools.md"), []byte("---\nsummary: 工具\n---\n\nOn tools.\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile("../testdata/seeds/003_example.star.txt")
	if err != nil {
		t.Fatal(err)
	}
	args, _ := json.Marshal(map[string]string{"target": "seed 003", "code": strings.ReplaceAll(string(b), `"page:001"`, `"v:ideas/"`)})
	code, stdout, stderr := runCLI(t, "call", "--json", "--library", "v="+dir, "run_starlark", string(args))
	if code != 0 {
		t.Fatalf("exit %d\n%s\n%s", code, stdout, stderr)
	}
	var res struct {
		Data struct{ Result, Output string }
	}
	if err := json.Unmarshal([]byte(stdout), &res); err != nil || res.Data.Result != "v:ideas/新想法" || !strings.Contains(res.Data.Output, "Found: 新想法") {
		t.Errorf("the seed's example: %v\n%s", err, stdout)
	}
	code, stdout, _ = runCLI(t, "call", "--library", "v="+dir, "get_children", `{"page_index": "v:ideas/"}`)
	if code != 0 || !strings.Contains(stdout, "index: v:ideas/新想法") || !strings.Contains(stdout, "description: 关于工具调用的思考") {
		t.Errorf("get_children: exit %d\n%s", code, stdout)
	}
	if code, stdout, _ := runCLI(t, "call", "--library", "v="+dir, "get_page", `{"page_index": "v:nothing"}`); code != 1 || !strings.Contains(stdout, "not_found") {
		t.Errorf("a page of nothing: exit %d\n%s", code, stdout)
	}
}
