// Package script runs Starlark scripts in which every tool of the registry is a
// builtin (seed 003): run_starlark(target, code, dry_run?). A tool builtin takes the
// tool's parameters as keyword arguments, which are converted to JSON and sent through
// Registry.Call exactly as any other caller's, so validation, the permission guard and
// the observer apply; its data comes back as Starlark values. The value of __result__
// is the answer; print output is captured apart. A failing tool raises a Starlark error
// carrying the tool's error_code and message; Starlark has no try, so it stops the
// script, and run_starlark answers with that error_code.
//
// # Who calls
//
// The calls a script makes carry actor script (tool.ActorScript), the caller's library,
// turn and session, Via run_starlark, and the caller's actor as Origin. The workspace's
// guard judges a call by its Origin, so a script run by the agent in a read-only
// library cannot write, and one run by the person is not restricted.
//
// # The sandbox
//
// A fresh thread per run: no load(), recursion off (the resolver default), a step
// limit (Thread.OnMaxSteps cancels), a wall-clock limit and the caller's context
// (Thread.Cancel from a timer and from context.AfterFunc), a cap on print output. The
// step limit does not bound memory — "x" * (1 << 29) is one step — so the parsed
// script is rewritten (rewrite.go) to route +, *, %, their augmented forms and the
// join, replace and format string methods through builtins that refuse to build a
// string or list over the size limits and charge what they build, and what tools
// return, to a per-script memory budget; range is capped too. A stopped script's
// failure names the limit (steps, time, memory, string, list, tool_data, result).
//
// # All or nothing
//
// A script is one change set, made all or nothing with an undo journal (vault.Undo):
// before a script's first write to a path, under the vault lock, the path's content
// (or absence) is appended to .memotree/undo-<id>.log and synced. If the script fails,
// the journal is replayed as one crash-safe vault batch and the graphs are refreshed;
// if the process dies, the next open of the library (vault.Recover) rolls back every
// journal whose flock its owner no longer holds. The other design considered, running
// the script's tools against a copy-on-write overlay and applying everything with one
// vault.Apply at the end, would hide intermediate states from other editors and give a
// purer dry run, but every read of every tool would have to see the overlay: the
// vault's reads, walks and ReadMany, and the library's graph, which the tools query for
// every name lookup, search and backlink, would need an overlay twin, and git tools
// read the disk directly. The journal leaves the tools untouched and reads see the
// script's own writes naturally. The price: other editors can see a running script's
// intermediate state, a dry run writes and then restores (its journey records both),
// and folders a script created stay behind, empty (git does not see them). A file that
// someone else changed after the script wrote it keeps their version on a rollback
// (the result warns); after a crash every touched file is put back.
// git_commit is not callable from scripts, since no rollback could undo a commit.
//
// # Text protocol
//
// ParseToolCalls finds seed 003's fenced TOML blocks ([tool_call] with target and
// code) in a model's reply, for models without native function calling.
//
// Concurrency: a Runner is safe for concurrent use; each run has its own thread,
// budget and journal. Tool builtins run on the script's goroutine, one at a time.
package script
