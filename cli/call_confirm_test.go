package cli

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/memotree/memotree/backend/approval"
	"github.com/memotree/memotree/backend/tool"
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

// At a terminal the person is asked, in the one wording of every face (who asks,
// the tool, the library, the whole call); y runs the call, anything else does not.
// Without one, nobody is asked and the refusal says how to allow it.
func TestConfirmAtTheTerminal(t *testing.T) {
	r := approval.Request{From: tool.ActorCLI, Library: "demo", Tool: "delete_entities", Args: `{"entity_names":["Welcome"]}`}
	for answer, want := range map[string]bool{"y\n": true, "YES\n": true, "n\n": false, "\n": false, "": false} {
		var prompt bytes.Buffer
		got, err := terminal{out: &prompt, line: lines(strings.NewReader(answer))}.ask(t.Context(), r)
		if got != want || err != nil {
			t.Errorf("answer %q: %v %v, want %v", answer, got, err, want)
		}
		if want := r.Question() + " [y/N] "; prompt.String() != want {
			t.Errorf("prompt %q, want %q", prompt.String(), want)
		}
	}
	if yes, err := callTerminal(Env{Stdin: strings.NewReader("y\n"), Stderr: &bytes.Buffer{}}, []string{"delete_entities", "-"}, false).ask(t.Context(), r); yes || !errors.Is(err, approval.ErrNobody) || !strings.Contains(err.Error(), "--yes") {
		t.Errorf("with the arguments on standard input: %v %v, want nobody to ask and how to allow it", yes, err)
	}
	if yes, _ := callTerminal(Env{Stderr: &bytes.Buffer{}}, nil, true).ask(t.Context(), r); !yes {
		t.Error("--yes did not approve")
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
	r := approval.Request{From: tool.ActorCLI, Library: "demo", Tool: "run_starlark", Args: string(args)}
	var prompt bytes.Buffer
	tm := terminal{out: &prompt, line: func() (string, bool) { return "n", true }}
	tm.ask(t.Context(), r)
	if !strings.Contains(prompt.String(), `delete_entities(entity_names=[\"Welcome\"])`) {
		t.Errorf("memotree call asked about %q, without the end of the script", prompt.String())
	}
	var stderr bytes.Buffer
	s := &chatSession{env: Env{Stderr: &stderr}, in: bufio.NewScanner(strings.NewReader("n\n"))}
	r.From = tool.ActorAgent
	if yes, _ := s.approve(t.Context(), r); yes {
		t.Error("the REPL approved on n")
	}
	if !strings.Contains(stderr.String(), `delete_entities(entity_names=[\"Welcome\"])`) || !strings.Contains(stderr.String(), `the agent wants to run run_starlark in library "demo"`) {
		t.Errorf("the REPL asked about %q, without the end of the script or the library", stderr.String())
	}
}
