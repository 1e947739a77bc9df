// Package soak holds the tests that run MemoTree's writers together on one vault: the
// desktop app's API in process, `memotree mcp --http` and `memotree call` as child
// processes, and an outside editor writing the files directly. The child processes are
// this test binary run as the memotree command (MEMOTREE_SOAK_CLI=1), so no build step
// is needed.
//
// The short form runs in `make test`; MEMOTREE_SOAK=N runs about N writes.
package soak

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"net/http"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/memotree/memotree/backend/doctor"
	"github.com/memotree/memotree/backend/uiapi"
	"github.com/memotree/memotree/backend/workspace"
	"github.com/memotree/memotree/cli"
)

// TestMain runs the binary as the memotree command when MEMOTREE_SOAK_CLI is set.
func TestMain(m *testing.M) {
	if os.Getenv("MEMOTREE_SOAK_CLI") == "1" {
		ctx, stop := signalContext()
		code := cli.Main(ctx, cli.Env{Stdin: os.Stdin, Stdout: os.Stdout, Stderr: os.Stderr}, os.Args[1:])
		stop()
		os.Exit(code)
	}
	// The caches of vaults without .memotree go to the user's cache folder (serve,
	// mcp): this run's own, shared with the processes it starts.
	dir, err := os.MkdirTemp("", "memotree-soak-cache-")
	if err == nil {
		os.Setenv("XDG_CACHE_HOME", dir)
	}
	code := m.Run()
	if dir != "" {
		os.RemoveAll(dir)
	}
	os.Exit(code)
}

// memotree returns a command running this binary as `memotree args...`.
func memotree(ctx context.Context, args ...string) *exec.Cmd {
	cmd := exec.CommandContext(ctx, os.Args[0], args...)
	cmd.Env = append(os.Environ(), "MEMOTREE_SOAK_CLI=1")
	return cmd
}

// startMCP runs `memotree mcp --http` on dir in its own process, with write
// permission and a token, and returns its address and token; the process is killed
// when the test ends.
func startMCP(t *testing.T, ctx context.Context, dir string) (url, token string) {
	url, token, _ = startMCPProcess(t, ctx, dir)
	return url, token
}

// startMCPProcess is startMCP, returning the process too.
func startMCPProcess(t *testing.T, ctx context.Context, dir string) (url, token string, srv *exec.Cmd) {
	t.Helper()
	token = "soak-token-" + strconv.FormatInt(time.Now().UnixNano(), 36)
	srv = memotree(ctx, "mcp", "--library", "v="+dir, "--permission", "v=write", "--http", "127.0.0.1:0")
	srv.Env = append(srv.Env, "MEMOTREE_MCP_TOKEN="+token)
	srv.Stderr = os.Stderr
	stdout, err := srv.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := srv.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = srv.Process.Kill(); _ = srv.Wait() })
	urlc := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(stdout)
		for sc.Scan() {
			if strings.HasPrefix(sc.Text(), "http://") {
				urlc <- strings.TrimSpace(sc.Text())
			}
		}
	}()
	select {
	case url = <-urlc:
	case <-time.After(time.Minute):
		t.Fatal("memotree mcp --http printed no address in a minute")
	}
	return url, token, srv
}

// outcome is one attempt of one writer to append one line to a shared note.
type outcome struct {
	writer, note, line string
	acked              bool // the writer was told the write happened
	// start and end bound the attempt: from before its read to after its answer.
	start, end time.Time
	// renamed, for the outside editor, is when its file replaced the note.
	renamed time.Time
}

// log collects the outcomes of every writer.
type log struct {
	mu  sync.Mutex
	out []outcome
}

func (l *log) add(o outcome) {
	l.mu.Lock()
	l.out = append(l.out, o)
	l.mu.Unlock()
}

// shared are the notes every writer appends to.
var shared = []string{"Shared 0", "Shared 1", "Shared 2"}

func notePath(dir, name string) string { return filepath.Join(dir, name+".md") }

// counts says how many writes each writer makes: a few hundred in all by default,
// about MEMOTREE_SOAK in all when set.
func counts(t *testing.T) (perWriter, perCLI int) {
	total := 180
	if s := os.Getenv("MEMOTREE_SOAK"); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil || n < 10 {
			t.Fatalf("MEMOTREE_SOAK=%q: want a number of writes, 10 or more", s)
		}
		total = n
	}
	// Seven writers; a `memotree call` write costs two process starts, so those two
	// writers make fewer.
	return total / 6, max(2, total/80)
}

// TestWritersAtOnce runs, on one vault at the same time, two goroutines of the
// desktop app's API (uiapi.SaveNote on the version Note read), two MCP clients of a
// `memotree mcp --http` process (read_entities, then update_entity with base_hash),
// two writers running `memotree call` processes (the same two tools), and an outside
// editor that reads a note and replaces it (atomically, by rename, as most editors
// save) with no compare-and-swap at all. Each MemoTree writer appends uniquely
// numbered lines to the shared notes with compare-and-swap, and on a conflict reads
// again and retries with a new line. Afterwards, line by line:
//
//   - every attempt a writer was told succeeded is in its note exactly once, and every
//     attempt refused with a conflict is absent: nothing applied silently, nothing
//     refused silently;
//   - no line is torn, doubled or unaccounted for;
//   - the outside editor, which cannot compare and swap, may overwrite a line that
//     MemoTree acknowledged only by replacing the note while that write was in
//     flight; and MemoTree never overwrites a line of the outside editor, except one
//     that landed inside a MemoTree write, between its check and its rename (the
//     test counts both and shows each is explained by an overlap in time);
//   - memotree doctor finds the vault healthy.
func TestWritersAtOnce(t *testing.T) {
	perWriter, perCLI := counts(t)
	root := t.TempDir()
	dir := filepath.Join(root, "vault")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, n := range shared {
		if err := os.WriteFile(notePath(dir, n), []byte("# "+n+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()

	// The desktop app: a watching workspace and its API, in process.
	ws, err := workspace.Open(ctx, []workspace.Spec{{Name: "v", Path: dir}}, workspace.Options{Watch: true})
	if err != nil {
		t.Fatal(err)
	}
	defer ws.Close()
	api := uiapi.NewAPI(ws, uiapi.Options{})

	// An MCP server over HTTP, in its own process, with its token.
	url, token := startMCP(t, ctx, dir)

	var rec log
	rng, seed := seededRand(t)
	var wg sync.WaitGroup
	errs := make(chan error, 16)
	start := func(name string, n int, w writer) {
		r := rand.New(rand.NewPCG(rng.Uint64(), 0))
		wg.Go(func() {
			if err := runWriter(ctx, &rec, name, n, r, w); err != nil {
				errs <- fmt.Errorf("%s (MEMOTREE_CRASH_SEED=%d): %w", name, seed, err)
				cancel()
			}
		})
	}
	for i := range 2 {
		start(fmt.Sprintf("app%d", i), perWriter, appWriter(api))
		c, err := mcpClient(ctx, url, token)
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		start(fmt.Sprintf("mcp%d", i), perWriter, toolWriter(mcpCall(c)))
		start(fmt.Sprintf("cli%d", i), perCLI, toolWriter(cliCall(dir)))
	}
	wg.Go(func() {
		r := rand.New(rand.NewPCG(rng.Uint64(), 1))
		if err := outsideEditor(ctx, &rec, dir, filepath.Join(root, "editor"), perWriter, r); err != nil {
			errs <- fmt.Errorf("outside editor: %w", err)
			cancel()
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
	if acked, refused := check(t, dir, rec.out, seed); acked == 0 || refused == 0 {
		t.Errorf("%d applied and %d refused: the writers did not contend", acked, refused)
	}

	r, err := doctor.Check(t.Context(), "v", dir, doctor.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if !r.Healthy() || r.TempFiles.Count > 0 || r.Notes != len(shared) {
		b, _ := json.MarshalIndent(r, "", "  ")
		t.Errorf("doctor after the soak:\n%s", b)
	}
}

// check reads the shared notes and compares them, line by line, with the outcomes; it
// returns how many writes were applied and how many refused.
func check(t *testing.T, dir string, out []outcome, seed uint64) (acked, refused int) {
	t.Helper()
	seen := map[string]int{}
	where := map[string]string{}
	for _, n := range shared {
		b, err := os.ReadFile(notePath(dir, n))
		if err != nil {
			t.Fatal(err)
		}
		text := string(b)
		if rest, ok := strings.CutPrefix(text, "---\n"); ok { // update_entity keeps "date modified"
			_, body, found := strings.Cut(rest, "\n---\n")
			if !found {
				t.Errorf("%s: front matter without its end:\n%s", n, text)
			}
			text = body
		}
		for _, l := range strings.Split(text, "\n") {
			if l == "" || l == "# "+n {
				continue
			}
			seen[l]++
			where[l] = n
		}
	}
	byLine := map[string]outcome{}
	for _, o := range out {
		byLine[o.line] = o
	}
	for l, n := range seen {
		o, ok := byLine[l]
		switch {
		case !ok:
			t.Errorf("%s holds a line no writer wrote (torn?): %q", where[l], l)
		case n > 1:
			t.Errorf("%s holds %q %d times", where[l], l, n)
		case o.note != where[l]:
			t.Errorf("%q was written to %s but is in %s", l, o.note, where[l])
		case !o.acked:
			t.Errorf("%s holds %q, whose write was refused with a conflict: applied silently", o.note, l)
		}
	}
	clobbered, lostOutside := 0, 0
	for _, o := range out {
		if !o.acked {
			refused++
			continue
		}
		acked++
		if seen[o.line] > 0 {
			continue
		}
		if o.writer == "editor" {
			// MemoTree replaced the note after the editor did: only a MemoTree write in
			// flight then, its check before the editor's rename, explains it.
			if !overlapping(out, o.note, o.renamed, func(m outcome) bool { return m.writer != "editor" && m.acked }) {
				t.Errorf("the outside editor's line %q of %s is gone, and no MemoTree write to %s was in flight when it landed (MEMOTREE_CRASH_SEED=%d)", o.line, o.note, o.note, seed)
			}
			lostOutside++
			continue
		}
		// The editor replaced the note with what it had read before this write landed.
		explained := false
		for _, e := range out {
			if e.writer == "editor" && e.note == o.note && e.start.Before(o.end) && o.start.Before(e.renamed) {
				explained = true
				break
			}
		}
		if !explained {
			t.Errorf("%s's acknowledged line %q is not in %s, and the outside editor did not replace the note while it was written: a lost update (MEMOTREE_CRASH_SEED=%d)", o.writer, o.line, o.note, seed)
		}
		clobbered++
	}
	t.Logf("%d writes applied, %d refused with a conflict; %d of MemoTree's overwritten by the outside editor (which cannot compare and swap), %d of the editor's lost inside a MemoTree write", acked, refused, clobbered, lostOutside)
	return acked, refused
}

// overlapping reports whether an outcome on note that satisfies ok was in flight at t.
func overlapping(out []outcome, note string, at time.Time, ok func(outcome) bool) bool {
	for _, m := range out {
		if m.note == note && ok(m) && m.start.Before(at) && at.Before(m.end) {
			return true
		}
	}
	return false
}

// writer is one compare-and-swap append: it reads the note, appends line, and writes
// on the version it read. conflict is true when the write was refused because the
// note changed; err is anything else, which fails the test.
type writer func(ctx context.Context, note, line string) (conflict bool, err error)

// runWriter makes n appends, each retried on a conflict (with a new line) until it
// is applied.
func runWriter(ctx context.Context, rec *log, name string, n int, r *rand.Rand, w writer) error {
	for op := range n {
		note := shared[r.IntN(len(shared))]
		for try := 0; ; try++ {
			if try > 200 {
				return fmt.Errorf("write %d to %s refused 200 times in a row", op, note)
			}
			line := fmt.Sprintf("%s wrote op %d, try %d", name, op, try)
			o := outcome{writer: name, note: note, line: line, start: time.Now()}
			conflict, err := w(ctx, note, line)
			o.end = time.Now()
			if err != nil {
				return fmt.Errorf("%q: %w", line, err)
			}
			o.acked = !conflict
			rec.add(o)
			if !conflict {
				break
			}
		}
	}
	return nil
}

// appWriter is the desktop app's editor: Note, then SaveNote on the hash it read.
func appWriter(api *uiapi.API) writer {
	return func(ctx context.Context, note, line string) (bool, error) {
		v, err := api.Note("v", note+".md")
		if err != nil {
			return false, err
		}
		res, err := api.SaveNote("v", note+".md", appendLine(v.Content, line), v.Hash)
		if err != nil {
			return false, err
		}
		return res.Conflict, nil
	}
}

func appendLine(text, line string) string {
	if text != "" && !strings.HasSuffix(text, "\n") {
		text += "\n"
	}
	return text + line + "\n"
}

// toolCall runs a tool and returns its result as JSON, and whether it is an error.
type toolCall func(ctx context.Context, name string, args map[string]any) (result []byte, isError bool, err error)

// toolWriter appends with the tools a model or script uses: read_entities for the
// hash, then update_entity in append mode with base_hash.
func toolWriter(call toolCall) writer {
	return func(ctx context.Context, note, line string) (bool, error) {
		res, isErr, err := call(ctx, "read_entities", map[string]any{"entity_names": []string{note}})
		if err != nil || isErr {
			return false, fmt.Errorf("read_entities: %v %s", err, res)
		}
		var read struct {
			Data struct {
				Entities []struct {
					Hash string `json:"hash"`
				} `json:"entities"`
			} `json:"data"`
		}
		if err := json.Unmarshal(res, &read); err != nil || len(read.Data.Entities) != 1 || read.Data.Entities[0].Hash == "" {
			return false, fmt.Errorf("read_entities answered %s (%v)", res, err)
		}
		res, isErr, err = call(ctx, "update_entity", map[string]any{
			"entity_name": note, "content": line, "mode": "append", "base_hash": read.Data.Entities[0].Hash})
		if err != nil {
			return false, fmt.Errorf("update_entity: %w", err)
		}
		if !isErr {
			return false, nil
		}
		var fail struct {
			Code string `json:"error_code"`
		}
		if json.Unmarshal(res, &fail) == nil && fail.Code == "conflict" {
			return true, nil
		}
		return false, fmt.Errorf("update_entity failed: %s", res)
	}
}

// bearer adds the token to every request.
type bearer struct {
	token string
	next  http.RoundTripper
}

func (b bearer) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+b.token)
	return b.next.RoundTrip(r)
}

// mcpClient connects to the MCP server at url with the token.
func mcpClient(ctx context.Context, url, token string) (*mcp.ClientSession, error) {
	tr := &mcp.StreamableClientTransport{Endpoint: url, HTTPClient: &http.Client{Transport: bearer{token, http.DefaultTransport}}}
	return mcp.NewClient(&mcp.Implementation{Name: "soak", Version: "1"}, nil).Connect(ctx, tr, nil)
}

// mcpCall calls tools over an MCP session; the result is the answer's structured
// content (the same JSON as memotree call --json).
func mcpCall(c *mcp.ClientSession) toolCall {
	return func(ctx context.Context, name string, args map[string]any) ([]byte, bool, error) {
		res, err := c.CallTool(ctx, &mcp.CallToolParams{Name: name, Arguments: args})
		if err != nil {
			return nil, false, err
		}
		b, err := json.Marshal(res.StructuredContent)
		return b, res.IsError, err
	}
}

// cliCall runs `memotree call --json TOOL ARGS` in a new process per call.
func cliCall(dir string) toolCall {
	return func(ctx context.Context, name string, args map[string]any) ([]byte, bool, error) {
		b, _ := json.Marshal(args)
		cmd := memotree(ctx, "call", "--library", "v="+dir, "--json", name, string(b))
		var stderr strings.Builder
		cmd.Stderr = &stderr
		out, err := cmd.Output()
		if ee, ok := err.(*exec.ExitError); ok && ee.ExitCode() == 1 {
			return out, true, nil
		}
		if err != nil {
			return nil, false, fmt.Errorf("memotree call %s: %v: %s", name, err, stderr.String())
		}
		return out, false, nil
	}
}

// outsideEditor appends n lines the way another program does: read the file, then
// replace it with a new file moved over it (written in tmp, on the same disk). It
// cannot compare and swap; a short pause between saves stands for typing.
func outsideEditor(ctx context.Context, rec *log, dir, tmp string, n int, r *rand.Rand) error {
	if err := os.MkdirAll(tmp, 0o755); err != nil {
		return err
	}
	for op := range n {
		if err := ctx.Err(); err != nil {
			return err
		}
		note := shared[r.IntN(len(shared))]
		line := fmt.Sprintf("editor wrote op %d", op)
		o := outcome{writer: "editor", note: note, line: line, acked: true, start: time.Now()}
		b, err := os.ReadFile(notePath(dir, note))
		if err != nil {
			return err
		}
		f := filepath.Join(tmp, "save.md")
		if err := os.WriteFile(f, []byte(appendLine(string(b), line)), 0o644); err != nil {
			return err
		}
		if err := os.Rename(f, notePath(dir, note)); err != nil {
			return err
		}
		o.renamed = time.Now()
		o.end = o.renamed
		rec.add(o)
		time.Sleep(time.Duration(r.IntN(3000)) * time.Microsecond)
	}
	return nil
}

// seededRand returns a generator seeded from MEMOTREE_CRASH_SEED or the clock.
func seededRand(t *testing.T) (*rand.Rand, uint64) {
	seed := uint64(time.Now().UnixNano())
	if s := os.Getenv("MEMOTREE_CRASH_SEED"); s != "" {
		n, err := strconv.ParseUint(s, 10, 64)
		if err != nil {
			t.Fatalf("MEMOTREE_CRASH_SEED=%q: want a number", s)
		}
		seed = n
	}
	t.Logf("MEMOTREE_CRASH_SEED=%d", seed)
	return rand.New(rand.NewPCG(seed, 0)), seed
}

// signalContext is canceled by an interrupt or SIGTERM, as the memotree command's is.
func signalContext() (context.Context, context.CancelFunc) {
	return signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
}
