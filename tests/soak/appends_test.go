package soak

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/memotree/memotree/backend/doctor"
	"github.com/memotree/memotree/backend/uiapi"
	"github.com/memotree/memotree/backend/workspace"
)

// appendCounts says how many lines each appending process writes: 40 by default,
// MEMOTREE_SOAK/10 when set (500 in `make soak`).
func appendCounts(t *testing.T) int {
	if s := os.Getenv("MEMOTREE_SOAK"); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil || n < 10 {
			t.Fatalf("MEMOTREE_SOAK=%q: want a number of writes, 10 or more", s)
		}
		return max(1, n/10)
	}
	return 40
}

// TestAppendsAtOnce is the figure of the writes that do not depend on what their
// writer read: four `memotree mcp` processes (over stdio, as Claude Desktop runs it)
// append lines to the shared notes with update_entity in append mode, without a
// base_hash, while the desktop app's editor (uiapi.SaveNote on the version it loaded,
// a compare-and-swap: it read the note) and an outside editor that saves as careful
// editors do (read, write a new file, check that the note did not change meanwhile,
// move the new file over it) append too. Every append of the four processes is
// applied at its first attempt — none refused, none lost — and every line of the
// editors is accounted for as in TestWritersAtOnce (the app's editor is told of a
// conflict and retries; a line lost to a rename that no check can close is explained
// by an overlap in time).
func TestAppendsAtOnce(t *testing.T) {
	n := appendCounts(t)
	dir := filepath.Join(t.TempDir(), "vault")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, s := range shared {
		if err := os.WriteFile(notePath(dir, s), []byte("# "+s+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	ws, err := workspace.Open(ctx, []workspace.Spec{{Name: "v", Path: dir}}, workspace.Options{Watch: true})
	if err != nil {
		t.Fatal(err)
	}
	defer ws.Close()
	api := uiapi.NewAPI(ws, uiapi.Options{})

	var rec log
	rng, seed := seededRand(t)
	var wg sync.WaitGroup
	errs := make(chan error, 16)
	fail := func(err error) {
		errs <- err
		cancel()
	}
	for i := range 4 {
		name := fmt.Sprintf("proc%d", i)
		cmd := memotree(ctx, "mcp", "--library", "v="+dir, "--permission", "v=write")
		cmd.Stderr = os.Stderr
		c, err := mcp.NewClient(&mcp.Implementation{Name: name, Version: "1"}, nil).Connect(ctx, &mcp.CommandTransport{Command: cmd}, nil)
		if err != nil {
			t.Fatalf("start memotree mcp: %v", err)
		}
		defer c.Close()
		r := rand.New(rand.NewPCG(rng.Uint64(), uint64(i)))
		wg.Go(func() {
			call := mcpCall(c)
			for op := range n {
				note := shared[r.IntN(len(shared))]
				o := outcome{writer: name, note: note, line: fmt.Sprintf("%s appended op %d", name, op), start: time.Now()}
				res, isErr, err := call(ctx, "update_entity", map[string]any{"entity_name": note, "content": o.line, "mode": "append"})
				o.end = time.Now()
				if err != nil {
					fail(fmt.Errorf("%s: %w", name, err))
					return
				}
				if isErr {
					fail(fmt.Errorf("%s: an append without base_hash was refused: %s", name, res))
					return
				}
				o.acked = true
				rec.add(o)
			}
		})
	}
	appRand, editorRand := rand.New(rand.NewPCG(rng.Uint64(), 10)), rand.New(rand.NewPCG(rng.Uint64(), 11))
	wg.Go(func() {
		if err := runWriter(ctx, &rec, "app", n, appRand, appWriter(api)); err != nil {
			fail(fmt.Errorf("app (MEMOTREE_CRASH_SEED=%d): %w", seed, err))
		}
	})
	wg.Go(func() {
		if err := carefulEditor(ctx, &rec, dir, filepath.Join(filepath.Dir(dir), "editor"), n, editorRand); err != nil {
			fail(fmt.Errorf("outside editor: %w", err))
		}
	})
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	if t.Failed() {
		return
	}
	check(t, dir, rec.out, seed)
	appended := 0
	for _, o := range rec.out {
		if len(o.writer) == 5 && o.writer[:4] == "proc" {
			appended++
		}
	}
	if appended != 4*n {
		t.Errorf("%d appends of the four processes recorded, want %d", appended, 4*n)
	}
	t.Logf("4 processes × %d appends: all applied at the first attempt, none refused", n)
	r, err := doctor.Check(t.Context(), "v", dir, doctor.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if !r.Healthy() || r.TempFiles.Count > 0 || r.Notes != len(shared) {
		b, _ := json.MarshalIndent(r, "", "  ")
		t.Errorf("doctor after the run:\n%s", b)
	}
}

// carefulEditor appends n lines as an editor that takes no lock but looks before it
// saves: it reads the note, writes its new version to a file of its own, and moves
// it over the note only if the note is still what it read (else it starts again).
func carefulEditor(ctx context.Context, rec *log, dir, tmp string, n int, r *rand.Rand) error {
	if err := os.MkdirAll(tmp, 0o755); err != nil {
		return err
	}
	for op := range n {
		note := shared[r.IntN(len(shared))]
		line := fmt.Sprintf("editor wrote op %d", op)
		o := outcome{writer: "editor", note: note, line: line, acked: true, start: time.Now()}
		for {
			if err := ctx.Err(); err != nil {
				return err
			}
			b, err := os.ReadFile(notePath(dir, note))
			if err != nil {
				return err
			}
			f := filepath.Join(tmp, "save.md")
			if err := os.WriteFile(f, []byte(appendLine(string(b), line)), 0o644); err != nil {
				return err
			}
			if now, err := os.ReadFile(notePath(dir, note)); err != nil || !bytes.Equal(now, b) {
				continue // changed while it was written: read it again
			}
			if err := os.Rename(f, notePath(dir, note)); err != nil {
				return err
			}
			break
		}
		o.renamed = time.Now()
		o.end = o.renamed
		rec.add(o)
		time.Sleep(time.Duration(r.IntN(3000)) * time.Microsecond)
	}
	return nil
}
