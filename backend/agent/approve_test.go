package agent_test

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/memotree/memotree/backend/agent"
	"github.com/memotree/memotree/backend/approval"
	"github.com/memotree/memotree/backend/llm/llmtest"
	"github.com/memotree/memotree/backend/tool"
)

func TestDestructiveCallsWaitForApproval(t *testing.T) {
	del := llmtest.ToolCall("call_1", "delete_entities", `{"entity_names":["Welcome"]}`)
	tests := []struct {
		name       string
		perm       tool.Permission
		approve    approval.Asker
		wantAsked  bool
		wantGone   bool
		wantResult string
	}{
		{"approved", tool.PermPropose, func(context.Context, approval.Request) (bool, error) { return true, nil }, true, true, "status: success"},
		{"declined", tool.PermPropose, func(context.Context, approval.Request) (bool, error) { return false, nil }, true, false, "the person declined"},
		{"no answer", tool.PermPropose, func(context.Context, approval.Request) (bool, error) { return false, errors.New("window closed") }, true, false, "window closed"},
		{"no one to ask", tool.PermPropose, nil, false, false, "no one can be asked"},
		{"write runs", tool.PermWrite, nil, false, true, "status: success"},
		{"read refuses", tool.PermRead, nil, false, false, "read-only"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			srv := llmtest.New(t, del, llmtest.Text("done"))
			a, ws := setupPerm(t, srv, tc.perm)
			asked := false
			var events []string
			if tc.approve != nil {
				a.Approval.Ask = func(ctx context.Context, r approval.Request) (bool, error) {
					asked = true
					if r.Tool != "delete_entities" || !strings.Contains(r.Args, "Welcome") || r.Library != "demo" || r.From != tool.ActorAgent {
						t.Errorf("asked about %+v", r)
					}
					return tc.approve(ctx, r)
				}
			}
			a.OnCall = func(e agent.CallEvent) { events = append(events, e.Phase) }
			hist, answer, err := a.Turn(context.Background(), nil, "delete Welcome")
			if err != nil || answer != "done" {
				t.Fatalf("answer %q, err %v", answer, err)
			}
			if asked != tc.wantAsked {
				t.Errorf("asked = %v, want %v", asked, tc.wantAsked)
			}
			checkHistory(t, hist, 4)
			if !strings.Contains(hist[2].Content, tc.wantResult) {
				t.Errorf("tool result = %q, want %q", hist[2].Content, tc.wantResult)
			}
			l, _ := ws.Library("")
			_, _, rerr := l.Vault().Read("Welcome.md")
			if gone := rerr != nil; gone != tc.wantGone {
				t.Errorf("Welcome deleted = %v, want %v (%v)", gone, tc.wantGone, rerr)
			}
			want := "end"
			switch {
			case tc.wantAsked && tc.wantGone:
				want = "approval,start,end"
			case tc.wantAsked:
				want = "approval,end"
			case tc.perm != tool.PermPropose:
				want = "start,end"
			}
			if got := strings.Join(events, ","); got != want {
				t.Errorf("events = %s, want %s", got, want)
			}
		})
	}
}

// An approved discard passes the guard that keeps git_checkout with the person under
// propose, and restores the note from git.
func TestApprovedDiscardPassesTheGuard(t *testing.T) {
	srv := llmtest.New(t, llmtest.ToolCall("c", "git_checkout", `{"entity_names":["Welcome"],"confirmed":true}`), llmtest.Text("done"))
	a, ws := setupPerm(t, srv, tool.PermPropose)
	l, _ := ws.Library("")
	dir := l.Vault().Dir()
	for _, args := range [][]string{{"init", "-q"}, {"add", "-A"}, {"-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "init"}} {
		if out, err := exec.Command("git", append([]string{"-C", dir}, args...)...).CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v %s", args, err, out)
		}
	}
	orig, err := os.ReadFile(filepath.Join(dir, "Welcome.md"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "Welcome.md"), []byte("scribbled"), 0o644); err != nil {
		t.Fatal(err)
	}
	a.Approval.Ask = func(context.Context, approval.Request) (bool, error) { return true, nil }
	hist, _, err := a.Turn(context.Background(), nil, "discard")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(hist[2].Content, "status: success") {
		t.Errorf("approved discard: %q", hist[2].Content)
	}
	if now, _ := os.ReadFile(filepath.Join(dir, "Welcome.md")); string(now) != string(orig) {
		t.Errorf("Welcome.md not restored: %q", now)
	}
}

// A script that names a destructive tool waits for the approval the tool itself would:
// run_starlark is not a way around it.
func TestScriptsThatDeleteWaitForApproval(t *testing.T) {
	code := `delete_entities(entity_names=["Welcome"])` + "\n" + `__result__ = "deleted"`
	args, _ := json.Marshal(map[string]string{"target": "delete Welcome", "code": code})
	for _, approve := range []bool{false, true} {
		srv := llmtest.New(t, llmtest.ToolCall("call_1", "run_starlark", string(args)), llmtest.Text("done"))
		a, ws := setupPerm(t, srv, tool.PermPropose)
		asked := false
		a.Approval.Ask = func(_ context.Context, r approval.Request) (bool, error) {
			asked = r.Tool == "run_starlark"
			return approve, nil
		}
		if _, _, err := a.Turn(context.Background(), nil, "delete Welcome with a script"); err != nil {
			t.Fatal(err)
		}
		l, _ := ws.Library("")
		_, _, rerr := l.Vault().Read("Welcome.md")
		if !asked || (rerr != nil) != approve {
			t.Errorf("approve=%v: asked %v, Welcome deleted %v", approve, asked, rerr != nil)
		}
	}
	// A script of reads runs without asking.
	read, _ := json.Marshal(map[string]string{"target": "read", "code": `__result__ = read_entities(entity_names=["Welcome"])`})
	srv := llmtest.New(t, llmtest.ToolCall("call_1", "run_starlark", string(read)), llmtest.Text("done"))
	a, _ := setupPerm(t, srv, tool.PermPropose)
	a.Approval.Ask = func(context.Context, approval.Request) (bool, error) {
		t.Error("a script of reads asked for approval")
		return false, nil
	}
	if _, _, err := a.Turn(context.Background(), nil, "read"); err != nil {
		t.Fatal(err)
	}
}
