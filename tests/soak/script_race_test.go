package soak

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// racingScript appends a line to shared, shows it on a view (whose file in .memotree
// changes at once: the handshake that tells the test the script has written), waits
// until signal says "go", appends a second line, and ends as ending says.
func racingScript(id, ending string) string {
	return fmt.Sprintf(`
update_entity(entity_name="shared", content="script %[1]s line 1", mode="append")
expand_node(entity_name="shared", level="summary", view_name="handshake-%[1]s")
for i in range(200000):
    e = read_entities(entity_names=["signal"])["entities"][0]
    if "error" in e:
        print(e["error"])
    if "go" in e.get("content", ""):
        break
update_entity(entity_name="shared", content="script %[1]s line 2", mode="append")
%[2]s
`, id, ending)
}

// raceVault makes a vault with the two notes of racingScript.
func raceVault(t *testing.T) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "vault")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	for name, text := range map[string]string{"shared": "# Shared\n", "signal": "wait\n"} {
		if err := os.WriteFile(notePath(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// startScript starts `memotree call run_starlark` on dir and waits until the script
// has made its first write (its handshake view exists); it returns the process and
// a channel that gets its exit and output.
func startScript(t *testing.T, ctx context.Context, dir, id, code string, dryRun bool) (*exec.Cmd, <-chan scriptExit) {
	t.Helper()
	args, _ := json.Marshal(map[string]any{"target": "race " + id, "code": code, "dry_run": dryRun})
	cmd := memotree(ctx, "call", "--library", "v="+dir, "--json", "run_starlark", string(args))
	var out strings.Builder
	cmd.Stdout, cmd.Stderr = &out, os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan scriptExit, 1)
	go func() {
		err := cmd.Wait()
		exited <- scriptExit{err, out.String()}
	}()
	view := filepath.Join(dir, ".memotree", "views", "handshake-"+id+".json")
	deadline := time.Now().Add(time.Minute)
	for {
		if _, err := os.Stat(view); err == nil {
			return cmd, exited
		}
		select {
		case x := <-exited:
			t.Fatalf("script %s ended before its first write was shown: %v\n%s", id, x.err, x.out)
		case <-time.After(time.Millisecond):
		}
		if time.Now().After(deadline) {
			t.Fatalf("script %s: no handshake in a minute", id)
		}
	}
}

type scriptExit struct {
	err error
	out string
}

// appendAsOther appends line to shared from another `memotree call` process, which
// must be told success.
func appendAsOther(t *testing.T, ctx context.Context, dir, line string) {
	t.Helper()
	args, _ := json.Marshal(map[string]any{"entity_name": "shared", "content": line, "mode": "append"})
	out, err := memotree(ctx, "call", "--library", "v="+dir, "update_entity", string(args)).CombinedOutput()
	if err != nil || !strings.Contains(string(out), "status: success") {
		t.Fatalf("the other writer's append was not acknowledged: %v\n%s", err, out)
	}
}

// TestScriptIsolatedFromOtherWriters is issue 28's first defect, with real processes:
// a `memotree call run_starlark` appends to a note, another `memotree call` appends to
// the same note and is told success, the script appends again and then fails,
// finishes, was a dry run, or is killed. The other writer's acknowledged line is
// there, once, in every case; none of the script's lines is (a script that finished
// is refused with a conflict naming the note), now and after the next process opens
// the vault.
func TestScriptIsolatedFromOtherWriters(t *testing.T) {
	cases := []struct {
		name, ending string
		dryRun, kill bool
		wantExit     int
		wantOut      string
	}{
		{"fails", `fail("the script gives up")`, false, false, 1, "the script gives up"},
		{"finishes", `__result__ = "done"`, false, false, 1, "conflict"},
		{"dry run", `__result__ = "done"`, true, false, 0, "nothing was written"},
		{"killed", `__result__ = "done"`, false, true, -1, ""},
	}
	for i, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			ctx, cancel := context.WithCancel(t.Context())
			defer cancel()
			dir := raceVault(t)
			id := fmt.Sprint(i)
			cmd, exited := startScript(t, ctx, dir, id, racingScript(id, c.ending), c.dryRun)
			appendAsOther(t, ctx, dir, "the other writer's line")
			var x scriptExit
			if c.kill {
				_ = cmd.Process.Signal(syscall.SIGKILL)
				x = <-exited
			} else {
				if err := os.WriteFile(notePath(dir, "signal"), []byte("go\n"), 0o644); err != nil {
					t.Fatal(err)
				}
				x = <-exited
				var ee *exec.ExitError
				code := 0
				if errors.As(x.err, &ee) {
					code = ee.ExitCode()
				}
				if code != c.wantExit || !strings.Contains(x.out, c.wantOut) {
					t.Errorf("the script exited %d (%v), want %d with %q:\n%s", code, x.err, c.wantExit, c.wantOut, x.out)
				}
			}
			checkShared := func(when string) {
				b, err := os.ReadFile(notePath(dir, "shared"))
				if err != nil {
					t.Fatal(err)
				}
				if n := strings.Count(string(b), "the other writer's line"); n != 1 {
					t.Errorf("%s: the other writer's acknowledged line is in shared %d times, want once:\n%s", when, n, b)
				}
				if strings.Contains(string(b), "script "+id+" line") {
					t.Errorf("%s: the script's lines are in shared, though it did not finish unopposed:\n%s", when, b)
				}
			}
			checkShared("after the script")
			if c.name == "finishes" {
				if !strings.Contains(x.out, "shared") {
					t.Errorf("the conflict does not name the note:\n%s", x.out)
				}
			}
			// The next process opens the vault and finishes what a crash left.
			out, err := memotree(ctx, "doctor", "--library", "v="+dir).CombinedOutput()
			if err != nil {
				t.Errorf("memotree doctor after the race: %v\n%s", err, out)
			}
			checkShared("after the next process opened the vault")
		})
	}
}

// raceRounds is how many rounds TestScriptsRaceWriters runs: 2 by default,
// MEMOTREE_SOAK/250 when set (20 in `make soak`).
func raceRounds(t *testing.T) int {
	if s := os.Getenv("MEMOTREE_SOAK"); s != "" {
		return max(2, appendCounts(t)/25)
	}
	return 2
}

// raceNotes are the notes the scripts and the other writers of
// TestScriptsRaceWriters all write to.
var raceNotes = []string{"r/one", "r/two", "r/three"}

// TestScriptsRaceWriters races scripts against other writers with no handshake: in
// each round two `memotree call run_starlark` processes append to the shared notes
// twice each and end as a seeded choice says (finish, fail, dry run), while two
// `memotree call update_entity` processes append lines to the same notes. Whatever the
// interleaving, every line another writer was told was written is there exactly once,
// and each script's lines are all there (it was applied) or none (it failed, was a dry
// run, or was refused with a conflict), as its answer says. `make soak` runs more
// rounds.
func TestScriptsRaceWriters(t *testing.T) {
	rng, seed := seededRand(t)
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	dir := filepath.Join(t.TempDir(), "vault")
	if err := os.MkdirAll(filepath.Join(dir, "r"), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, n := range raceNotes {
		if err := os.WriteFile(notePath(dir, n), []byte("# "+n+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	type scriptRun struct {
		id, ending string
		dryRun     bool
		out        string
	}
	var acks []ack
	var scripts []*scriptRun
	for round := range raceRounds(t) {
		results := make(chan []ack, 2)
		for w := range 2 {
			go func() {
				var got []ack
				for k := range 4 {
					note := raceNotes[(w+k)%len(raceNotes)]
					line := fmt.Sprintf("writer %d round %d line %d", w, round, k)
					args, _ := json.Marshal(map[string]any{"entity_name": note, "content": line, "mode": "append"})
					out, err := memotree(ctx, "call", "--library", "v="+dir, "update_entity", string(args)).CombinedOutput()
					if err == nil && strings.Contains(string(out), "status: success") {
						got = append(got, ack{note, line})
					}
				}
				results <- got
			}()
		}
		var runs []*scriptRun
		for s := range 2 {
			r := &scriptRun{id: fmt.Sprintf("%d-%d", round, s)}
			switch rng.IntN(3) {
			case 0:
				r.ending = `__result__ = "done"`
			case 1:
				r.ending = `fail("the script gives up")`
			default:
				r.ending, r.dryRun = `__result__ = "done"`, true
			}
			runs = append(runs, r)
		}
		finished := make(chan struct{}, len(runs))
		for _, r := range runs {
			go func() {
				defer func() { finished <- struct{}{} }()
				code := ""
				for _, n := range raceNotes {
					code += fmt.Sprintf("update_entity(entity_name=%q, content=\"script %s first\", mode=\"append\")\n", n, r.id)
				}
				code += "for i in range(50):\n    read_entities(entity_names=[\"r/one\"])\n"
				for _, n := range raceNotes {
					code += fmt.Sprintf("update_entity(entity_name=%q, content=\"script %s second\", mode=\"append\")\n", n, r.id)
				}
				code += r.ending + "\n"
				args, _ := json.Marshal(map[string]any{"target": "race", "code": code, "dry_run": r.dryRun})
				out, _ := memotree(ctx, "call", "--library", "v="+dir, "--json", "run_starlark", string(args)).Output()
				r.out = string(out)
			}()
		}
		for range runs {
			<-finished
		}
		for range 2 {
			acks = append(acks, <-results...)
		}
		scripts = append(scripts, runs...)
	}
	checkAcks(t, dir, acks, seed)
	applied := 0
	for _, r := range scripts {
		var res struct {
			Status string `json:"status"`
			Data   struct {
				Applied bool `json:"applied"`
			} `json:"data"`
		}
		if err := json.Unmarshal([]byte(r.out), &res); err != nil {
			t.Errorf("script %s answered no JSON (MEMOTREE_CRASH_SEED=%d): %v\n%s", r.id, seed, err, r.out)
			continue
		}
		want := 0
		if res.Data.Applied {
			want, applied = 1, applied+1
		}
		for _, n := range raceNotes {
			b, _ := os.ReadFile(notePath(dir, n))
			for _, which := range []string{"first", "second"} {
				line := fmt.Sprintf("script %s %s", r.id, which)
				if got := strings.Count(string(b), line); got != want {
					t.Errorf("%s holds %q %d times, want %d (the script answered applied=%v; MEMOTREE_CRASH_SEED=%d):\n%s", n, line, got, want, res.Data.Applied, seed, b)
				}
			}
		}
	}
	t.Logf("%d scripts, %d applied, %d other writes acknowledged", len(scripts), applied, len(acks))
}
