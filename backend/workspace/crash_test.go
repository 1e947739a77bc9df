package workspace

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/memotree/memotree/backend/doctor"
	"github.com/memotree/memotree/backend/internal/crashtest"
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

// crashChild opens the vault a crash test's child works on (named by env) and its
// registry; outside a crash test (env unset) the child test is skipped.
func crashChild(t *testing.T, env, parent string) (string, *tool.Registry) {
	t.Helper()
	dir := os.Getenv(env)
	if dir == "" {
		t.Skip("child process of " + parent + " only")
	}
	ws, err := Open(t.Context(), []Spec{{Name: "v", Path: dir}}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	reg, err := ws.Registry()
	if err != nil {
		t.Fatal(err)
	}
	return dir, reg
}

// TestRenameKillChild renames Hub to Spoke and back until it is killed: the child of
// TestSIGKILLMidRenameIsAllOrNothing.
func TestRenameKillChild(t *testing.T) {
	dir, reg := crashChild(t, "MT_RENAME_KILL_VAULT", "TestSIGKILLMidRenameIsAllOrNothing")
	from, to := "Hub", "Spoke"
	if _, err := os.Stat(filepath.Join(dir, "Spoke.md")); err == nil {
		from, to = to, from
	}
	for stop := time.Now().Add(2 * time.Minute); time.Now().Before(stop); {
		args, _ := json.Marshal(map[string]string{"old_name": from, "new_name": to})
		crashtest.Say("rename %s %s", from, to)
		start := time.Now()
		res, err := reg.Call(t.Context(), &tool.Call{Actor: tool.ActorCLI}, "rename_entity", args)
		if err != nil || res.IsError() {
			t.Fatalf("rename %s → %s: %v %+v", from, to, err, res)
		}
		crashtest.Say("renamed %d", time.Since(start))
		from, to = to, from
	}
}

// killDuring starts the child test with env, waits for its first report starting
// with begin, and kills it a random moment later, within span (learnt, the first
// time, from the child's own report starting with done: "done NANOSECONDS"). It
// returns the delay and a description of the kill for failure messages.
func killDuring(t *testing.T, rng *rand.Rand, seed uint64, span *time.Duration, child, begin, done string, env ...string) (time.Duration, string) {
	t.Helper()
	c := crashtest.Start(t, child, env...)
	c.Await(t, begin, time.Minute)
	if *span == 0 {
		f := strings.Fields(c.Await(t, done, time.Minute))
		ns, _ := strconv.ParseInt(f[len(f)-1], 10, 64)
		*span = time.Duration(ns) * 11 / 10
		c.Await(t, begin, time.Minute)
	}
	delay := time.Duration(rng.Int64N(int64(*span) + 1))
	time.Sleep(delay)
	rest := c.Kill(t)
	return delay, fmt.Sprintf("MEMOTREE_CRASH_SEED=%d, killed %v after %q began (it takes about %v); then %q", seed, delay, begin, *span, rest)
}

// checkDoctor runs the check of memotree doctor on dir and fails unless it finds the
// vault healthy: no orphaned temporary file, every note readable, the journey
// readable, no broken link, no shared name, and the index's counts as expected.
func checkDoctor(t *testing.T, where, dir string, notes, links int) {
	t.Helper()
	r, err := doctor.Check(t.Context(), "v", dir, doctor.Options{})
	if err != nil {
		t.Fatalf("%s: doctor: %v", where, err)
	}
	// A kill while the batch's intent was staged leaves its temporary file in
	// .memotree/, which an open removes once it is a minute old (the app writes its own
	// files there without the vault lock), so doctor rightly lists it as not yet
	// removed. Temporary files anywhere else are orphans the open should have removed.
	young := 0
	for _, f := range r.TempFiles.Examples {
		if strings.HasPrefix(f.Path, ".memotree/") && !f.Removed {
			young++
		}
	}
	stray := r.TempFiles.Count - young
	healthy := young == len(r.TempFiles.Examples) || r.Healthy()
	if !healthy || r.BrokenNotes.Count > 0 || stray > 0 || r.BrokenLinks.Count > 0 || r.DuplicateNames.Count > 0 || r.JourneyErrors.Count > 0 {
		b, _ := json.MarshalIndent(r, "", "  ")
		t.Fatalf("%s: doctor reports problems:\n%s", where, b)
	}
	if r.Notes != notes || (links >= 0 && r.Links != links) {
		t.Fatalf("%s: doctor counts %d notes and %d links, want %d and %d", where, r.Notes, r.Links, notes, links)
	}
}

// TestSIGKILLMidRenameIsAllOrNothing kills a process at random moments (seeded; see
// backend/internal/crashtest) while it renames a note that 300 notes link to (each
// rename rewrites 600 links and moves the file in one batch). After the next open the
// vault holds the note under exactly one name and every link names it: never half
// renamed; the journey reads, and memotree doctor finds the index consistent with the
// files (no broken link, no orphaned temporary file). MEMOTREE_CRASH_KILLS sets the
// number of kills (default 4).
func TestSIGKILLMidRenameIsAllOrNothing(t *testing.T) {
	dir := crashVault(t)
	rng, seed := crashtest.Rand(t)
	var span time.Duration
	for round := range crashtest.Kills(t, 4) {
		delay, where := killDuring(t, rng, seed, &span, "TestRenameKillChild", "rename ", "renamed ", "MT_RENAME_KILL_VAULT="+dir)
		where = fmt.Sprintf("round %d (%s)", round, where)

		ws, err := Open(t.Context(), []Spec{{Name: "v", Path: dir}}, Options{}) // recovers
		if err != nil {
			t.Fatalf("%s: reopen: %v", where, err)
		}
		ws.Close()
		hub, spoke := exists(dir, "Hub.md"), exists(dir, "Spoke.md")
		if hub == spoke {
			t.Fatalf("%s: Hub.md exists %v, Spoke.md exists %v: want exactly one", where, hub, spoke)
		}
		name, other := "Hub", "Spoke"
		if spoke {
			name, other = other, name
		}
		for i := range linkers {
			b, err := os.ReadFile(filepath.Join(dir, "n", fmt.Sprintf("%03d.md", i)))
			if err != nil {
				t.Fatalf("%s: %v", where, err)
			}
			s := string(b)
			if strings.Count(s, "[["+name) != 2 || strings.Contains(s, "[["+other) {
				t.Fatalf("%s: the note is %s.md but n/%03d.md reads %q", where, name, i, s)
			}
		}
		// The batch's staged files are orphans once the process is gone: the next open
		// removes them. (Those in .memotree are removed once a minute old, since the
		// app writes its own files there without the vault lock.)
		if m, _ := filepath.Glob(filepath.Join(dir, "n", ".memotree-tmp-*")); len(m) > 0 {
			t.Errorf("%s: %d temporary files left among the notes after recovery, e.g. %s", where, len(m), m[0])
		}
		checkDoctor(t, where, dir, linkers+1, 2*linkers)
		t.Logf("round %d: killed after %v, the note is %s.md", round, delay, name)
	}
}

// bigLines is how many lines the single-note crash test writes per version (about
// 300 kB), so that a kill can land inside the write of one file.
const bigLines = 8000

func bigBody(version int) string {
	var b strings.Builder
	fmt.Fprintf(&b, "version %d\n\n", version)
	line := fmt.Sprintf("line of version %d, links to [[Hub]]\n", version)
	for range bigLines {
		b.WriteString(line)
	}
	return b.String()
}

// TestWriteKillChild replaces the body of the note Big, version after version, with
// update_entity, until it is killed: the child of TestSIGKILLMidNoteWrite.
func TestWriteKillChild(t *testing.T) {
	dir, reg := crashChild(t, "MT_WRITE_KILL_VAULT", "TestSIGKILLMidNoteWrite")
	b, err := os.ReadFile(filepath.Join(dir, "Big.md"))
	if err != nil {
		t.Fatal(err)
	}
	version := 0
	if m := versionRE.FindStringSubmatch(string(b)); m != nil {
		version, _ = strconv.Atoi(m[1])
	}
	for stop := time.Now().Add(2 * time.Minute); time.Now().Before(stop); {
		version++
		args, _ := json.Marshal(map[string]string{"entity_name": "Big", "content": bigBody(version), "mode": "replace"})
		crashtest.Say("write %d", version)
		start := time.Now()
		res, err := reg.Call(t.Context(), &tool.Call{Actor: tool.ActorCLI}, "update_entity", args)
		if err != nil || res.IsError() {
			t.Fatalf("write version %d: %v %+v", version, err, res)
		}
		crashtest.Say("wrote %d", time.Since(start))
	}
}

var versionRE = regexp.MustCompile(`(?m)^version (\d+)$`)

// TestSIGKILLMidNoteWrite kills, at random moments, a process replacing a 300 kB note
// through update_entity: after the next open the note holds one whole version (never
// a mix, never cut short), the journey reads, and memotree doctor finds the vault
// healthy. MEMOTREE_CRASH_KILLS sets the number of kills (default 4).
func TestSIGKILLMidNoteWrite(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "Hub.md"), []byte("# Hub\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "Big.md"), []byte(bigBody(0)), 0o644); err != nil {
		t.Fatal(err)
	}
	rng, seed := crashtest.Rand(t)
	var span time.Duration
	last := 0
	for round := range crashtest.Kills(t, 4) {
		delay, where := killDuring(t, rng, seed, &span, "TestWriteKillChild", "write ", "wrote ", "MT_WRITE_KILL_VAULT="+dir)
		where = fmt.Sprintf("round %d (%s)", round, where)
		ws, err := Open(t.Context(), []Spec{{Name: "v", Path: dir}}, Options{})
		if err != nil {
			t.Fatalf("%s: reopen: %v", where, err)
		}
		ws.Close()
		b, err := os.ReadFile(filepath.Join(dir, "Big.md"))
		if err != nil {
			t.Fatalf("%s: %v", where, err)
		}
		text := string(b)
		m := versionRE.FindStringSubmatch(text)
		if m == nil {
			t.Fatalf("%s: Big.md names no version (%d bytes, starts %q)", where, len(text), text[:min(len(text), 80)])
		}
		version, _ := strconv.Atoi(m[1])
		if i := strings.Index(text, "version "+m[1]+"\n"); !strings.HasSuffix(text, bigBody(version)) || strings.Count(text, "line of version") != bigLines || i < 0 {
			t.Fatalf("%s: Big.md is not one whole version: %d bytes, %d lines of a version, want %d of version %d", where, len(text), strings.Count(text, "line of version"), bigLines, version)
		}
		if version < last {
			t.Fatalf("%s: Big.md went back from version %d to %d", where, last, version)
		}
		last = version
		checkDoctor(t, where, dir, 2, bigLines)
		t.Logf("round %d: killed after %v, Big.md at version %d", round, delay, version)
	}
}

func exists(dir, name string) bool {
	_, err := os.Stat(filepath.Join(dir, name))
	return err == nil
}
