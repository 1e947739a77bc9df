package script

import (
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// killScript creates 400 notes, one tool call each, so that a kill lands in the middle.
const killScript = `
for i in range(400):
    create_entity(entity_name="batch/n" + str(1000 + i)[1:], content="note %d" % i)
__result__ = "all 400"
`

// TestKillChild is the child process of TestSIGKILLMidScriptIsAllOrNothing: it runs
// the 400-note script on the vault named by MT_KILL_VAULT until it is killed.
func TestKillChild(t *testing.T) {
	dir := os.Getenv("MT_KILL_VAULT")
	if dir == "" {
		t.Skip("child process of TestSIGKILLMidScriptIsAllOrNothing only")
	}
	e := newEnv(t, dir, Limits{})
	o := e.mustRun(t, killScript, false)
	if o.Failure != nil {
		t.Fatalf("the script failed: %+v", o.Failure)
	}
}

func countBatch(dir string) int {
	m, _ := filepath.Glob(filepath.Join(dir, "batch", "*.md"))
	return len(m)
}

func TestSIGKILLMidScriptIsAllOrNothing(t *testing.T) {
	for _, at := range []int{1, 150, 390} {
		dir := writeVault(t, true)
		before := treeHash(t, dir)
		cmd := exec.Command(os.Args[0], "-test.run=^TestKillChild$", "-test.count=1")
		cmd.Env = append(os.Environ(), "MT_KILL_VAULT="+dir)
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		exited := make(chan error, 1)
		go func() { exited <- cmd.Wait() }()
		deadline := time.Now().Add(60 * time.Second)
	wait:
		for countBatch(dir) < at && time.Now().Before(deadline) {
			select {
			case err := <-exited:
				t.Fatalf("the child ended before it was killed: %v", err)
			case <-time.After(time.Millisecond):
				continue wait
			}
		}
		seen := countBatch(dir)
		if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
			t.Fatal(err)
		}
		<-exited
		if seen < at {
			t.Fatalf("the child made only %d notes in a minute", seen)
		}
		killedAt := countBatch(dir)
		newEnv(t, dir, Limits{}) // opening the library recovers
		n := countBatch(dir)
		t.Logf("killed with %d notes written (%d seen), %d after the next open", killedAt, seen, n)
		switch n {
		case 0:
			if after := treeHash(t, dir); after != before {
				t.Errorf("tree changed after recovery:\n%s", git(t, dir, "status", "--porcelain", "--untracked-files=all"))
			}
		case 400:
		default:
			t.Errorf("%d notes after recovery; want 0 or 400", n)
		}
		assertNoIntent(t, dir)
	}
}
