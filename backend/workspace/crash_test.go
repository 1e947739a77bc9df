package workspace

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/memotree/memotree/backend/tool"
)

// linkers is how many notes link to the note the crash test renames.
const linkers = 300

// crashVault writes a note "Hub" and linkers notes that each link to it twice.
func crashVault(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	write := func(name, text string) {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("Hub.md", "# Hub\n\nThe note everyone links to.\n")
	for i := range linkers {
		write(fmt.Sprintf("n/%03d.md", i), fmt.Sprintf("# Note %d\n\nSee [[Hub]] and [[Hub|the hub]] again.\n", i))
	}
	return dir
}

// TestRenameKillChild renames Hub to Spoke and back until it is killed: the child of
// TestSIGKILLMidRenameIsAllOrNothing.
func TestRenameKillChild(t *testing.T) {
	dir := os.Getenv("MT_RENAME_KILL_VAULT")
	if dir == "" {
		t.Skip("child process of TestSIGKILLMidRenameIsAllOrNothing only")
	}
	ws, err := Open(t.Context(), []Spec{{Name: "v", Path: dir}}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	reg, err := ws.Registry()
	if err != nil {
		t.Fatal(err)
	}
	from, to := "Hub", "Spoke"
	if _, err := os.Stat(filepath.Join(dir, "Spoke.md")); err == nil {
		from, to = to, from
	}
	for {
		args, _ := json.Marshal(map[string]string{"old_name": from, "new_name": to})
		res, err := reg.Call(t.Context(), &tool.Call{Actor: tool.ActorCLI}, "rename_entity", args)
		if err != nil || res.IsError() {
			t.Fatalf("rename %s → %s: %v %+v", from, to, err, res)
		}
		from, to = to, from
	}
}

// TestSIGKILLMidRenameIsAllOrNothing kills a process at random moments while it renames
// a note that 300 notes link to (each rename rewrites 600 links and moves the file in
// one batch). After the next open the vault holds the note under exactly one name and
// every link names it: never half renamed.
func TestSIGKILLMidRenameIsAllOrNothing(t *testing.T) {
	dir := crashVault(t)
	for round, delay := range []time.Duration{150, 400, 700, 1100, 1600} {
		cmd := exec.Command(os.Args[0], "-test.run=^TestRenameKillChild$", "-test.count=1")
		cmd.Env = append(os.Environ(), "MT_RENAME_KILL_VAULT="+dir)
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		exited := make(chan error, 1)
		go func() { exited <- cmd.Wait() }()
		select {
		case err := <-exited:
			t.Fatalf("round %d: the child ended before it was killed: %v", round, err)
		case <-time.After(delay * time.Millisecond):
		}
		if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
			t.Fatal(err)
		}
		<-exited

		ws, err := Open(t.Context(), []Spec{{Name: "v", Path: dir}}, Options{}) // recovers
		if err != nil {
			t.Fatalf("round %d: reopen: %v", round, err)
		}
		ws.Close()
		hub, spoke := exists(dir, "Hub.md"), exists(dir, "Spoke.md")
		if hub == spoke {
			t.Fatalf("round %d: Hub.md exists %v, Spoke.md exists %v: want exactly one", round, hub, spoke)
		}
		name, other := "Hub", "Spoke"
		if spoke {
			name, other = other, name
		}
		for i := range linkers {
			b, err := os.ReadFile(filepath.Join(dir, "n", fmt.Sprintf("%03d.md", i)))
			if err != nil {
				t.Fatalf("round %d: %v", round, err)
			}
			s := string(b)
			if strings.Count(s, "[["+name) != 2 || strings.Contains(s, "[["+other) {
				t.Fatalf("round %d: the note is %s.md but n/%03d.md reads %q", round, name, i, s)
			}
		}
		// The batch's staged files are orphans once the process is gone: the next open
		// removes them. (Those in .memotree are removed once a minute old, since the
		// app writes its own files there without the vault lock.)
		if m, _ := filepath.Glob(filepath.Join(dir, "n", ".memotree-tmp-*")); len(m) > 0 {
			t.Errorf("round %d: %d temporary files left among the notes after recovery, e.g. %s", round, len(m), m[0])
		}
		t.Logf("round %d: killed after %v, the note is %s.md", round, delay*time.Millisecond, name)
	}
}

func exists(dir, name string) bool {
	_, err := os.Stat(filepath.Join(dir, name))
	return err == nil
}
