//go:build unix

package search

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/memotree/memotree/backend/vault"
	"github.com/memotree/memotree/backend/watch"
)

// TestAnswerNeverFollowsALinkOrWaits: a fence that is a link to a file outside the
// vault, a named pipe or a folder gets no answer: nothing is written outside, and the
// voucher never blocks; a name with a folder in it is not a fence.
func TestAnswerNeverFollowsALinkOrWaits(t *testing.T) {
	dir := writeVault(t, small)
	v, err := vault.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer v.Close()
	internal := filepath.Join(dir, ".memotree")
	if err := os.MkdirAll(filepath.Join(internal, watch.FencePrefix+"dir"), 0o755); err != nil {
		t.Fatal(err)
	}
	outside := filepath.Join(t.TempDir(), "profile")
	if err := os.WriteFile(outside, []byte("kept\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, filepath.Join(internal, watch.FencePrefix+"link")); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(filepath.Join(internal, watch.FencePrefix+"pipe"), 0o644); err != nil {
		t.Skipf("cannot make a named pipe here: %v", err)
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		for _, name := range []string{"link", "pipe", "dir"} {
			if err := writeAnswer(v.State(), watch.FencePrefix+name, []byte("{}\n")); err == nil {
				t.Errorf("an answer was written into the fence %s", name)
			}
		}
	}()
	select {
	case <-done:
	case <-time.After(30 * time.Second): // a last guard: a refusal is immediate
		t.Fatal("answering a fence that is a named pipe blocks")
	}
	if b, _ := os.ReadFile(outside); string(b) != "kept\n" {
		t.Errorf("the file outside the vault now holds %q", b)
	}
	for _, name := range []string{watch.FencePrefix + "../x", "sub/" + watch.FencePrefix + "x", "other"} {
		if validFence(name) {
			t.Errorf("%q is taken for a fence", name)
		}
	}
}
