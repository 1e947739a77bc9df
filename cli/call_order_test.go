package cli

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestCallFlagsAfterTool: `memotree call TOOL --library NAME=PATH [JSON]`, the order
// the seeds' examples use, runs the tool as the order with flags first does.
func TestCallFlagsAfterTool(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "Ada.md"), []byte("# Ada\n\nWrote the first program.\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	lib := "v=" + dir
	read := `{"entity_names":["Ada"]}`
	for _, args := range [][]string{
		{"call", "--library", lib, "read_entities", read},
		{"call", "read_entities", "--library", lib, read},
		{"call", "read_entities", read, "--library", lib},
		{"call", "read_entities", "--library=" + lib, read, "--json"},
		{"call", "--json", "read_entities", read, "--library", lib},
	} {
		code, out, stderr := runCLI(t, args...)
		if code != 0 || !strings.Contains(out, "Wrote the first program.") {
			t.Errorf("%q: exit %d, out %q, stderr %q", args, code, out, stderr)
		}
		if json := strings.Contains(strings.Join(args, " "), "--json"); json != strings.HasPrefix(out, "{") {
			t.Errorf("%q: --json given %v, but the output is %q", args, json, out)
		}
	}
}

// TestParseInterspersed: flags anywhere, positional arguments in order, "--" ending
// the flags (unless it is a flag's value), "-" positional.
func TestParseInterspersed(t *testing.T) {
	tests := []struct {
		args       []string
		rest       []string
		lib        string
		asJSON     bool
		wantErrSub string
	}{
		{args: []string{"tool", "--lib", "a", "{}"}, rest: []string{"tool", "{}"}, lib: "a"},
		{args: []string{"--json", "tool", "-"}, rest: []string{"tool", "-"}, asJSON: true},
		{args: []string{"tool", "-", "--json"}, rest: []string{"tool", "-"}, asJSON: true},
		{args: []string{"tool", "--", "--json"}, rest: []string{"tool", "--json"}},
		{args: []string{"--lib", "--", "tool"}, rest: []string{"tool"}, lib: "--"},
		{args: []string{"tool", "--lib=a", "--", "-x"}, rest: []string{"tool", "-x"}, lib: "a"},
		{args: []string{"tool", "--nope"}, wantErrSub: "nope"},
		{args: nil, rest: nil},
	}
	for _, tt := range tests {
		fs := flag.NewFlagSet("t", flag.ContinueOnError)
		fs.SetOutput(new(strings.Builder))
		lib := fs.String("lib", "", "")
		asJSON := fs.Bool("json", false, "")
		rest, err := parseInterspersed(fs, tt.args)
		if tt.wantErrSub != "" {
			if err == nil || !strings.Contains(err.Error(), tt.wantErrSub) {
				t.Errorf("%q: err %v, want one saying %q", tt.args, err, tt.wantErrSub)
			}
			continue
		}
		if err != nil {
			t.Errorf("%q: %v", tt.args, err)
			continue
		}
		if d := cmp.Diff(tt.rest, rest); d != "" {
			t.Errorf("%q: positional (-want +got):\n%s", tt.args, d)
		}
		if *lib != tt.lib || *asJSON != tt.asJSON {
			t.Errorf("%q: lib %q json %v, want %q %v", tt.args, *lib, *asJSON, tt.lib, tt.asJSON)
		}
	}
}
