package tool

import (
	"context"
	"strings"
	"testing"
)

type policyIn struct {
	DryRun *bool  `json:"dry_run,omitempty"`
	Code   string `json:"code,omitempty"`
}

// dryRun is the rule of the gc test tool: a dry run unless dry_run is false.
func (in policyIn) dryRun() bool { return in.DryRun == nil || *in.DryRun }

func policyTool(name string, class Class, opts ...Option[policyIn]) *Tool {
	return NewRef[policyIn, any](name).New(class, "A tool of the policy test.",
		func(context.Context, *Call, policyIn) (Result, any, error) { return OK("ran"), nil, nil }, opts...)
}

// request is the Request the registry makes of a call of the tool named name with
// the JSON arguments args.
func request(t *testing.T, r *Registry, name, args string) Request {
	t.Helper()
	tl, ok := r.Get(name)
	if !ok {
		t.Fatalf("no tool %s", name)
	}
	in, _, bad := tl.prepare([]byte(args))
	if bad != nil {
		t.Fatalf("%s(%s): %s", name, args, bad.Message)
	}
	return Request{tool: tl, in: in}
}

// The policy reads the tools' attributes and, through their rules, the calls' typed
// inputs: each permission, for each kind of tool and call, says Allow, Ask or Refuse,
// and Check answers what the guard says without running anything.
func TestJudge(t *testing.T) {
	r := NewRegistry()
	gc := policyTool("gc", Destructive, DryRun(policyIn.dryRun))
	script := policyTool("script", Write, Calls(func(in policyIn) []*Tool {
		var out []*Tool
		for _, name := range strings.Fields(in.Code) {
			if tl, ok := r.Get(name); ok {
				out = append(out, tl)
			}
		}
		return out
	})).NotInScripts()
	if err := r.Register(policyTool("read", ReadOnly), policyTool("write", Write), policyTool("del", Destructive), gc,
		policyTool("commit", Write).WithHistory().NotInScripts(), policyTool("discard", Destructive).WithHistory(), script); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		tool, args string
		approved   bool
		read       Verdict
		propose    Verdict
		person     bool // NeedsPerson
	}{
		{"read", `{}`, false, Allow, Allow, false},
		{"write", `{}`, false, Refuse, Allow, false},
		{"del", `{}`, false, Refuse, Ask, true},
		{"del", `{}`, true, Refuse, Allow, true},
		{"gc", `{}`, false, Refuse, Allow, false},
		{"gc", `{"dry_run":null}`, false, Refuse, Allow, false},
		{"gc", `{"dry_run":true}`, false, Refuse, Allow, false},
		{"gc", `{"dry_run":false}`, false, Refuse, Ask, true},
		{"commit", `{}`, false, Refuse, Refuse, false},
		{"commit", `{}`, true, Refuse, Refuse, false},
		{"discard", `{}`, false, Refuse, Ask, true},
		{"discard", `{}`, true, Refuse, Allow, true},
		{"script", `{"code":"read"}`, false, Allow, Allow, false},
		{"script", `{"code":"read del"}`, false, Allow, Ask, true},
		{"script", `{"code":"read del"}`, true, Allow, Allow, true},
		{"script", `{"code":"gc"}`, false, Allow, Ask, true}, // a script's calls are taken at their worst
	}
	for _, c := range cases {
		q := request(t, r, c.tool, c.args)
		for perm, want := range map[Permission]Verdict{PermRead: c.read, PermPropose: c.propose, PermWrite: Allow, "": c.read} {
			if got, _ := q.Judge(perm, c.approved); got != want {
				t.Errorf("%s %s approved=%v under %q: %v, want %v", c.tool, c.args, c.approved, perm, got, want)
			}
		}
		if got := q.NeedsPerson(); got != c.person {
			t.Errorf("%s %s: NeedsPerson = %v, want %v", c.tool, c.args, got, c.person)
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
	if err := r.Register(NewRef[policyIn, any]("probe").New(Destructive, "Probe.", func(context.Context, *Call, policyIn) (Result, any, error) {
		ran = true
		return OK("ran"), nil, nil
	})); err != nil {
		t.Fatal(err)
	}
	r.SetGuard(func(c *Call, q Request) *Result {
		if v, _ := q.Judge(PermPropose, c.Approved); v == Ask {
			res := Fail(CodeApprovalRequired, "%s waits", q.Tool().Name())
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
	if res := r.Check(&Call{}, "gc", []byte(`{"dry_run":false}`)); res == nil || res.ErrorCode != CodeApprovalRequired {
		t.Errorf("Check(gc, dry_run=false) = %+v", res)
	}
	if res := r.Check(&Call{}, "gc", []byte(`{}`)); res != nil {
		t.Errorf("Check(gc) = %+v, want a dry run allowed", res)
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
