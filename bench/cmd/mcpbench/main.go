// Command mcpbench drives MemoTree's MCP server and the official
// @modelcontextprotocol/server-memory over stdio with the same work — create entities
// with relations in batches, then searches and reads — and prints the time of each step
// for both as JSON lines, for bench/run.sh to tabulate.
//
// The two servers run side by side and take turns call by call (which one goes first
// alternates), so that a change in the machine's load during a run weighs on both
// alike rather than on whichever ran second. The whole run is repeated -rounds times,
// each on an empty vault and an empty memory file with fresh server processes, and
// -ab-dir receives one file per step in bench/cmd/ab's format (each round a sample),
// so the table gives the median, its range and the range of the rounds' ratios.
//
//	mcpbench -memotree BIN -memory 'node .../server-memory/dist/index.js' -n 10000
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// server is one MCP server under test and how its tools are called.
type server struct {
	name    string
	session *mcp.ClientSession
	// args build each step's tool call for this server.
	createEntities  func(batch []int) (string, any)
	createRelations func(batch []int, n int) (string, any)
	search          func(i int) (string, any)
	read            func(i int) (string, any)
}

func entityName(i int) string { return fmt.Sprintf("Entity %05d", i) }

func observation(i int) string {
	return fmt.Sprintf("Entity %d was observed working on topic-%d with colleague %d in year %d.", i, i%97, (i*7)%1000, 1900+i%120)
}

func memotree(s *mcp.ClientSession) *server {
	return &server{name: "memotree", session: s,
		createEntities: func(batch []int) (string, any) {
			es := make([]map[string]any, len(batch))
			for k, i := range batch {
				es[k] = map[string]any{"entity_name": "bench/" + entityName(i), "entity_type": "person", "content": observation(i)}
			}
			return "add_entities", map[string]any{"entities": es}
		},
		createRelations: func(batch []int, n int) (string, any) {
			rs := make([]map[string]any, len(batch))
			for k, i := range batch {
				rs[k] = map[string]any{"from": "bench/" + entityName(i), "to": "bench/" + entityName((i+1)%n), "type": "knows"}
			}
			return "create_relations", map[string]any{"relations": rs}
		},
		search: func(i int) (string, any) {
			return "search_anywhere", map[string]any{"pattern_glob": fmt.Sprintf("*topic-%d *", i%97), "max_results": 20}
		},
		read: func(i int) (string, any) {
			return "read_entities", map[string]any{"entity_names": []string{"bench/" + entityName(i)}}
		},
	}
}

func memory(s *mcp.ClientSession) *server {
	return &server{name: "server-memory", session: s,
		createEntities: func(batch []int) (string, any) {
			es := make([]map[string]any, len(batch))
			for k, i := range batch {
				es[k] = map[string]any{"name": entityName(i), "entityType": "person", "observations": []string{observation(i)}}
			}
			return "create_entities", map[string]any{"entities": es}
		},
		createRelations: func(batch []int, n int) (string, any) {
			rs := make([]map[string]any, len(batch))
			for k, i := range batch {
				rs[k] = map[string]any{"from": entityName(i), "to": entityName((i + 1) % n), "relationType": "knows"}
			}
			return "create_relations", map[string]any{"relations": rs}
		},
		search: func(i int) (string, any) {
			return "search_nodes", map[string]any{"query": fmt.Sprintf("topic-%d ", i%97)}
		},
		read: func(i int) (string, any) {
			return "open_nodes", map[string]any{"names": []string{entityName(i)}}
		},
	}
}

// result is one measured step.
type result struct {
	Server string  `json:"server"`
	Step   string  `json:"step"`
	Calls  int     `json:"calls"`
	Items  int     `json:"items"`
	MS     float64 `json:"ms"`
	Round  int     `json:"round,omitempty"`
}

func main() {
	bin := flag.String("memotree", "", "the memotree binary")
	vault := flag.String("vault", "", "an empty folder for MemoTree's vaults (one per round)")
	memCmd := flag.String("memory", "", "command line of @modelcontextprotocol/server-memory")
	memFile := flag.String("memory-file", "", "the JSONL file server-memory stores its graph in (one per round, suffixed)")
	n := flag.Int("n", 10000, "entities (and relations) to create")
	batch := flag.Int("batch", 100, "entities per create call")
	queries := flag.Int("queries", 1000, "searches and reads")
	rounds := flag.Int("rounds", 3, "whole runs, each on empty stores")
	rows := flag.String("rows", "", "also append a row per step for bench/cmd/table to this file (needs -ab-dir)")
	abDir := flag.String("ab-dir", "", "the folder for each step's rounds, in bench/cmd/ab's JSON format")
	flag.Parse()
	if *bin == "" || *vault == "" || *memCmd == "" || *memFile == "" || *rounds < 1 || (*rows != "") != (*abDir != "") {
		flag.Usage()
		os.Exit(2)
	}
	ctx := context.Background()
	enc := json.NewEncoder(os.Stdout)
	var all [][][]result // by round, then server, then step
	for r := range *rounds {
		dir := filepath.Join(*vault, fmt.Sprintf("round-%d", r+1))
		if err := os.MkdirAll(dir, 0o755); err != nil {
			fail("%v", err)
		}
		res := round(ctx, *bin, dir, *memCmd, fmt.Sprintf("%s.%d", *memFile, r+1), *n, *batch, *queries)
		for _, rs := range res {
			for _, x := range rs {
				x.Round = r + 1
				enc.Encode(x)
			}
		}
		all = append(all, res)
	}
	if *rows != "" {
		writeRows(*rows, *abDir, all, *batch)
	}
}

// round starts both servers on empty stores, runs every step and stops them.
func round(ctx context.Context, bin, vault, memCmd, memFile string, n, batch, queries int) [][]result {
	mt := exec.Command(bin, "mcp", "--library", "bench="+vault, "--permission", "bench=write")
	parts := strings.Fields(memCmd)
	mem := exec.Command(parts[0], parts[1:]...)
	mem.Env = append(os.Environ(), "MEMORY_FILE_PATH="+memFile)
	var servers []*server
	for _, c := range []struct {
		cmd  *exec.Cmd
		make func(*mcp.ClientSession) *server
	}{{mt, memotree}, {mem, memory}} {
		c.cmd.Stderr = os.Stderr
		s, err := mcp.NewClient(&mcp.Implementation{Name: "mcpbench", Version: "1"}, nil).Connect(ctx, &mcp.CommandTransport{Command: c.cmd}, nil)
		if err != nil {
			fail("connect %s: %v", c.cmd.Path, err)
		}
		defer s.Close()
		servers = append(servers, c.make(s))
	}
	return run(ctx, servers, n, batch, queries)
}

// abFile is the part of bench/cmd/ab's format a step's rounds fill: wall times in
// seconds, MemoTree first.
type abFile struct {
	Runs    int `json:"runs"`
	Results []struct {
		Name string    `json:"name"`
		Wall []float64 `json:"wall_s"`
		CPU  []float64 `json:"cpu_s"`
	} `json:"results"`
}

// writeRows writes each step's rounds to an ab file in dir and appends its row:
// MemoTree beside server-memory, the ratio taken round by round.
func writeRows(path, dir string, all [][][]result, batch int) {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
	if err != nil {
		fail("%v", err)
	}
	defer f.Close()
	for i, step := range all[0][0] {
		var ab abFile
		ab.Runs = len(all)
		ab.Results = make([]struct {
			Name string    `json:"name"`
			Wall []float64 `json:"wall_s"`
			CPU  []float64 `json:"cpu_s"`
		}, 2)
		for k := range ab.Results {
			ab.Results[k].Name = all[0][k][i].Server
			for _, round := range all {
				ab.Results[k].Wall = append(ab.Results[k].Wall, round[k][i].MS/1000)
			}
		}
		file := filepath.Join(dir, "mcp-"+strings.ReplaceAll(step.Step, " ", "-")+".json")
		b, err := json.Marshal(ab)
		if err != nil {
			fail("%v", err)
		}
		if err := os.WriteFile(file, b, 0o644); err != nil {
			fail("%v", err)
		}
		what := "MCP over stdio: " + step.Step
		if step.Step == "create entities" || step.Step == "create relations" {
			what += fmt.Sprintf(" (batches of %d)", batch)
		}
		fmt.Fprintf(f, "ab\t%s\t%d items, %d rounds\tratio<=1\t%s\n", what, step.Items, len(all), file)
	}
}

// run runs every step on every server, the servers taking turns call by call, and
// returns each server's results.
func run(ctx context.Context, servers []*server, n, batch, queries int) [][]result {
	out := make([][]result, len(servers))
	step := func(name string, calls, items int, f func(s *server, i int) (string, any)) {
		spent := make([]time.Duration, len(servers))
		for i := range calls {
			for k := range servers {
				if i%2 == 1 {
					k = len(servers) - 1 - k // the other one first
				}
				s := servers[k]
				tool, args := f(s, i)
				start := time.Now()
				res, err := s.session.CallTool(ctx, &mcp.CallToolParams{Name: tool, Arguments: args})
				spent[k] += time.Since(start)
				if err != nil {
					fail("%s %s: %v", s.name, tool, err)
				}
				if res.IsError {
					b, _ := json.Marshal(res.Content)
					fail("%s %s: %s", s.name, tool, b)
				}
			}
		}
		for k, s := range servers {
			out[k] = append(out[k], result{Server: s.name, Step: name, Calls: calls, Items: items, MS: float64(spent[k].Microseconds()) / 1000})
		}
	}
	ids := func(b int) []int {
		var batchIDs []int
		for i := b * batch; i < min(n, (b+1)*batch); i++ {
			batchIDs = append(batchIDs, i)
		}
		return batchIDs
	}
	nb := (n + batch - 1) / batch
	step("create entities", nb, n, func(s *server, b int) (string, any) { return s.createEntities(ids(b)) })
	step("create relations", nb, n, func(s *server, b int) (string, any) { return s.createRelations(ids(b), n) })
	step("search", queries, queries, func(s *server, i int) (string, any) { return s.search(i) })
	step("read", queries, queries, func(s *server, i int) (string, any) { return s.read((i * 7919) % n) })
	return out
}

func fail(format string, args ...any) {
	fmt.Fprintf(os.Stderr, "mcpbench: "+format+"\n", args...)
	os.Exit(1)
}
