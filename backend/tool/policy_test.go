package tool

import (
	"context"
	"testing"
)

type policyIn struct {
	DryRun *bool  `json:"dry_run,omitempty"`
	Code   string `json:"code,omitempty"`
}

func policyTool(name string, class Class) *Tool {
	return New(name, class, "A tool of the policy test.", func(context.Context, *Call, policyIn) (Result, any, error) { return OK("ran"), nil, nil })
}

// The policy reads the tools' attributes: each permission, for each kind of tool and
// call, says Allow, Ask or Refuse, and Check answers what the guard says without
// running anything.
func TestJudge(t *testing.T) {
	r := NewRegistry()
	gc := policyTool("gc", Destructive).WithDryRun(func(a map[string]any) bool { return a["dry_run"] != false })
	script := policyTool("script", Write).NotInScripts().WithCalls(func(a map[string]any) []string {
		if a["code"] == "del" {
			return []string{"read", "del"}
		}
		return []string{"read"}
	})
	if err := r.Register(policyTool("read", ReadOnly), policyTool("write", Write), policyTool("del", Destructive), gc,
		policyTool("commit", Write).WithHistory().NotInScripts(), policyTool("discard", Destructive).WithHistory(), script); err != nil {
		t.Fatal(err)
	}
	no := map[string]any{}
	cases := []struct {
		tool     string
		args     map[string]any
		approved bool
		read     Verdict
		propose  Verdict
	}{
		{"read", no, false, Allow, Allow},
		{"write", no, false, Refuse, Allow},
		{"del", no, false, Refuse, Ask},
		{"del", no, true, Refuse, Allow},
		{"gc", no, false, Refuse, Allow},
		{"gc", map[string]any{"dry_run": false}, false, Refuse, Ask},
		{"commit", no, false, Refuse, Refuse},
		{"commit", no, true, Refuse, Refuse},
		{"discard", no, false, Refuse, Ask},
		{"discard", no, true, Refuse, Allow},
		{"script", map[string]any{"code": "read"}, false, Allow, Allow},
		{"script", map[string]any{"code": "del"}, false, Allow, Ask},
		{"script", map[string]any{"code": "del"}, true, Allow, Allow},
	}
	for _, c := range cases {
		tl, _ := r.Get(c.tool)
		for perm, want := range map[Permission]Verdict{PermRead: c.read, PermPropose: c.propose, PermWrite: Allow, "": c.read} {
			if got, _ := r.Judge(perm, tl, c.args, c.approved); got != want {
				t.Errorf("%s %v approved=%v under %q: %v, want %v", c.tool, c.args, c.approved, perm, got, want)
			}
		}
	}
	if s, _ := r.Get("script"); s.InScripts() {
		t.Error("script may be called from scripts")
	}
	if w, _ := r.Get("write"); !w.InScripts() {
		t.Error("write may not be called from scripts")
	}

	// Check asks the guard without running the tool.
	ran := false
	if err := r.Register(New("probe", Destructive, "Probe.", func(context.Context, *Call, policyIn) (Result, any, error) {
		ran = true
		return OK("ran"), nil, nil
	})); err != nil {
		t.Fatal(err)
	}
	r.SetGuard(func(c *Call, tl *Tool, args map[string]any) *Result {
		if v, _ := r.Judge(PermPropose, tl, args, c.Approved); v == Ask {
			res := Fail(CodeApprovalRequired, "%s waits", tl.Name())
			return &res
		}
		return nil
	})
	if res := r.Check(&Call{}, "probe", []byte(`{}`)); res == nil || res.ErrorCode != CodeApprovalRequired || ran {
		t.Errorf("Check(probe) = %+v, ran %v", res, ran)
	}
	if res := r.Check(&Call{Approved: true}, "probe", []byte(`{}`)); res != nil || ran {
		t.Errorf("Check(approved probe) = %+v, ran %v", res, ran)
	}
	if res := r.Check(&Call{}, "probe", []byte(`{"nope":1}`)); res == nil || res.ErrorCode != CodeInvalidArguments {
		t.Errorf("Check with a bad argument = %+v", res)
	}
	if res := r.Check(&Call{}, "nope", nil); res == nil || res.ErrorCode != CodeUnknownTool {
		t.Errorf("Check of an unknown tool = %+v", res)
	}
}

func TestParsePermission(t *testing.T) {
	for in, want := range map[string]Permission{"read": PermRead, " Propose ": PermPropose, "WRITE": PermWrite} {
		if got, err := ParsePermission(in); err != nil || got != want {
			t.Errorf("ParsePermission(%q) = %q, %v", in, got, err)
		}
	}
	if _, err := ParsePermission("admin"); err == nil {
		t.Error("ParsePermission accepted admin")
	}
}
