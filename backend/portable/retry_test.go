package portable

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// heldRenamer fails its first `held` renames as Windows does while another program
// has the file open, then renames for real in dir.
type heldRenamer struct {
	dir   string
	held  int
	errno syscall.Errno
	calls int
}

func (h *heldRenamer) Rename(from, to string) error {
	h.calls++
	if h.calls <= h.held {
		return &os.LinkError{Op: "rename", Old: from, New: to, Err: h.errno}
	}
	return os.Rename(filepath.Join(h.dir, from), filepath.Join(h.dir, to))
}

// recordSleep records the waits instead of waiting.
func recordSleep(waits *[]time.Duration) func(context.Context, time.Duration) error {
	return func(ctx context.Context, d time.Duration) error {
		*waits = append(*waits, d)
		return ctx.Err()
	}
}

func note(t *testing.T, dir, name string) {
	t.Helper()
	if err := os.WriteFile(filepath.Join(dir, name), []byte("# "+name+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestRenameRetriesASharingViolation(t *testing.T) {
	dir := t.TempDir()
	note(t, dir, "a.md")
	r := &heldRenamer{dir: dir, held: 3, errno: errorSharingViolation}
	var waits []time.Duration
	err := Retry{GOOS: "windows", Sleep: recordSleep(&waits)}.Rename(t.Context(), r, "a.md", "b.md")
	if err != nil {
		t.Fatalf("Rename: %v", err)
	}
	if _, err := os.Stat(filepath.Join(dir, "b.md")); err != nil {
		t.Errorf("the rename did not happen: %v", err)
	}
	want := []time.Duration{10 * time.Millisecond, 20 * time.Millisecond, 40 * time.Millisecond}
	if diff := cmp.Diff(want, waits); diff != "" {
		t.Errorf("waits (-want +got):\n%s", diff)
	}
}

func TestRenameReportsAFileHeldOpen(t *testing.T) {
	for _, errno := range []syscall.Errno{errorSharingViolation, errorLockViolation, errorAccessDenied} {
		dir := t.TempDir()
		note(t, dir, "a.md")
		r := &heldRenamer{dir: dir, held: 100, errno: errno}
		var waits []time.Duration
		err := Retry{GOOS: "windows", Sleep: recordSleep(&waits)}.Rename(t.Context(), r, "a.md", "b.md")
		if !errors.Is(err, ErrInUse) || !errors.Is(err, errno) {
			t.Fatalf("errno %d: Rename = %v, want ErrInUse wrapping the cause", errno, err)
		}
		for _, s := range []string{"a.md", "b.md", "tried 9 times"} {
			if !strings.Contains(err.Error(), s) {
				t.Errorf("errno %d: %q does not say %q", errno, err, s)
			}
		}
		if r.calls != 9 || len(waits) != 8 || waits[7] != 500*time.Millisecond {
			t.Errorf("errno %d: %d tries and waits %v, want 9 tries, 8 waits up to 500ms", errno, r.calls, waits)
		}
		if _, err := os.Stat(filepath.Join(dir, "a.md")); err != nil {
			t.Errorf("errno %d: the note is gone: %v", errno, err)
		}
	}
}

func TestRenameDoesNotRetryOtherErrors(t *testing.T) {
	tests := []struct {
		name string
		goos string
		err  error
	}{
		{"no such file, on Windows", "windows", &os.LinkError{Op: "rename", Err: syscall.Errno(2)}},
		// errno 32 is EPIPE on Linux, not a sharing violation.
		{"the same number on Linux", "linux", &os.LinkError{Op: "rename", Err: syscall.Errno(32)}},
		{"not an errno", "windows", errors.New("disk on fire")},
	}
	for _, tt := range tests {
		calls := 0
		r := renamerFunc(func(string, string) error { calls++; return tt.err })
		var waits []time.Duration
		err := Retry{GOOS: tt.goos, Sleep: recordSleep(&waits)}.Rename(t.Context(), r, "a.md", "b.md")
		if !errors.Is(err, tt.err) || errors.Is(err, ErrInUse) || calls != 1 || len(waits) != 0 {
			t.Errorf("%s: Rename = %v after %d calls and waits %v, want the error at once", tt.name, err, calls, waits)
		}
	}
}

func TestRenameStopsWithItsContext(t *testing.T) {
	ctx, cancel := context.WithCancel(t.Context())
	r := renamerFunc(func(string, string) error {
		cancel()
		return &os.LinkError{Op: "rename", Err: errorSharingViolation}
	})
	err := Retry{GOOS: "windows"}.Rename(ctx, r, "a.md", "b.md")
	if !errors.Is(err, context.Canceled) || !errors.Is(err, errorSharingViolation) {
		t.Errorf("Rename = %v, want the cancellation and the cause", err)
	}
}

func TestInUse(t *testing.T) {
	wrapped := &os.PathError{Op: "open", Path: "a.md", Err: errorSharingViolation}
	if !InUse("windows", wrapped) {
		t.Error("a wrapped sharing violation is not InUse on Windows")
	}
	if InUse("darwin", wrapped) || InUse("linux", wrapped) {
		t.Error("errno 32 is InUse outside Windows")
	}
}

type renamerFunc func(from, to string) error

func (f renamerFunc) Rename(from, to string) error { return f(from, to) }

// The vault renames through an *os.Root: it is a Renamer.
var _ Renamer = (*os.Root)(nil)
