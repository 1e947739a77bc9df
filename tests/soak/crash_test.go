package soak

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// scriptNotes is how many notes the crash test's script creates, and touched how many
// existing notes it appends a line to.
const (
	scriptNotes = 400
	touched     = 40
)

// crashScript creates scriptNotes notes in folder s<round> and appends a line to the
// first touched notes of p/, one tool call each, and shows its progress every 20 notes
// on a view of its own (.memotree/views/progress-<round>-<k>.json, written at once,
// while its notes wait for its end), so that the test can kill it in the middle.
func crashScript(round int) string {
	return fmt.Sprintf(`
for i in range(%d):
    n = str(1000 + i)[1:]
    create_entity(entity_name="s%d/n" + n, content="made by the script of round %d")
    if i < %d:
        update_entity(entity_name="p/p" + n, content="script round %d line %%d" %% i, mode="append")
    if i %% 20 == 0:
        expand_node(entity_name="s%d/n" + n, level="summary", view_name="progress-%d-" + str(i // 20))
__result__ = "done"
`, scriptNotes, round, round, touched, round, round, round)
}

// ack is a write the live server acknowledged: line must be in note afterwards.
type ack struct{ note, line string }

// TestSIGKILLScriptThenLiveWrites is the crash-and-continue test: a `memotree mcp
// --http` process keeps the vault open throughout; in each round a `memotree call
// run_starlark` process runs a script that creates 400 notes and appends to 40
// existing ones, and is killed with SIGKILL at a seeded random moment: while it runs
// (its changes held in memory: nothing of it may land), or while its changes are
// being applied (its batch's intent recorded: it must land whole, finished by the
// next process that takes the vault's lock). In even rounds MCP clients of the live
// server write at once after the kill (appends with compare-and-swap on notes the
// script touched, attempts on notes it created, new notes); in odd rounds nobody
// writes, and the live server, which watches the vault, must finish a batch the kill
// interrupted on its own. At the end a new process opens the vault (memotree doctor):
// every write the server acknowledged is there exactly once, each round's script is
// there whole or not at all, no intent or temporary file is left, and doctor finds
// the vault healthy. MEMOTREE_CRASH_KILLS sets the rounds (default 4); `make soak`
// runs more.
func TestSIGKILLScriptThenLiveWrites(t *testing.T) {
	rounds := crashKills(t, 4)
	rng, seed := seededRand(t)
	dir := filepath.Join(t.TempDir(), "vault")
	for i := range touched {
		p := filepath.Join(dir, "p", fmt.Sprintf("p%03d.md", i))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(fmt.Sprintf("# p%03d\n", i)), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	url, token := startMCP(t, ctx, dir)
	c, err := mcpClient(ctx, url, token)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	call := mcpCall(c)

	var acks []ack
	complete := map[int]bool{} // rounds whose script finished before the kill
	for round := range rounds {
		k := killPoint{progress: rng.IntN(scriptNotes / 20)}
		if rng.IntN(2) == 0 {
			k = killPoint{applied: 1 + rng.IntN(scriptNotes-20)}
		}
		done, killedAt := runAndKill(t, ctx, dir, round, k)
		complete[round] = done
		where := fmt.Sprintf("round %d (MEMOTREE_CRASH_SEED=%d, killed %s, %d script notes then)", round, seed, k, killedAt)
		if done {
			where = fmt.Sprintf("round %d (MEMOTREE_CRASH_SEED=%d, finished before it was killed %s)", round, seed, k)
		}
		t.Log(where)
		if round%2 == 1 {
			waitSettled(t, dir, round, where)
			complete[round] = count(filepath.Join(dir, fmt.Sprintf("s%d", round))) == scriptNotes
			continue
		}
		for k := range 6 {
			note := fmt.Sprintf("p/p%03d", rng.IntN(touched))
			line := fmt.Sprintf("server round %d append %d", round, k)
			if err := appendWithRetry(ctx, call, note, line); err != nil {
				t.Fatalf("%s: %v", where, err)
			}
			acks = append(acks, ack{note, line})
		}
		// A note the script may have created (its batch may not have landed): the
		// write must be refused (or, if it was acknowledged, stay).
		created := fmt.Sprintf("s%d/n%03d", round, rng.IntN(max(1, killedAt)))
		if line, ok := tryUpdate(ctx, call, created, fmt.Sprintf("server round %d into a script note", round)); ok {
			acks = append(acks, ack{created, line})
		}
		fresh := fmt.Sprintf("live/r%d", round)
		res, isErr, err := call(ctx, "create_entity", map[string]any{"entity_name": fresh, "content": "created by the server in round " + strconv.Itoa(round)})
		if err != nil || isErr {
			t.Fatalf("%s: create_entity %s: %v %s", where, fresh, err, res)
		}
		acks = append(acks, ack{fresh, "created by the server in round " + strconv.Itoa(round)})
	}

	// A new process opens the vault.
	out, err := memotree(ctx, "doctor", "--json", "--library", "v="+dir).Output()
	var report struct {
		Notes       int  `json:"notes"`
		Recovered   bool `json:"recovered"`
		OldJournals struct {
			Count int `json:"count"`
		} `json:"old_undo_journals"`
		TempFiles struct {
			Count int `json:"count"`
		} `json:"temp_files"`
	}
	if jerr := json.Unmarshal(out, &report); jerr != nil {
		t.Fatalf("memotree doctor: %v %v\n%s", err, jerr, out)
	}
	if err != nil || report.Recovered || report.OldJournals.Count != 0 || report.TempFiles.Count != 0 {
		t.Errorf("memotree doctor after the rounds (MEMOTREE_CRASH_SEED=%d): %v\n%s", seed, err, out)
	}
	for round := range rounds {
		// A round killed while its batch was applied, and written to after, was
		// finished by the first write: whole.
		if count(filepath.Join(dir, fmt.Sprintf("s%d", round))) == scriptNotes {
			complete[round] = true
		}
	}
	checkAcks(t, dir, acks, seed)
	checkScripts(t, dir, rounds, complete, seed)
	if m, _ := filepath.Glob(filepath.Join(dir, ".memotree", "intent.json")); len(m) > 0 {
		t.Errorf("a batch's intent is left: %v", m)
	}
}

// crashKills is MEMOTREE_CRASH_KILLS, or short.
func crashKills(t *testing.T, short int) int {
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

// killPoint is when runAndKill kills a script: once it has shown progress view
// number progress (while it runs), or once applied of its notes are on disk (while its
// batch is applied).
type killPoint struct{ progress, applied int }

func (k killPoint) String() string {
	if k.applied > 0 {
		return fmt.Sprintf("while its batch was applied, at %d notes", k.applied)
	}
	return fmt.Sprintf("while it ran, after progress view %d", k.progress)
}

// reached reports whether the script got to k.
func (k killPoint) reached(dir string, round int) bool {
	if k.applied > 0 {
		return count(filepath.Join(dir, fmt.Sprintf("s%d", round))) >= k.applied
	}
	_, err := os.Stat(filepath.Join(dir, ".memotree", "views", fmt.Sprintf("progress-%d-%d.json", round, k.progress)))
	return err == nil
}

// runAndKill runs round's script in a `memotree call` process and kills it once it
// reaches k; done says the script finished first.
func runAndKill(t *testing.T, ctx context.Context, dir string, round int, k killPoint) (done bool, killedAt int) {
	t.Helper()
	args, _ := json.Marshal(map[string]any{"target": "crash test", "code": crashScript(round)})
	cmd := memotree(ctx, "call", "--library", "v="+dir, "--json", "run_starlark", string(args))
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	folder := filepath.Join(dir, fmt.Sprintf("s%d", round))
	deadline := time.Now().Add(2 * time.Minute)
	for !k.reached(dir, round) {
		select {
		case err := <-exited:
			if err != nil {
				t.Fatalf("round %d: the script's process ended before it was killed: %v", round, err)
			}
			return true, count(folder)
		case <-time.After(500 * time.Microsecond):
		}
		if time.Now().After(deadline) {
			t.Fatalf("round %d: the script did not get %s in two minutes", round, k)
		}
	}
	_ = cmd.Process.Signal(syscall.SIGKILL)
	if err := <-exited; err == nil {
		return true, count(folder) // it finished just before the signal
	}
	return false, count(folder)
}

func count(folder string) int {
	m, _ := filepath.Glob(filepath.Join(folder, "*.md"))
	return len(m)
}

// waitSettled waits until a killed script has left the vault whole or untouched: the
// live server, which watches the vault, finishes a batch the kill interrupted on its
// own (its intent gone, all its notes there).
func waitSettled(t *testing.T, dir string, round int, where string) {
	t.Helper()
	folder := filepath.Join(dir, fmt.Sprintf("s%d", round))
	intent := filepath.Join(dir, ".memotree", "intent.json")
	deadline := time.Now().Add(time.Minute)
	for {
		_, err := os.Stat(intent)
		n := count(folder)
		if os.IsNotExist(err) && (n == 0 || n == scriptNotes) {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s: a minute after the kill the vault holds %d of the script's notes (intent left: %v)", where, n, err == nil)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// appendWithRetry appends line to note through the live server, with base_hash, and
// retries on a conflict until it is acknowledged.
func appendWithRetry(ctx context.Context, call toolCall, note, line string) error {
	w := toolWriter(call)
	for try := range 50 {
		conflict, err := w(ctx, note, line)
		if err != nil {
			return fmt.Errorf("append to %s (try %d): %w", note, try, err)
		}
		if !conflict {
			return nil
		}
	}
	return fmt.Errorf("append to %s refused 50 times", note)
}

// tryUpdate reads note and, if it exists, appends line on the hash read; ok says the
// server acknowledged it.
func tryUpdate(ctx context.Context, call toolCall, note, line string) (string, bool) {
	res, isErr, err := call(ctx, "read_entities", map[string]any{"entity_names": []string{note}})
	if err != nil || isErr {
		return "", false
	}
	var read struct {
		Data struct {
			Entities []struct {
				Hash string `json:"hash"`
			} `json:"entities"`
		} `json:"data"`
	}
	if json.Unmarshal(res, &read) != nil || len(read.Data.Entities) != 1 || read.Data.Entities[0].Hash == "" {
		return "", false
	}
	_, isErr, err = call(ctx, "update_entity", map[string]any{"entity_name": note, "content": line, "mode": "append", "base_hash": read.Data.Entities[0].Hash})
	return line, err == nil && !isErr
}

// checkAcks fails unless every acknowledged line is in its note exactly once.
func checkAcks(t *testing.T, dir string, acks []ack, seed uint64) {
	t.Helper()
	for _, a := range acks {
		b, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(a.note)+".md"))
		if err != nil {
			t.Errorf("the acknowledged write %q to %s is lost: %v (MEMOTREE_CRASH_SEED=%d)", a.line, a.note, err, seed)
			continue
		}
		if n := strings.Count(string(b), a.line); n != 1 {
			t.Errorf("%s holds the acknowledged line %q %d times, want once (MEMOTREE_CRASH_SEED=%d):\n%s", a.note, a.line, n, seed, b)
		}
	}
	t.Logf("%d acknowledged writes checked", len(acks))
}

// checkScripts fails unless each round's script is there whole (it finished) or not at
// all.
func checkScripts(t *testing.T, dir string, rounds int, complete map[int]bool, seed uint64) {
	t.Helper()
	for round := range rounds {
		want, wantLines := 0, 0
		if complete[round] {
			want, wantLines = scriptNotes, touched
		}
		if n := count(filepath.Join(dir, fmt.Sprintf("s%d", round))); n != want {
			t.Errorf("round %d: %d of the script's notes after recovery, want %d (MEMOTREE_CRASH_SEED=%d)", round, n, want, seed)
		}
		lines := 0
		for i := range touched {
			b, _ := os.ReadFile(filepath.Join(dir, "p", fmt.Sprintf("p%03d.md", i)))
			lines += strings.Count(string(b), fmt.Sprintf("script round %d line", round))
		}
		if lines != wantLines {
			t.Errorf("round %d: %d of the script's appended lines after recovery, want %d (MEMOTREE_CRASH_SEED=%d)", round, lines, wantLines, seed)
		}
	}
}
