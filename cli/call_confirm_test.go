package cli

import (
	"bufio"
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// `memotree call` is the person at a terminal: a call that deletes or discards runs
// once they confirm it — with --yes, or by answering y when asked at a terminal;
// without either (a script, a pipe) it is refused with how to allow it, and nothing
// changes. Everything else runs as before.
func TestCallConfirmsDestructiveCalls(t *testing.T) {
	dir := demoCopy(t)
	welcome := filepath.Join(dir, "Welcome.md")
	code, out, stderr := runCLI(t, "call", "--library", "demo="+dir, "delete_entities", `{"entity_names":["Welcome"]}`)
	if code != 1 || !strings.Contains(out, "approval_required") || !strings.Contains(out, "--yes") {
		t.Errorf("delete without --yes: exit %d, out %q, stderr %q", code, out, stderr)
	}
	if _, err := os.Stat(welcome); err != nil {
		t.Fatalf("the unconfirmed delete ran: %v", err)
	}
	script := `delete_entities(entity_names=["Welcome"])`
	if code, out, _ := runCLI(t, "call", "--library", "demo="+dir, "run_starlark", `{"target":"x","code":"`+strings.ReplaceAll(script, `"`, `\"`)+`"}`); code != 1 || !strings.Contains(out, "approval_required") {
		t.Errorf("a script that deletes, without --yes: exit %d, %q", code, out)
	}
	for _, args := range [][]string{
		{"garbage_collect_relations"},                                // a dry run
		{"read_entities", `{"entity_names":["Welcome"]}`},            // a read
		{"create_entity", `{"entity_name":"cli/New","content":"x"}`}, // a write
		{"delete_entities", `{"entity_nams":["Welcome"]}`, "-x"},     // refused for its arguments, not asked
	} {
		want := 0
		if len(args) == 3 {
			args, want = args[:2], 1
		}
		code, out, _ := runCLI(t, append([]string{"call", "--library", "demo=" + dir}, args...)...)
		if code != want || strings.Contains(out, "approval_required") {
			t.Errorf("%v: exit %d, %q", args, code, out)
		}
	}
	if code, out, stderr := runCLI(t, "call", "--library", "demo="+dir, "--yes", "delete_entities", `{"entity_names":["Welcome"]}`); code != 0 {
		t.Errorf("delete with --yes: exit %d, %q %q", code, out, stderr)
	}
	if _, err := os.Stat(welcome); !os.IsNotExist(err) {
		t.Errorf("the confirmed delete did not run: %v", err)
	}
}

// At a terminal the person is asked; y runs the call, anything else does not.
func TestConfirmAtTheTerminal(t *testing.T) {
	for answer, want := range map[string]bool{"y\n": true, "YES\n": true, "n\n": false, "\n": false, "": false} {
		var prompt bytes.Buffer
		if got := confirm(strings.NewReader(answer), &prompt, true, "delete_entities", []byte(`{"entity_names":["Welcome"]}`)); got != want {
			t.Errorf("answer %q: %v, want %v", answer, got, want)
		}
		if !strings.Contains(prompt.String(), "delete_entities") || !strings.Contains(prompt.String(), "[y/N]") {
			t.Errorf("prompt %q", prompt.String())
		}
	}
	if confirm(strings.NewReader("y\n"), &bytes.Buffer{}, false, "delete_entities", nil) {
		t.Error("confirmed without a terminal")
	}
}

// The person is shown the whole call they approve, at a terminal as in the REPL: a
// script whose first lines look harmless shows the delete at its end too.
func TestTerminalApprovalShowsTheWholeCall(t *testing.T) {
	code := strings.Repeat("# tidy the headings of the people notes\n", 20) + `delete_entities(entity_names=["Welcome"])`
	args, err := json.Marshal(map[string]string{"target": "tidy", "code": code})
	if err != nil {
		t.Fatal(err)
	}
	var prompt bytes.Buffer
	confirm(strings.NewReader("n\n"), &prompt, true, "run_starlark", args)
	if !strings.Contains(prompt.String(), `delete_entities(entity_names=[\"Welcome\"])`) {
		t.Errorf("memotree call asked about %q, without the end of the script", prompt.String())
	}
	var stderr bytes.Buffer
	s := &chatSession{env: Env{Stderr: &stderr}, in: bufio.NewScanner(strings.NewReader("n\n"))}
	if yes, _ := s.approve(t.Context(), "run_starlark", string(args)); yes {
		t.Error("the REPL approved on n")
	}
	if !strings.Contains(stderr.String(), `delete_entities(entity_names=[\"Welcome\"])`) {
		t.Errorf("the REPL asked about %q, without the end of the script", stderr.String())
	}
}
