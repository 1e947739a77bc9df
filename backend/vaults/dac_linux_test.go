package vaults

import (
	"runtime"
	"testing"

	"golang.org/x/sys/unix"
)

// asPlainUser runs f as a user whom file permissions stop: for the superuser, on a
// thread of its own whose capabilities to read and search any file
// (CAP_DAC_OVERRIDE, CAP_DAC_READ_SEARCH) are lowered while f runs. f must do its
// system calls on the calling goroutine. The thread is then left to end with its
// goroutine, so no other code ever runs without those capabilities.
func asPlainUser(t *testing.T, f func()) {
	t.Helper()
	done := make(chan struct{})
	var failed error
	go func() {
		defer close(done)
		runtime.LockOSThread() // never unlocked: the thread exits with this goroutine
		hdr := unix.CapUserHeader{Version: unix.LINUX_CAPABILITY_VERSION_3}
		var data [2]unix.CapUserData
		if err := unix.Capget(&hdr, &data[0]); err != nil {
			failed = err
			return
		}
		for _, c := range []uint{unix.CAP_DAC_OVERRIDE, unix.CAP_DAC_READ_SEARCH} {
			data[c/32].Effective &^= 1 << (c % 32)
		}
		if err := unix.Capset(&hdr, &data[0]); err != nil {
			failed = err
			return
		}
		f()
	}()
	<-done
	if failed != nil {
		t.Fatalf("lower the thread's capabilities: %v", failed)
	}
}
