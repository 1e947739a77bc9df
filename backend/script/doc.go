// Package script runs Starlark scripts in which every tool of the registry is a
// builtin (seed 003): run_starlark(target, code, dry_run?). A tool builtin takes the
// tool's parameters as keyword arguments, which are converted to JSON and sent through
// Registry.Call exactly as any other caller's, so validation and the permission guard
// apply; its data comes back as Starlark values. The value of __result__
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
// A script is one transaction (library.Tx). Every library a call of the script writes
// to is forked on that first write (library.Library.Fork): the fork's vault is a
// vault.Stage over the library's, which holds the script's writes in memory, and its
// graph a clone of the library's, which indexes them; every later call of the script
// acts on the fork, so the script reads its own writes, resolves the names of notes it
// created and finds them in searches, while nobody else sees any of it. When the
// script finishes, Tx.Commit applies every fork's writes at once (vault.ApplyAll, each
// vault's batch crash-safe through its recorded intent), each write a compare-and-swap
// on what the script found: if anyone changed one of those files meanwhile — another
// process, the window, Obsidian — nothing is applied, the script answers
// error_code conflict naming the file, and their version stays. A script that fails,
// is stopped, is a dry run, or whose process dies has written nothing, so nothing is
// ever put back over someone else's write. Views on the canvas (the agent's, kept in
// .memotree, not notes) change at once. git_commit and git_checkout are not callable
// from scripts: neither could be held back until the script ends.
//
// # Text protocol
//
// ParseToolCalls finds seed 003's fenced TOML blocks ([tool_call] with target and
// code) in a model's reply, for models without native function calling.
//
// Concurrency: a Runner is safe for concurrent use; each run has its own thread,
// budget and transaction. Tool builtins run on the script's goroutine, one at a time.
package script
