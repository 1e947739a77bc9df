package catalog_test

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/memotree/memotree/backend/internal/filelock"
	"github.com/memotree/memotree/backend/tool"
	"github.com/memotree/memotree/backend/workspace"
	"github.com/memotree/memotree/bench/vaultgen"
)

// vouchChildEnv names the vault a child process of TestOneShotSearchTrustsRunningProcess
// keeps open as a running process does.
const vouchChildEnv = "MEMOTREE_TEST_VOUCH_CHILD"

// TestOneShotSearchTrustsRunningProcess runs searches as one-shot processes do, while
// another process (this test binary run again) keeps the vault open as `memotree mcp`
// or the window does: watching it, and vouching for its persisted search index. Right
// after outside edits (an append in place with its folder's time restored, a new note,
// a deleted one), every answer equals a plain scan of the files. Then the running
// process is killed, and the searches after more edits still equal the scan.
func TestOneShotSearchTrustsRunningProcess(t *testing.T) {
	if dir := os.Getenv(vouchChildEnv); dir != "" {
		runVoucherChild(dir)
		return
	}
	if runtime.GOOS != "linux" {
		t.Skip("a running process vouches for the index on Linux only (inotify)")
	}
	dir := filepath.Join(t.TempDir(), "vault")
	if _, err := vaultgen.Generate(dir, vaultgen.Options{Notes: 200, Seed: 5, Shape: vaultgen.ShapeFlow, MinWords: 50, MaxWords: 200}); err != nil {
		t.Fatal(err)
	}
	notes := scanNames(t, dir, regexp.MustCompile(``))
	check := func(when, word string) {
		t.Helper()
		reg, done := oneShot(t, dir)
		defer done()
		want := scanNames(t, dir, regexp.MustCompile(`(?i)\b`+word+`\b`))
		args, _ := json.Marshal(map[string]any{"content_glob": "/" + word + "/i", "limit": 500})
		if got := searchNames(t, reg, "search_in_contents", string(args)); !cmp.Equal(want, got) {
			t.Errorf("%s: search_in_contents /%s/i = %v, the files hold it in %v", when, word, got, want)
		}
		args, _ = json.Marshal(map[string]any{"query": word, "max_results": 200})
		if got := searchNames(t, reg, "search_nodes", string(args)); !cmp.Equal(want, got) {
			t.Errorf("%s: search_nodes %s = %v, the files hold it in %v", when, word, got, want)
		}
	}
	check("building the index", "quorble")

	child := exec.Command(os.Args[0], "-test.run=^TestOneShotSearchTrustsRunningProcess$")
	child.Env = append(os.Environ(), vouchChildEnv+"="+dir)
	child.Stderr = os.Stderr
	stdin, err := child.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := child.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := child.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() {
		stdin.Close()
		child.Process.Kill()
		child.Wait()
	}()
	ready := make(chan string, 1)
	go func() {
		line, _ := bufio.NewReader(stdout).ReadString('\n')
		ready <- line
	}()
	select {
	case line := <-ready:
		if line != "vouching\n" {
			t.Fatalf("the running process says %q", line)
		}
	case <-time.After(2 * time.Minute): // a last guard: it vouches once the vault is read
		t.Fatal("the running process does not vouch for the index")
	}
	lock := filepath.Join(dir, ".memotree", "search", "vouch.lock")

	edit := func(word string, k int) {
		t.Helper()
		edited := filepath.Join(dir, notes[k]+".md")
		folder, err := os.Stat(filepath.Dir(edited))
		if err != nil {
			t.Fatal(err)
		}
		f, err := os.OpenFile(edited, os.O_WRONLY|os.O_APPEND, 0)
		if err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(f, "\nA %s flywheel.\n", word)
		f.Close()
		if err := os.Chtimes(filepath.Dir(edited), time.Time{}, folder.ModTime()); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, word+" notes.md"), []byte("The "+word+" marker.\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.Remove(filepath.Join(dir, notes[k+1]+".md")); err != nil {
			t.Fatal(err)
		}
	}
	for round, word := range []string{"zindle", "frabble", "quorble"} {
		if held, err := filelock.Held(lock); err != nil || !held {
			t.Fatalf("round %d: the running process holds no lock: %v, %v", round, held, err)
		}
		edit(word, 2*round)
		check(fmt.Sprintf("round %d, vouched", round), word)
	}

	child.Process.Kill()
	child.Wait()
	if held, err := filelock.Held(lock); err != nil || held {
		t.Fatalf("the lock outlives the killed process: %v, %v", held, err)
	}
	edit("grommle", 10)
	check("after the running process died", "grommle")
	check("after the running process died, again", "zindle")
}

// searchNames calls a search and returns the notes it found, sorted (none on no_match).
func searchNames(t *testing.T, reg *tool.Registry, name, args string) []string {
	t.Helper()
	res := kitCall(t, reg, name, args)
	if res.ErrorCode == tool.CodeNoMatch {
		return nil
	}
	kitWant(t, res, tool.StatusSuccess)
	got := kitResultNames(t, res)
	slices.Sort(got)
	return got
}

// runVoucherChild keeps the vault open as a running process does, says "vouching"
// once it holds the voucher's lock, and runs until its standard input closes.
func runVoucherChild(dir string) {
	ws, err := workspace.Open(context.Background(), []workspace.Spec{{Name: "t", Path: dir}}, workspace.Options{Watch: true})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	defer ws.Close()
	if _, err := ws.Registry(); err != nil { // starts the search index in the background
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	lock := filepath.Join(dir, ".memotree", "search", "vouch.lock")
	for {
		if held, _ := filelock.Held(lock); held {
			break
		}
		time.Sleep(10 * time.Millisecond)
	}
	fmt.Println("vouching")
	bufio.NewReader(os.Stdin).ReadString('\n') // until the test closes it
}
