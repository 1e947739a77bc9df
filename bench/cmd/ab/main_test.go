package main

import (
	"os/exec"
	"testing"
)

// A run fails on any exit status but 0 and the one -ok-exit names; a command that
// did not start at all always fails.
func TestFailed(t *testing.T) {
	status := func(code string) error { return exec.Command("sh", "-c", "exit "+code).Run() }
	cases := []struct {
		err  error
		ok   int
		want bool
	}{
		{status("0"), 0, false},
		{status("1"), 0, true},
		{status("1"), 1, false},
		{status("2"), 1, true},
		{exec.Command("/nonexistent/program").Run(), 1, true},
	}
	for i, c := range cases {
		if got := failed(c.err, c.ok); got != c.want {
			t.Errorf("case %d (%v, ok %d): failed = %v, want %v", i, c.err, c.ok, got, c.want)
		}
	}
}
