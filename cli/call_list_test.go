package cli

import (
	"strings"
	"testing"
)

// TestCallListNeedsNoLibrary checks that `memotree call --list` lists the catalogue
// without a vault (the list does not depend on one), with each tool's class, and that
// a call of a tool still asks for a library.
func TestCallListNeedsNoLibrary(t *testing.T) {
	code, stdout, stderr := runCLI(t, "call", "--list")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	for _, want := range []string{"create_entity ", "delete_entities ", "run_starlark ", "get_page ", "list_segments ", "remove_page "} {
		if !strings.Contains(stdout, want) {
			t.Errorf("--list lacks %q:\n%s", want, stdout)
		}
	}
	if !strings.Contains(stdout, "destructive") || !strings.Contains(stdout, "read_only") {
		t.Errorf("--list lacks the classes:\n%s", stdout)
	}
	if code, _, stderr := runCLI(t, "call", "read_manual"); code != 2 || !strings.Contains(stderr, "--library") {
		t.Errorf("a call without a library: exit %d, %s", code, stderr)
	}
}
