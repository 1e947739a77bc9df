// Package crashtest runs the child processes of crash tests: a test re-executes its own
// binary so that one of its tests (the child) does a long write, and kills it with
// SIGKILL at a chosen moment; the parent then reopens the vault and checks it. The
// child tells the parent where it is by printing lines on its standard output.
//
// How often a test kills and with which random delays is set by the environment, so
// that `make test` runs a few kills and a longer run many:
//
//	MEMOTREE_CRASH_KILLS=N   kills per test (each test has its own short default)
//	MEMOTREE_CRASH_SEED=S    the seed of the random delays (default: the clock)
//
// Every failure message names the seed, so a failing run can be repeated exactly.
// It is imported by tests only. Concurrency: a Child is used by one test goroutine.
package crashtest

import (
	"bufio"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// Kills returns how many times a crash test kills its child: MEMOTREE_CRASH_KILLS if
// set, else short.
func Kills(t testing.TB, short int) int {
	t.Helper()
	s := os.Getenv("MEMOTREE_CRASH_KILLS")
	if s == "" {
		return short
	}
	n, err := strconv.Atoi(s)
	if err != nil || n < 1 {
		t.Fatalf("MEMOTREE_CRASH_KILLS=%q: want a positive number", s)
	}
	return n
}

// Rand returns a generator seeded from MEMOTREE_CRASH_SEED, or from the clock, and the
// seed, which it logs.
func Rand(t testing.TB) (*rand.Rand, uint64) {
	t.Helper()
	seed := uint64(time.Now().UnixNano())
	if s := os.Getenv("MEMOTREE_CRASH_SEED"); s != "" {
		n, err := strconv.ParseUint(s, 10, 64)
		if err != nil {
			t.Fatalf("MEMOTREE_CRASH_SEED=%q: want a number", s)
		}
		seed = n
	}
	t.Logf("random kill delays with MEMOTREE_CRASH_SEED=%d", seed)
	return rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15)), seed
}

// Child is a running child process: the test binary running one test.
type Child struct {
	cmd    *exec.Cmd
	lines  chan string
	exited chan error
	last   string
}

// Start runs the test named test of this binary as a child, with env added to the
// environment. The child's standard output is read line by line (see Await); its
// standard error goes to the parent's.
func Start(t testing.TB, test string, env ...string) *Child {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^"+test+"$", "-test.count=1", "-test.v=false")
	cmd.Env = append(os.Environ(), env...)
	cmd.Stderr = os.Stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	c := &Child{cmd: cmd, lines: make(chan string, 1024), exited: make(chan error, 1)}
	go func() {
		sc := bufio.NewScanner(out)
		for sc.Scan() {
			c.lines <- sc.Text()
		}
		close(c.lines)
		c.exited <- cmd.Wait()
	}()
	t.Cleanup(func() { c.kill() })
	return c
}

// Await returns the first line the child prints that starts with prefix, skipping the
// others. It fails the test when the child ends first or nothing comes within
// timeout.
func (c *Child) Await(t testing.TB, prefix string, timeout time.Duration) string {
	t.Helper()
	deadline := time.NewTimer(timeout)
	defer deadline.Stop()
	for {
		select {
		case l, ok := <-c.lines:
			if !ok {
				t.Fatalf("the child ended before it printed %q (last line %q): %v", prefix, c.last, <-c.exited)
			}
			c.last = l
			if strings.HasPrefix(l, prefix) {
				return l
			}
		case <-deadline.C:
			t.Fatalf("the child printed no %q in %v (last line %q)", prefix, timeout, c.last)
		}
	}
}

// Last returns the last line Await read.
func (c *Child) Last() string { return c.last }

// Kill kills the child with SIGKILL and waits until it is gone. It returns the lines
// the child printed since the last Await, which tell how far it got.
func (c *Child) Kill(t testing.TB) []string {
	t.Helper()
	if err := c.cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatalf("kill the child: %v", err)
	}
	var rest []string
	for l := range c.lines {
		rest = append(rest, l)
	}
	err := <-c.exited
	if ws, ok := c.cmd.ProcessState.Sys().(syscall.WaitStatus); !ok || !ws.Signaled() {
		t.Fatalf("the child was not killed: it ended on its own (%v); output %q", err, rest)
	}
	return rest
}

// kill ends the child if it still runs (the test's cleanup).
func (c *Child) kill() {
	_ = c.cmd.Process.Signal(syscall.SIGKILL) // os.ErrProcessDone once it has ended
}

// Say prints a line for the parent: a child's progress report. A child that reports
// often also ends when its parent is gone (a write to the closed pipe ends it).
func Say(format string, args ...any) {
	fmt.Fprintf(os.Stdout, format+"\n", args...)
}
