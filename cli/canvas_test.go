package cli

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestCanvasSurvivesBetweenCalls runs `memotree call` as two real processes: the
// first expands a note, the second sees it in the view.
func TestCanvasSurvivesBetweenCalls(t *testing.T) {
	bin := headlessBinary(t)
	vault := t.TempDir()
	for name, text := range map[string]string{
		"people/Ada Lovelace.md": "---\nsummary: First programmer.\n---\n\nBody.\n",
		"Engine.md":              "The [[Ada Lovelace]] engine.\n",
	} {
		p := filepath.Join(vault, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	call := func(args ...string) string {
		t.Helper()
		cmd := exec.Command(bin, append([]string{"call", "--library", "v=" + vault}, args...)...)
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("memotree call %q: %v\n%s", args, err, out)
		}
		return string(out)
	}
	out := call("expand_node", `{"entity_name": "Ada Lovelace", "level": "summary", "view_name": "work"}`)
	if !strings.Contains(out, "is now at summary") {
		t.Fatalf("expand_node: %s", out)
	}
	out = call("view_canvas", `{"view_name": "work"}`)
	if !strings.Contains(out, "· people/Ada Lovelace [summary]") || !strings.Contains(out, "summary: First programmer.") {
		t.Errorf("the second process does not see the expansion:\n%s", out)
	}
	if out := call("view_canvas"); strings.Contains(out, "· people/Ada Lovelace [summary]") {
		t.Errorf("the default view changed too:\n%s", out)
	}
}
