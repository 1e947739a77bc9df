package main

import (
	"bufio"
	"bytes"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"
)

// Package initialisation runs in every process, a one-shot `memotree call` included,
// before anything it asks for. MemoTree's own packages keep it to appending to tables
// (at most about 1 KB each, 4.5 KB in all); a regular expression compiled in a
// package variable (a link pattern allocates about 5.5 KB), a schema built or a file
// read at init shows here as kilobytes: do that work on first use (sync.OnceValue).
// The budgets are allocated bytes, which do not depend on the machine's load.
const (
	initBytesPerPackage = 3 << 10
	initBytesTotal      = 12 << 10
)

// TestOwnPackagesInitCheaply runs this test binary again with GODEBUG=inittrace=1
// (which links every package the program does) and holds each of MemoTree's packages'
// init to initBytesPerPackage allocated bytes, and all of them to initBytesTotal.
func TestOwnPackagesInitCheaply(t *testing.T) {
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), "GODEBUG=inittrace=1")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("run %s with inittrace: %v\n%s", os.Args[0], err, stderr.String())
	}
	const mod = "github.com/memotree/memotree"
	total, seen := 0, 0
	trace := stderr.String()
	sc := bufio.NewScanner(strings.NewReader(trace))
	for sc.Scan() {
		// init github.com/memotree/memotree/backend/tool @3.9 ms, 0.003 ms clock, 984 bytes, 4 allocs
		f := strings.Fields(sc.Text())
		if len(f) < 11 || f[0] != "init" || f[8] != "bytes," || (f[1] != mod && !strings.HasPrefix(f[1], mod+"/")) {
			continue
		}
		n, err := strconv.Atoi(f[7])
		if err != nil {
			t.Fatalf("inittrace line %q: %v", sc.Text(), err)
		}
		seen++
		total += n
		if n > initBytesPerPackage {
			t.Errorf("init of %s allocates %d bytes, more than %d: move the work to first use", f[1], n, initBytesPerPackage)
		}
	}
	if seen < 5 {
		t.Fatalf("inittrace listed %d of MemoTree's packages, want the backend's and cli's:\n%s", seen, trace)
	}
	if total > initBytesTotal {
		t.Errorf("MemoTree's packages allocate %d bytes at init, more than %d", total, initBytesTotal)
	}
}
