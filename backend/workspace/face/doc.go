// Package face assembles MemoTree's faces — the desktop window, `memotree serve`,
// `memotree mcp`, `memotree call`, `memotree chat` and `memotree index` — over the
// composition root (package workspace): each opens its workspace the same way
// (workspace.OpenFace, called from here only), from the same flags (Flags: --library
// and --permission, with one meaning everywhere), builds what talks to the person (the
// window's API, uiapi.NewAPI; the MCP server, mcpserver.New; the agent,
// workspace.Workspace.Agent) and wires the approvals and backups the window hosts. An
// architecture test (arch_test.go at the repository root) keeps those constructors
// here.
//
// What is left to each face's own package is its medium: app/ runs the window in
// Wails, cli/ parses a command line, listens on loopback, reads and writes the
// terminal. A new face is one function here and its medium; a flag every face takes is
// one field of Flags.
//
// Concurrency: what the Open functions return is safe for concurrent use as its parts
// (workspace, API, server, agent) are; Close is called once.
package face
