package approval

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/memotree/memotree/backend/tool"
)

// Every face asks in one wording: who asks, the tool, the library it acts on and the
// whole call; and the person's answer, or the lack of one, is answered in one wording
// whatever the face.
func TestOneWording(t *testing.T) {
	args := `{"target":"tidy","code":"` + strings.Repeat("# tidy\\n", 500) + `delete_entities(entity_names=[\"Welcome\"])"}`
	for _, c := range []struct {
		from, who string
	}{
		{tool.ActorAgent, "the agent"},
		{tool.ActorCLI, "memotree call"},
		{tool.MCPActor("Claude Desktop"), "Claude Desktop (an MCP client)"},
	} {
		q := Request{From: c.from, Library: "work", Tool: "run_starlark", Args: args}.Question()
		want := "MemoTree: " + c.who + ` wants to run run_starlark in library "work", which can delete, merge or discard notes:` + "\n" + args + "\nAllow it?"
		if q != want {
			t.Errorf("%s asks:\n%s\nwant:\n%s", c.from, q, want)
		}
	}
	r := Request{From: tool.ActorAgent, Library: "work", Tool: "delete_entities", Args: `{}`}
	for _, c := range []struct {
		name string
		yes  bool
		err  error
		want string // "" when the call runs
	}{
		{"yes", true, nil, ""},
		{"no", false, nil, "delete_entities was not run: the person declined. Nothing changed; do not retry it unless the person asks"},
		{"dismissed", false, ErrDismissed, "delete_entities was not run: the person dismissed the question. Nothing changed; do not retry it unless the person asks"},
		{"nobody", false, Nobody("pass --yes to allow it"), `delete_entities waits for the person's approval in library "work" and was not run: no one can be asked here: pass --yes to allow it. Nothing changed`},
		{"no window", false, ErrNoWindow, "delete_entities was not run: no answer came (no MemoTree window is open on this vault). Nothing changed"},
		{"stopped", true, context.Canceled, "delete_entities was not run: no answer came (context canceled). Nothing changed"},
	} {
		res := Decide(r, c.yes, c.err)
		switch {
		case c.want == "" && res != nil:
			t.Errorf("%s: refused %q", c.name, res.Message)
		case c.want != "" && (res == nil || res.Message != c.want || res.ErrorCode != tool.CodeApprovalRequired):
			t.Errorf("%s: %+v, want approval_required saying %q", c.name, res, c.want)
		}
	}
	if !errors.Is(Nobody("x"), ErrNobody) {
		t.Error("Nobody does not wrap ErrNobody")
	}
}
