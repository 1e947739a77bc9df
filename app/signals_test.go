//go:build unix

package app

import (
	"bytes"
	"os"
	"os/signal"
	"syscall"
	"testing"
)

// TestSIGTERMClosesQuietly plays Wails' handler (registered before the window's
// startup), then takes the signals over as the startup does: a SIGTERM sent to the
// process closes the window, prints nothing, and never reaches Wails' handler, which
// would print "Ctrl+C detected".
func TestSIGTERMClosesQuietly(t *testing.T) {
	wails := make(chan os.Signal, 1)
	signal.Notify(wails, os.Interrupt, syscall.SIGTERM)
	defer signal.Stop(wails)

	var out bytes.Buffer
	closed := make(chan struct{})
	stop := takeSignals(&out, func() { close(closed) })
	defer stop()
	if err := syscall.Kill(os.Getpid(), syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	select {
	case <-closed:
	case <-t.Context().Done():
		t.Fatal("SIGTERM did not close the window")
	}
	// Go delivers a signal to every channel registered for it in one pass, so had
	// Wails' channel been registered still, it would hold the signal by now.
	select {
	case sig := <-wails:
		t.Errorf("Wails' handler got %v", sig)
	default:
	}
	if out.Len() != 0 {
		t.Errorf("SIGTERM printed %q, want nothing", out.String())
	}
}

// TestInterruptSaysSo sends SIGINT, as Ctrl+C in the terminal does: the window closes
// and the terminal is told why.
func TestInterruptSaysSo(t *testing.T) {
	var out bytes.Buffer
	closed := make(chan struct{})
	stop := takeSignals(&out, func() { close(closed) })
	defer stop()
	if err := syscall.Kill(os.Getpid(), syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
	select {
	case <-closed:
	case <-t.Context().Done():
		t.Fatal("SIGINT did not close the window")
	}
	if got := out.String(); got != "\nmemotree: Ctrl+C: closing the window\n" {
		t.Errorf("Ctrl+C printed %q", got)
	}
}
