// Command canvasbench measures the context economy of the canvas on a vault: the
// tokens of the default view, the most expand_node calls any note needs to appear,
// the overhead of a full expansion beyond the note's own tokens, and, for the same
// entities and relations, the tokens of the official MCP memory server's read_graph
// (@modelcontextprotocol/server-memory, driven over stdio). It prints one JSON object
// and, with -rows, appends rows for bench/cmd/table.
//
//	canvasbench -vault DIR -memory 'node .../server-memory/dist/index.js' [-rows FILE] [-label 10k]
//
// server-memory is given each note as an entity whose only observation is the note's
// summary (front matter summary, else first paragraph) — the least it could hold — and
// every resolved link or relation between notes as a relation.
package main

import (
	"bufio"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"

	"github.com/memotree/memotree/backend/canvas"
	"github.com/memotree/memotree/backend/library"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// report is what canvasbench prints.
type report struct {
	Notes             int     `json:"notes"`
	DefaultTokens     int     `json:"default_view_tokens"`
	MaxExpands        int     `json:"max_expand_calls"`
	MeanExpands       float64 `json:"mean_expand_calls"`
	FullOverheadMax   int     `json:"full_expansion_overhead_max"`
	ReadGraphTokens   int     `json:"read_graph_tokens,omitempty"`
	ReadGraphBytes    int     `json:"read_graph_bytes,omitempty"`
	MemoryEntities    int     `json:"memory_entities,omitempty"`
	MemoryRelations   int     `json:"memory_relations,omitempty"`
	FullSampleChecked int     `json:"full_sample"`
}

const benchView = "canvasbench"

func main() {
	dir := flag.String("vault", "", "the vault to measure")
	memCmd := flag.String("memory", "", "command line of @modelcontextprotocol/server-memory (empty: skip read_graph)")
	rows := flag.String("rows", "", "append value and note rows for bench/cmd/table to this file")
	label := flag.String("label", "10k", "the vault's size label in the rows")
	flag.Parse()
	if *dir == "" {
		flag.Usage()
		os.Exit(2)
	}
	ctx := context.Background()
	lib, err := library.Open(ctx, "bench", *dir, library.Options{})
	if err != nil {
		fail("%v", err)
	}
	defer lib.Close()
	c := canvas.New(lib, nil)
	defer lib.State().RemoveInternal("views/" + benchView + ".json")
	lib.State().RemoveInternal("views/" + benchView + ".json")

	var r report
	def, err := c.Render(ctx, benchView)
	if err != nil {
		fail("render: %v", err)
	}
	r.DefaultTokens = def.Tokens
	reach, err := c.Reach(ctx, benchView)
	if err != nil {
		fail("reach: %v", err)
	}
	sum := 0
	for _, k := range reach {
		r.MaxExpands = max(r.MaxExpands, k)
		sum += k
	}
	r.Notes = len(reach)
	if r.Notes > 0 {
		r.MeanExpands = float64(sum) / float64(r.Notes)
	}
	r.FullOverheadMax, r.FullSampleChecked = fullOverhead(ctx, c, lib)

	if *memCmd != "" {
		if err := readGraph(ctx, lib, *memCmd, &r); err != nil {
			fail("server-memory: %v", err)
		}
	}
	json.NewEncoder(os.Stdout).Encode(r)
	if *rows != "" {
		writeRows(*rows, *label, r)
	}
}

// fullOverhead expands sample notes to full one at a time and returns the most tokens
// the view grew by beyond the note's own tokens, and how many notes were tried.
func fullOverhead(ctx context.Context, c *canvas.Canvas, lib *library.Library) (int, int) {
	g, err := lib.Graph(ctx)
	if err != nil {
		return 0, 0
	}
	notes := g.Notes()
	worst, tried := 0, 0
	for i := 0; i < len(notes) && tried < 25; i += max(1, len(notes)/25) {
		p := notes[i]
		data, _, err := lib.Vault().Read(p)
		if err != nil {
			continue
		}
		before, err := c.Render(ctx, benchView)
		if err != nil {
			fail("render: %v", err)
		}
		ch, err := c.Expand(ctx, benchView, canvas.NoteID(p), canvas.Full, canvas.ExpandOptions{})
		if err != nil {
			continue // larger than the budget: the tool says so
		}
		worst = max(worst, ch.Tokens-before.Tokens-canvas.Tokens(string(data)))
		if _, err := c.Collapse(ctx, benchView, canvas.NoteID(p), false); err != nil {
			fail("collapse: %v", err)
		}
		tried++
	}
	return worst, tried
}

// readGraph writes the vault's notes and links as server-memory's JSONL store, starts
// the server and counts the tokens of its read_graph answer.
func readGraph(ctx context.Context, lib *library.Library, cmdline string, r *report) error {
	tmp, err := os.MkdirTemp("", "canvasbench-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	store := filepath.Join(tmp, "memory.jsonl")
	if err := writeStore(ctx, lib, store, r); err != nil {
		return err
	}
	parts := strings.Fields(cmdline)
	cmd := exec.Command(parts[0], parts[1:]...)
	cmd.Env = append(os.Environ(), "MEMORY_FILE_PATH="+store)
	cmd.Stderr = os.Stderr
	// The answer is larger than the SDK's default frame limit: own the pipes.
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return err
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return err
	}
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("start %s: %w", parts[0], err)
	}
	defer cmd.Wait()
	defer stdin.Close()
	t := &mcp.IOTransport{Reader: stdout, Writer: stdin, MaxLineLength: 1 << 30}
	s, err := mcp.NewClient(&mcp.Implementation{Name: "canvasbench", Version: "1"}, nil).Connect(ctx, t, nil)
	if err != nil {
		return fmt.Errorf("connect: %w", err)
	}
	defer s.Close()
	res, err := s.CallTool(ctx, &mcp.CallToolParams{Name: "read_graph", Arguments: map[string]any{}})
	if err != nil {
		return fmt.Errorf("read_graph: %w", err)
	}
	var text strings.Builder
	for _, c := range res.Content {
		if t, ok := c.(*mcp.TextContent); ok {
			text.WriteString(t.Text)
		}
	}
	if res.IsError || text.Len() == 0 {
		return fmt.Errorf("read_graph answered with an error or nothing: %s", text.String())
	}
	r.ReadGraphBytes = text.Len()
	r.ReadGraphTokens = countTokens(text.String())
	return nil
}

// writeStore writes one entity per note and one relation per distinct resolved edge
// between notes, in server-memory's JSONL format.
func writeStore(ctx context.Context, lib *library.Library, path string, r *report) error {
	g, err := lib.Graph(ctx)
	if err != nil {
		return err
	}
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	w := bufio.NewWriter(f)
	enc := json.NewEncoder(w)
	for _, p := range g.Notes() {
		n, _ := g.Note(p)
		typ := "note"
		if n != nil && n.EntityType != "" {
			typ = n.EntityType
		}
		obs := ""
		if n != nil && n.Summary != "" {
			obs = n.Summary
		} else if data, _, err := lib.Vault().Read(p); err == nil {
			obs = canvas.FirstParagraph(data)
		}
		enc.Encode(map[string]any{"type": "entity", "name": p.Name(), "entityType": typ, "observations": []string{obs}})
		r.MemoryEntities++
	}
	seen := map[[3]string]bool{}
	for _, e := range g.Edges() {
		if !e.Resolved || e.To == e.From || !e.To.IsNote() || !g.Has(e.To) {
			continue
		}
		k := [3]string{e.From.Name(), e.To.Name(), e.Type}
		if seen[k] {
			continue
		}
		seen[k] = true
		enc.Encode(map[string]any{"type": "relation", "from": k[0], "to": k[1], "relationType": k[2]})
		r.MemoryRelations++
	}
	if err := w.Flush(); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// countTokens counts the tokens of a large text in pieces split at line ends, on
// every core (a piece boundary at a line end changes the count by nothing or nearly).
func countTokens(s string) int {
	const piece = 256 << 10
	var parts []string
	for len(s) > piece {
		cut := strings.LastIndexByte(s[:piece], '\n') + 1
		if cut <= 0 {
			cut = strings.LastIndexAny(s[:piece], " ,") + 1
		}
		if cut <= 0 {
			cut = piece
		}
		parts, s = append(parts, s[:cut]), s[cut:]
	}
	parts = append(parts, s)
	counts := make([]int, len(parts))
	var wg sync.WaitGroup
	sem := make(chan struct{}, runtime.NumCPU())
	for i, p := range parts {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer wg.Done()
			counts[i] = canvas.Tokens(p)
			<-sem
		}()
	}
	wg.Wait()
	total := 0
	for _, c := range counts {
		total += c
	}
	return total
}

func writeRows(path, label string, r report) {
	f, err := os.OpenFile(path, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	if err != nil {
		fail("%v", err)
	}
	defer f.Close()
	if r.ReadGraphTokens > 0 {
		fmt.Fprintf(f, "value\tcanvas: default view vs read_graph of the same %d entities, %d relations\t%s\t%d\tserver-memory read_graph\t%d\ttokens\tvalue<=2000\n",
			r.MemoryEntities, r.MemoryRelations, label, r.DefaultTokens, r.ReadGraphTokens)
	} else {
		fmt.Fprintf(f, "value\tcanvas: default view\t%s\t%d\ttarget\t2000\ttokens\tvalue<=2000\n", label, r.DefaultTokens)
	}
	fmt.Fprintf(f, "value\tcanvas: the most expand_node calls any note needs to appear\t%s\t%d\ttarget\t3\tcalls\tvalue<=3\n", label, r.MaxExpands)
	fmt.Fprintf(f, "note\tCanvas, %s notes: the default view is %d tokens (o200k_base); every note appears within %d expand_node calls (mean %.2f; target ≤ 3); a full expansion costs the note's tokens plus at most %d (%d notes tried).\n",
		label, r.DefaultTokens, r.MaxExpands, r.MeanExpands, r.FullOverheadMax, r.FullSampleChecked)
}

func fail(format string, args ...any) {
	fmt.Fprintf(os.Stderr, "canvasbench: "+format+"\n", args...)
	os.Exit(1)
}
