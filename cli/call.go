package cli

import (
	"bufio"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"strings"

	"github.com/memotree/memotree/backend/gitrepo"
	"github.com/memotree/memotree/backend/tool"
	"github.com/memotree/memotree/backend/workspace"
	"github.com/memotree/memotree/backend/workspace/face"
)

// maxCallInput bounds the JSON read from standard input.
const maxCallInput = 16 << 20

func runCall(ctx context.Context, env Env, args []string) int {
	fs := flag.NewFlagSet("call", flag.ContinueOnError)
	var ff face.Flags
	ff.Register(fs, "")
	asJSON := fs.Bool("json", false, "print the result as JSON instead of YAML")
	list := fs.Bool("list", false, "list the tools and exit")
	yes := fs.Bool("yes", false, "run a call that deletes or discards (delete, merge, discard, a script naming one) without asking")
	fs.Usage = func() {
		fmt.Fprint(env.Stderr, "usage: memotree call [--library NAME=PATH]... [--permission NAME=LEVEL]... [--json] [--yes] TOOL [JSON | -]\n       memotree call --list\n\n")
		fs.PrintDefaults()
	}
	fs.SetOutput(env.Stderr)
	// Flags may follow the tool's name, as in the seeds' examples:
	// memotree call read_manual --library work=~/Notes.
	rest, err := parseInterspersed(fs, args)
	if err != nil {
		if err == flag.ErrHelp {
			return 0
		}
		return 2
	}
	if *list && len(ff.Libraries) == 0 {
		return listTools(env)
	}
	if !requireLibraries(env, "call", ff.Libraries) || !checkFaceFlags(env, "call", ff) {
		return 2
	}
	if !*list && (len(rest) < 1 || len(rest) > 2) {
		fs.Usage()
		return 2
	}
	input, err := callInput(env, rest)
	if err != nil {
		fmt.Fprintf(env.Stderr, "memotree call: %v\n", err)
		return 2
	}
	lazyGC()
	// The process waits for its one call: a status's stat calls may keep their
	// processor (see gitrepo.DirectStat).
	gitrepo.DirectStat()
	// A one-shot call does only the work it needs: libraries are scanned lazily, the
	// first time a tool needs the link graph.
	c, err := face.OpenCall(ctx, ff)
	if err != nil {
		return fail(env, "call", err)
	}
	defer c.Close()
	if *list {
		printTools(env, c.Registry)
		return 0
	}
	// The person at the terminal confirms what deletes or discards; a script or a
	// pipe passes --yes.
	res, err := c.Run(ctx, rest[0], input, callTerminal(env, rest, *yes).ask)
	if *asJSON {
		env.Stdout.Write(append(res.JSON(), '\n'))
	} else {
		fmt.Fprint(env.Stdout, res.YAML())
	}
	if err != nil {
		fmt.Fprintf(env.Stderr, "memotree call: %s: %v\n", rest[0], err)
	}
	if res.IsError() {
		return 1
	}
	return 0
}

// callInput returns the tool's JSON arguments: the second argument, standard input
// when it is "-", or {} when absent.
func callInput(env Env, rest []string) (json.RawMessage, error) {
	if len(rest) < 2 {
		return json.RawMessage(`{}`), nil
	}
	var raw []byte
	if rest[1] == "-" {
		if env.Stdin == nil {
			return nil, fmt.Errorf("no standard input to read the arguments from")
		}
		b, err := io.ReadAll(io.LimitReader(env.Stdin, maxCallInput+1))
		if err != nil {
			return nil, fmt.Errorf("read arguments: %w", err)
		}
		if len(b) > maxCallInput {
			return nil, fmt.Errorf("arguments on standard input are larger than %d MB", maxCallInput>>20)
		}
		raw = b
	} else {
		raw = []byte(rest[1])
	}
	if strings.TrimSpace(string(raw)) == "" {
		return json.RawMessage(`{}`), nil
	}
	if !json.Valid(raw) {
		return nil, fmt.Errorf("the arguments are not valid JSON: write them as an object, e.g. '{\"entity_names\": [\"Welcome\"]}'")
	}
	return raw, nil
}

// callTerminal is the person who answers for `memotree call`: at the terminal of
// standard input, when it is one and not the arguments' source; approving everything
// with --yes.
func callTerminal(env Env, rest []string, yes bool) terminal {
	t := terminal{out: env.Stderr, yes: yes, advice: "answer y when asked at a terminal, or pass --yes (memotree call --yes ...)"}
	if env.Stdin != nil && stdinTerminal(env, rest) {
		t.line = lines(env.Stdin)
	}
	return t
}

// lines reads in a line at a time; false at the end of the input.
func lines(in io.Reader) func() (string, bool) {
	r := bufio.NewReader(in)
	return func() (string, bool) {
		line, err := r.ReadString('\n')
		return line, err == nil || line != ""
	}
}

// stdinTerminal reports whether standard input is a terminal the person can answer
// at (not the arguments' source, with "-").
func stdinTerminal(env Env, rest []string) bool {
	if len(rest) > 1 && rest[1] == "-" {
		return false
	}
	return isTerminal(env.Stdin)
}

// listTools prints the catalogue without opening a library: the tools and their
// classes do not depend on one.
func listTools(env Env) int {
	reg, err := workspace.Catalogue()
	if err != nil {
		return fail(env, "call", err)
	}
	printTools(env, reg)
	return 0
}

// printTools prints one line per tool: its name and class.
func printTools(env Env, reg *tool.Registry) {
	for _, t := range reg.List() {
		fmt.Fprintf(env.Stdout, "%-28s %s\n", t.Name(), t.Class())
	}
}
