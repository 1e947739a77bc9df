package vault

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/memotree/memotree/internal/wait"
)

func TestLockTwoVaults(t *testing.T) {
	dir := t.TempDir()
	a, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	b, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	unlock, err := a.Lock(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(t.Context(), 50*time.Millisecond)
	defer cancel()
	if _, err := b.Lock(ctx); !errors.Is(err, ErrLocked) {
		t.Fatalf("second Vault locked while the first holds it: %v", err)
	}
	ctx2, cancel2 := context.WithTimeout(t.Context(), 50*time.Millisecond)
	defer cancel2()
	if _, err := a.Write(ctx2, "x.md", nil, WriteOptions{}); !errors.Is(err, ErrLocked) {
		t.Fatalf("write while locked = %v, want ErrLocked", err)
	}
	waiting := make(chan struct{})
	b.onLockWait = func() { close(waiting) }
	go func() {
		<-waiting // b's Lock below has found the lock held: release it now
		unlock()
		unlock() // harmless
	}()
	ctx3, cancel3 := context.WithTimeout(t.Context(), wait.Timeout)
	defer cancel3()
	u2, err := b.Lock(ctx3)
	if err != nil {
		t.Fatalf("lock after release: %v", err)
	}
	u2()
}

// TestHelperProcess is not a test: TestLockProcesses runs the test binary again with
// MEMOTREE_LOCK_HELPER set, to hold the lock of the vault in that folder from another
// process until its standard input closes.
func TestHelperProcess(t *testing.T) {
	dir := os.Getenv("MEMOTREE_LOCK_HELPER")
	if dir == "" {
		t.Skip("helper process only")
	}
	v, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	unlock, err := v.Lock(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	os.Stdout.WriteString("locked\n")
	var buf [1]byte
	os.Stdin.Read(buf[:])
	unlock()
}

func TestLockProcesses(t *testing.T) {
	if runtime.GOOS != "linux" && runtime.GOOS != "darwin" && runtime.GOOS != "windows" {
		t.Skip("no cross-process lock here")
	}
	dir := t.TempDir()
	cmd := exec.CommandContext(t.Context(), os.Args[0], "-test.run=^TestHelperProcess$")
	cmd.Env = append(os.Environ(), "MEMOTREE_LOCK_HELPER="+dir)
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	buf := make([]byte, 7)
	if _, err := stdout.Read(buf); err != nil || !strings.HasPrefix(string(buf), "locked") {
		t.Fatalf("helper said %q, %v", buf, err)
	}
	v, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer v.Close()
	ctx, cancel := context.WithTimeout(t.Context(), 100*time.Millisecond)
	defer cancel()
	if _, err := v.Write(ctx, "n.md", []byte("x"), WriteOptions{}); !errors.Is(err, ErrLocked) {
		t.Fatalf("write while another process holds the lock = %v, want ErrLocked", err)
	}
	stdin.Close()
	if _, err := v.Write(t.Context(), "n.md", []byte("x"), WriteOptions{}); err != nil {
		t.Fatalf("write after the other process let go: %v", err)
	}
	if err := cmd.Wait(); err != nil {
		t.Errorf("helper: %v", err)
	}
	if _, err := os.Stat(filepath.Join(dir, "n.md")); err != nil {
		t.Error(err)
	}
}
