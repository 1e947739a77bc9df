package catalog

import (
	"fmt"
	"os"
	"strings"
	"syscall"
	"testing"

	"github.com/memotree/memotree/backend/tool"
	"github.com/memotree/memotree/backend/vault"
)

// TestANoteHeldOpenIsAResult: a note Windows would not let be replaced while another
// program holds it (vault.ErrInUse, after the vault's retries) is a result the model
// can pass on, naming the note and what the person should do, not an internal error.
func TestANoteHeldOpenIsAResult(t *testing.T) {
	cause := &os.LinkError{Op: "rename", Old: "notes/.memotree-tmp-X", New: "notes/a.md", Err: syscall.Errno(32)}
	err := fmt.Errorf("write notes/a.md: replace: notes/a.md is open in another program; close it there and try again: %w",
		fmt.Errorf("rename notes/.memotree-tmp-X to notes/a.md: %w (tried 9 times in 1.27s): %w", vault.ErrInUse, cause))
	r, ok := writeFailure("notes/a.md", err)
	if !ok || r.ErrorCode != tool.CodeInUse {
		t.Fatalf("writeFailure = %+v, %v; want a result with %s", r, ok, tool.CodeInUse)
	}
	for _, s := range []string{"notes/a", "close it there"} {
		if !strings.Contains(r.Message, s) {
			t.Errorf("message %q does not say %q", r.Message, s)
		}
	}
}
