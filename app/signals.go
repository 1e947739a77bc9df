package app

import (
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"
)

// takeSignals takes SIGINT and SIGTERM over from Wails, whose own handler prints
// "Ctrl+C detected" for either: it must be called once Wails has started (the window's
// startup), since Wails registers its handler just before. The first of the two
// signals calls closeWindow, which closes the window as File › Quit does; SIGTERM (a
// session ending, `kill`, a test) does so quietly, Ctrl+C says so on out. A second
// signal while the window closes ends the process as the system's default does. The
// returned function stops listening.
func takeSignals(out io.Writer, closeWindow func()) (stop func()) {
	signal.Reset(os.Interrupt, syscall.SIGTERM) // Wails' handler no longer hears them
	ch := make(chan os.Signal, 1)
	signal.Notify(ch, os.Interrupt, syscall.SIGTERM)
	done := make(chan struct{})
	go func() {
		select {
		case sig := <-ch:
			signal.Reset(os.Interrupt, syscall.SIGTERM)
			if sig == os.Interrupt {
				fmt.Fprintln(out, "\nmemotree: Ctrl+C: closing the window")
			}
			closeWindow()
		case <-done:
		}
	}()
	return func() {
		signal.Stop(ch)
		close(done)
	}
}
