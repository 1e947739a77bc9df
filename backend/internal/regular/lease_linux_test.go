package regular

import (
	"os"
	"os/signal"
	"path/filepath"
	"syscall"
	"testing"

	"golang.org/x/sys/unix"
)

// TestReadWaitsForALeaseToBreak: a file under a write lease (a Samba oplock, an NFS
// server's delegation on the machine that serves the vault) answers a non-blocking
// open with EAGAIN while the kernel asks the lease's holder to let go; a blocking
// open would wait for that. The read waits too, and gets the file once the holder
// lets go, instead of failing with "resource temporarily unavailable".
func TestReadWaitsForALeaseToBreak(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "note.md")
	if err := os.WriteFile(p, []byte("leased\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	holder, err := os.OpenFile(p, os.O_RDWR, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer holder.Close()
	broken := make(chan os.Signal, 1)
	signal.Notify(broken, syscall.SIGIO) // the kernel tells the holder with SIGIO
	defer signal.Stop(broken)
	if _, err := unix.FcntlInt(holder.Fd(), unix.F_SETLEASE, unix.F_WRLCK); err != nil {
		t.Skipf("cannot take a lease on this file system: %v", err)
	}
	released := make(chan error, 1)
	go func() {
		<-broken
		_, err := unix.FcntlInt(holder.Fd(), unix.F_SETLEASE, unix.F_UNLCK)
		released <- err
	}()
	b, err := ReadPath(p)
	if err != nil || string(b) != "leased\n" {
		t.Fatalf("ReadPath of a leased file = %q, %v; want its content once the lease is let go", b, err)
	}
	if err := <-released; err != nil {
		t.Fatal(err)
	}
}
