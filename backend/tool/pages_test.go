package tool

import (
	"context"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// pageIn is a seed 003 tool's input: the library travels inside page_index.
type pageIn struct {
	PageIndex   string `json:"page_index" jsonschema:"the page"`
	Name        string `json:"name,omitempty"`
	LibraryName string `json:"library_name,omitempty"`
}

// TestLibraryFromArguments checks LibraryFrom: a call without library_name acts on the
// library its page_index names, and the guard judges that library; library_name, when
// given, wins.
func TestLibraryFromArguments(t *testing.T) {
	r := NewRegistry()
	var guarded, handled []string
	r.SetGuard(func(c *Call, _ Request) *Result {
		guarded = append(guarded, c.Library)
		return nil
	})
	fromIndex := func(in pageIn) string {
		lib, _, _ := strings.Cut(in.PageIndex, ":")
		if lib == "unknown" {
			return ""
		}
		return lib
	}
	tl := NewRef[pageIn, any]("get_page").New(ReadOnly, "reads a page", func(ctx context.Context, c *Call, in pageIn) (Result, any, error) {
		handled = append(handled, c.Library)
		return OK("ok"), nil, nil
	}, LibraryFrom(fromIndex))
	if err := r.Register(tl); err != nil {
		t.Fatal(err)
	}
	for _, args := range []string{`{"page_index":"work:people/Ada"}`, `{"page_index":"unknown:x"}`, `{"page_index":"work:x","library_name":"home"}`} {
		if res, err := r.Call(context.Background(), &Call{Library: "caller"}, "get_page", []byte(args)); err != nil || res.IsError() {
			t.Fatalf("%s: %v %s", args, err, res.Message)
		}
	}
	want := []string{"work", "caller", "home"}
	if diff := cmp.Diff(want, guarded); diff != "" {
		t.Errorf("libraries the guard saw (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(want, handled); diff != "" {
		t.Errorf("libraries the handler saw (-want +got):\n%s", diff)
	}
	// Check tells the face the library too, so that it asks the person about the
	// library the call will act on.
	for i, args := range []string{`{"page_index":"work:people/Ada"}`, `{"page_index":"unknown:x"}`, `{"page_index":"work:x","library_name":"home"}`} {
		c := &Call{Library: "caller"}
		if res := r.Check(c, "get_page", []byte(args)); res != nil || c.Library != want[i] {
			t.Errorf("Check(%s): %v, library %q, want %q", args, res, c.Library, want[i])
		}
	}
}

// TestParamsInDeclaredOrder checks that Params lists the parameters as Usage does, the
// order positional Starlark arguments fill.
func TestParamsInDeclaredOrder(t *testing.T) {
	tl := newTool("get_page", ReadOnly, "", func(ctx context.Context, c *Call, in pageIn) (Result, any, error) { return Result{}, nil, nil })
	if diff := cmp.Diff([]string{"page_index", "name", "library_name"}, tl.Params()); diff != "" {
		t.Errorf("Params (-want +got):\n%s", diff)
	}
	if got := newTool("list", ReadOnly, "", func(ctx context.Context, c *Call, in listIn) (Result, any, error) { return Result{}, nil, nil }).Params(); !cmp.Equal(got, []string{"entity_glob", "offset", "limit", "summary_only"}) {
		t.Errorf("Params with paging: %v", got)
	}
}

// TestScriptValue checks that a script sees the value given to WithScriptValue (nil is
// None), else the data, and that the envelope is unchanged by it.
func TestScriptValue(t *testing.T) {
	r := OK("created").WithData(map[string]any{"index": "n:x", "name": "x"})
	if got := r.ForScript(); !cmp.Equal(got, r.Data) {
		t.Errorf("without a script value: %v", got)
	}
	s := r.WithScriptValue("n:x")
	if s.ForScript() != "n:x" || string(s.JSON()) != string(r.JSON()) {
		t.Errorf("with a script value: %v %s", s.ForScript(), s.JSON())
	}
	if none := r.WithScriptValue(nil); none.ForScript() != nil || none.Script == nil {
		t.Errorf("None: %+v", none)
	}
}
