package tool

import (
	"context"
	"embed"
	"errors"
	"flag"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// update rewrites the golden files in testdata/ instead of comparing with them.
var update = flag.Bool("update", false, "rewrite golden files in testdata/")

// golden compares got with testdata/name, or writes it there with -update.
func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("read golden file (run with -update to create it): %v", err)
	}
	if diff := cmp.Diff(string(want), string(got)); diff != "" {
		t.Errorf("%s mismatch (-want +got):\n%s", path, diff)
	}
}

// relation is a nested input type, as the relation tools take.
type relation struct {
	From string `json:"from" jsonschema:"the entity the relation starts from"`
	To   string `json:"to" jsonschema:"the entity it points to"`
	Type string `json:"type" jsonschema:"the relation type, such as \"knows\""`
}

// echoIn exercises every kind of field a tool input can have.
type echoIn struct {
	EntityNames []string          `json:"entity_names" jsonschema:"the entities to act on"`
	Mode        string            `json:"mode,omitempty" jsonschema:"how to combine the content"`
	Count       int               `json:"count,omitempty" jsonschema:"how many times"`
	Ratio       *float64          `json:"ratio,omitempty" jsonschema:"a pointer field"`
	Props       map[string]string `json:"props,omitempty" jsonschema:"free-form properties"`
	Relations   []relation        `json:"relations,omitempty" jsonschema:"typed edges"`
	Confirmed   bool              `json:"confirmed,omitempty"`
	LibraryName string            `json:"library_name,omitempty" jsonschema:"the library; the default one when absent"`
}

// listIn is a list tool's input, with the standard paging arguments.
type listIn struct {
	EntityGlob string `json:"entity_glob" jsonschema:"a glob such as people/*"`
	Paging
}

// emptyIn is the input of a tool without arguments.
type emptyIn struct{}

// listOut is the output of the list tool.
type listOut struct {
	Entities []string `json:"entities"`
	Page     PageInfo `json:"page"`
}

// errBroken is what the broken test tool returns.
var errBroken = errors.New("disk on fire")

// testTools returns a registry with the test tools:
// echo (returns its input), list (pages 120 names), status (no arguments),
// boom (panics), broken (returns a Go error) and refuse (returns a tool failure).
func testRegistry(t testing.TB) *Registry {
	t.Helper()
	r := NewRegistry()
	names := make([]string, 120)
	for i := range names {
		names[i] = "note-" + string(rune('a'+i%26)) + string(rune('a'+i/26))
	}
	err := r.Register(
		newTool("echo", ReadOnly, "Echo the input.", func(ctx context.Context, c *Call, in echoIn) (Result, echoIn, error) {
			return OK("echoed"), in, nil
		}).Enum("mode", "merge", "replace", "append", "prepend"),
		newTool("list", ReadOnly, "List names.", func(ctx context.Context, c *Call, in listIn) (Result, *listOut, error) {
			page, info := Paginate(names, in.Paging)
			return OK(info.Hint("entities")), &listOut{Entities: page, Page: info}, nil
		}),
		newTool("status", ReadOnly, "Report status.", func(ctx context.Context, c *Call, in emptyIn) (Result, *emptyIn, error) {
			return OK("ok"), nil, nil
		}),
		newTool("boom", Write, "Panic.", func(ctx context.Context, c *Call, in emptyIn) (Result, *emptyIn, error) {
			panic("index out of range [3] with length 2")
		}),
		newTool("broken", Destructive, "Fail.", func(ctx context.Context, c *Call, in emptyIn) (Result, *emptyIn, error) {
			return OK("never shown"), nil, errBroken
		}),
		newTool("refuse", Write, "Refuse.", func(ctx context.Context, c *Call, in emptyIn) (Result, *emptyIn, error) {
			return Fail(CodeNotFound, "no entity %q", "Ada").WithData(map[string]any{"did_you_mean": []string{"Ada Lovelace"}}), nil, nil
		}),
	)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// testdataFS holds the test descriptions, as a tool family embeds its own.
//
//go:embed testdata/*.md
var testdataFS embed.FS
