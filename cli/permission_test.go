package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Every command that opens a face takes the same --permission flag, checked the same
// way: one that names no --library is a usage error, said before anything opens.
func TestEveryFaceTakesThePermissionFlag(t *testing.T) {
	dir := demoCopy(t)
	for _, args := range [][]string{
		{"serve", "--addr", "127.0.0.1:0"},
		{"mcp"},
		{"call", "read_manual"},
		{"chat", "-p", "hello"},
		{"index"},
	} {
		code, _, stderr := runCLI(t, append(args, "--library", "demo="+dir, "--permission", "work=read")...)
		if code != 2 || !strings.Contains(stderr, `--permission names "work", which is not a mounted library`) {
			t.Errorf("%s with a --permission of no library: exit %d, %q", args[0], code, stderr)
		}
		code, _, stderr = runCLI(t, append(args, "--library", "demo="+dir, "--permission", "demo=all")...)
		if code != 2 || !strings.Contains(stderr, "want read, propose or write") {
			t.Errorf("%s with a wrong level: exit %d, %q", args[0], code, stderr)
		}
	}
}

// `memotree call` is the person's own, unlimited but for the confirmation of what
// deletes or discards; given a permission for the library, it is held to it as the
// agent is: read refuses writes, propose asks about deletes (--yes answers) and leaves
// commits to the window, write runs everything without asking.
func TestCallHonoursAGivenPermission(t *testing.T) {
	dir := demoCopy(t)
	call := func(perm string, args ...string) (int, string) {
		t.Helper()
		code, out, _ := runCLI(t, append([]string{"call", "--library", "demo=" + dir, "--permission", "demo=" + perm}, args...)...)
		return code, out
	}
	exists := func(name string) bool {
		_, err := os.Stat(filepath.Join(dir, name))
		return err == nil
	}
	if code, out := call("read", "create_entity", `{"entity_name":"cli/New","content":"x"}`); code != 1 || !strings.Contains(out, "permission_denied") || exists("cli/New.md") {
		t.Errorf("a write under read: exit %d, %q", code, out)
	}
	if code, out := call("read", "read_entities", `{"entity_names":["Welcome"]}`); code != 0 {
		t.Errorf("a read under read: exit %d, %q", code, out)
	}
	if code, out := call("propose", "git_commit", `{"message":"x"}`); code != 1 || !strings.Contains(out, "only the person commits") {
		t.Errorf("a commit under propose: exit %d, %q", code, out)
	}
	if code, out := call("propose", "delete_entities", `{"entity_names":["Welcome"]}`); code != 1 || !strings.Contains(out, "approval_required") || !strings.Contains(out, "--yes") || !exists("Welcome.md") {
		t.Errorf("a delete under propose without --yes: exit %d, %q", code, out)
	}
	if code, out := call("propose", "--yes", "delete_entities", `{"entity_names":["Welcome"]}`); code != 0 || exists("Welcome.md") {
		t.Errorf("a delete under propose with --yes: exit %d, %q", code, out)
	}
	if code, out := call("write", "delete_entities", `{"entity_names":["Ada Lovelace"]}`); code != 0 || exists("Ada Lovelace.md") {
		t.Errorf("a delete under write, asking nothing: exit %d, %q", code, out)
	}
	// Without --permission, call is the person: a write runs whatever the default.
	if code, out, _ := runCLI(t, "call", "--library", "demo="+dir, "create_entity", `{"entity_name":"cli/New","content":"x"}`); code != 0 || !exists("cli/New.md") {
		t.Errorf("a write without --permission: exit %d, %q", code, out)
	}
}
