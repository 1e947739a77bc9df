package tool

import (
	"context"
	"encoding/json"
	"errors"
	"io/fs"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

func TestRegisterRefusesDuplicates(t *testing.T) {
	r := testRegistry(t)
	err := r.Register(newTool("echo", ReadOnly, "again", nop[emptyIn]))
	if !errors.Is(err, ErrDuplicate) {
		t.Errorf("duplicate tool: err = %v, want ErrDuplicate", err)
	}
	if err := r.Register(nil); !errors.Is(err, ErrInvalidTool) {
		t.Errorf("nil tool: err = %v, want ErrInvalidTool", err)
	}
}

func TestListAndGet(t *testing.T) {
	r := testRegistry(t)
	want := []string{"boom", "broken", "echo", "list", "refuse", "status"}
	if diff := cmp.Diff(want, r.Names()); diff != "" {
		t.Errorf("names (-want +got):\n%s", diff)
	}
	if tl, ok := r.Get("echo"); !ok || tl.Name() != "echo" {
		t.Errorf("Get(echo) = %v, %v", tl, ok)
	}
	if _, ok := r.Get("nope"); ok {
		t.Error("Get(nope) found a tool")
	}
}

func TestUnknownToolNamesNearest(t *testing.T) {
	r := testRegistry(t)
	tests := []struct{ name, want string }{
		{"ecko", `there is no tool "ecko"; the nearest are: echo, boom, list`},
		{"list_entities", `there is no tool "list_entities"; the nearest are: list, `},
		{strings.Repeat("x", 5000), `the nearest are:`},
	}
	for _, tt := range tests {
		res, err := r.Call(t.Context(), nil, tt.name, nil)
		if err != nil || res.ErrorCode != CodeUnknownTool || !strings.Contains(res.Message, tt.want) {
			t.Errorf("Call(%.20s) = %s %q, %v; want unknown_tool %q", tt.name, res.ErrorCode, res.Message, err, tt.want)
		}
		if len(res.Message) > 300 {
			t.Errorf("message is %d bytes", len(res.Message))
		}
	}
	res, _ := NewRegistry().Call(t.Context(), nil, "x", nil)
	if res.ErrorCode != CodeUnknownTool {
		t.Errorf("empty registry: %v", res)
	}
}

func TestHandlerFailures(t *testing.T) {
	r := testRegistry(t)
	res, err := r.Call(t.Context(), nil, "boom", nil)
	var pe *PanicError
	if !errors.As(err, &pe) || pe.Tool != "boom" || len(pe.Stack) == 0 {
		t.Errorf("panic: err = %v, want a PanicError with a stack", err)
	}
	if res.ErrorCode != CodeInternal || !strings.Contains(res.Message, "index out of range") {
		t.Errorf("panic result = %s %q", res.ErrorCode, res.Message)
	}

	res, err = r.Call(t.Context(), nil, "broken", nil)
	if !errors.Is(err, errBroken) {
		t.Errorf("broken: err = %v, want errBroken wrapped", err)
	}
	if res.Status != StatusError || res.ErrorCode != CodeInternal || res.Message != "broken failed: disk on fire" {
		t.Errorf("broken result = %+v", res)
	}

	res, err = r.Call(t.Context(), nil, "refuse", nil)
	if err != nil || res.ErrorCode != CodeNotFound || res.Data == nil {
		t.Errorf("refuse = %+v, %v", res, err)
	}
}

func TestCanceledContext(t *testing.T) {
	r := testRegistry(t)
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	res, err := r.Call(ctx, nil, "status", nil)
	if !errors.Is(err, context.Canceled) || res.ErrorCode != CodeCanceled {
		t.Errorf("Call = %s, %v; want canceled", res.ErrorCode, err)
	}
	slow := newTool("slow", ReadOnly, "d", func(ctx context.Context, c *Call, in emptyIn) (Result, any, error) {
		<-ctx.Done()
		return Result{}, nil, ctx.Err()
	})
	if err := r.Register(slow); err != nil {
		t.Fatal(err)
	}
	ctx, cancel = context.WithTimeout(t.Context(), 10*time.Millisecond)
	defer cancel()
	res, err = r.Call(ctx, nil, "slow", nil)
	if !errors.Is(err, context.DeadlineExceeded) || res.ErrorCode != CodeCanceled {
		t.Errorf("slow = %s, %v; want canceled", res.ErrorCode, err)
	}
}

func TestElapsed(t *testing.T) {
	r := NewRegistry()
	err := r.Register(newTool("nap", ReadOnly, "d", func(ctx context.Context, c *Call, in emptyIn) (Result, any, error) {
		time.Sleep(5 * time.Millisecond)
		return OK("rested"), nil, nil
	}))
	if err != nil {
		t.Fatal(err)
	}
	res, _ := r.Call(t.Context(), nil, "nap", nil)
	if res.Elapsed < 5*time.Millisecond {
		t.Errorf("elapsed = %v, want at least 5ms", res.Elapsed)
	}
}

func TestGuardAndCall(t *testing.T) {
	r := NewRegistry()
	var seen []Call
	err := r.Register(newTool("who", Write, "d", func(ctx context.Context, c *Call, in echoIn) (Result, any, error) {
		seen = append(seen, *c)
		return OK("ran"), nil, nil
	}))
	if err != nil {
		t.Fatal(err)
	}
	r.SetGuard(func(c *Call, q Request) *Result {
		if c.Library == "secret" && q.Tool().Class() != ReadOnly {
			res := Fail("", "library %s is read-only for %s", c.Library, c.Actor)
			return &res
		}
		return nil
	})
	call := &Call{Actor: MCPActor("claude"), Library: "work", Turn: "t1"}
	res, _ := r.Call(t.Context(), call, "who", json.RawMessage(`{"entity_names":[]}`))
	if res.Status != StatusSuccess {
		t.Fatalf("allowed call = %+v", res)
	}
	res, _ = r.Call(t.Context(), call, "who", json.RawMessage(`{"entity_names":[],"library_name":"secret"}`))
	if res.ErrorCode != CodePermissionDenied || res.Message != "library secret is read-only for mcp:claude" {
		t.Errorf("guarded call = %+v", res)
	}
	want := []Call{{Actor: "mcp:claude", Library: "work", Turn: "t1"}}
	if diff := cmp.Diff(want, seen); diff != "" {
		t.Errorf("calls seen by the handler (-want +got):\n%s", diff)
	}
	if call.Library != "work" {
		t.Errorf("the caller's Call was changed: %+v", call)
	}
}

func TestConcurrentCalls(t *testing.T) {
	r := testRegistry(t)
	var wg sync.WaitGroup
	for i := range 16 {
		wg.Go(func() {
			for j := range 50 {
				name := []string{"echo", "list", "boom", "status", "nope"}[(i+j)%5]
				res, _ := r.Call(t.Context(), &Call{Actor: ActorAgent}, name, json.RawMessage(`{"entity_names":["a"]}`))
				if res.Status == "" {
					t.Errorf("%s: empty status", name)
				}
				_ = r.List()
			}
		})
	}
	wg.Wait()
}

func TestZeroResultIsSuccess(t *testing.T) {
	r := NewRegistry()
	err := r.Register(
		newTool("zero", ReadOnly, "d", func(ctx context.Context, c *Call, in emptyIn) (Result, any, error) { return Result{}, nil, nil }),
		newTool("coded", ReadOnly, "d", func(ctx context.Context, c *Call, in emptyIn) (Result, any, error) {
			return Result{ErrorCode: CodeConflict}, nil, nil
		}),
	)
	if err != nil {
		t.Fatal(err)
	}
	for name, want := range map[string]Status{"zero": StatusSuccess, "coded": StatusError} {
		if res, _ := r.Call(t.Context(), nil, name, nil); res.Status != want {
			t.Errorf("%s status = %q, want %q", name, res.Status, want)
		}
	}
}

func TestDescription(t *testing.T) {
	docs, err := fs.Sub(testdataFS, "testdata")
	if err != nil {
		t.Fatal(err)
	}
	d, err := Description(docs, "example_tool")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(d, "Reads") || strings.HasSuffix(d, "\n") {
		t.Errorf("description = %q", d)
	}
	if _, err := Description(docs, "missing"); err == nil {
		t.Error("missing description: no error")
	}
	defer func() {
		if recover() == nil {
			t.Error("MustDescription of a missing file did not panic")
		}
	}()
	MustDescription(docs, "missing")
}
