package workspace_test

import (
	"context"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/memotree/memotree/backend/tool"
	"github.com/memotree/memotree/backend/workspace"
	"github.com/memotree/memotree/demo"
)

// hostileRoot lays out a test folder: vault/ (a copy of the demo vault, with links
// pointing out of it) beside outside/ (a secret no tool may read or touch). It returns
// the folder and the vault.
func hostileRoot(t testing.TB) (root, vault string) {
	t.Helper()
	root = t.TempDir()
	vault = filepath.Join(root, "vault")
	if err := demo.CopyTo(vault); err != nil {
		t.Fatal(err)
	}
	workspace.WriteObsidianSettings(t, vault)
	outside := filepath.Join(root, "outside")
	if err := os.MkdirAll(filepath.Join(outside, "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"secret.md", "sub/deep.md"} {
		if err := os.WriteFile(filepath.Join(outside, f), []byte("# Secret\nthe secret text\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	links := map[string]string{
		"escape":         "../outside",                         // a folder, relative
		"escape-abs":     outside,                              // a folder, absolute
		"escape.md":      filepath.Join(outside, "secret.md"),  // a note, absolute
		"escape-rel.md":  "../outside/secret.md",               // a note, relative
		"chain.md":       "escape-rel.md",                      // a link to a link out
		"people/back.md": "../../outside/sub/deep.md",          // from a subfolder
		"loop.md":        "loop.md",                            // a link to itself
		"dangling.md":    filepath.Join(outside, "missing.md"), // to nothing, outside
	}
	for name, target := range links {
		if err := os.Symlink(target, filepath.Join(vault, name)); err != nil {
			t.Skip("no symbolic links here:", err)
		}
	}
	return root, vault
}

// snapshot maps every file under dir (links not followed) to its mode, size and hash.
func snapshot(t testing.TB, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		info, err := os.Lstat(p)
		if err != nil {
			return err
		}
		v := info.Mode().String()
		switch {
		case info.Mode()&fs.ModeSymlink != 0:
			target, _ := os.Readlink(p)
			v += " -> " + target
		case info.Mode().IsRegular():
			b, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			v += fmt.Sprintf(" %x", sha256.Sum256(b))
		}
		out[rel] = v
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// schemaOf decodes a tool's input schema.
func schemaOf(t testing.TB, x *tool.Tool) map[string]any {
	t.Helper()
	var s map[string]any
	if err := json.Unmarshal(x.InputSchema(), &s); err != nil {
		t.Fatalf("%s: schema: %v", x.Name(), err)
	}
	return s
}

// typeOf returns a schema's type, ignoring "null" in a list of types.
func typeOf(s map[string]any) string {
	switch ty := s["type"].(type) {
	case string:
		return ty
	case []any:
		for _, x := range ty {
			if x != "null" {
				return fmt.Sprint(x)
			}
		}
	}
	return ""
}

// build returns the smallest value valid for schema s that has v at path (a list of
// property names; "[]" steps into an array's first item). Required properties get
// plain values: strings "Welcome" (a note of the demo vault), the first of an enum.
func build(s map[string]any, path []string, v any) any {
	if len(path) == 0 && v != nil {
		return v
	}
	switch typeOf(s) {
	case "object":
		props, _ := s["properties"].(map[string]any)
		m := map[string]any{}
		if req, ok := s["required"].([]any); ok {
			for _, k := range req {
				if sub, ok := props[fmt.Sprint(k)].(map[string]any); ok {
					m[fmt.Sprint(k)] = build(sub, nil, nil)
				}
			}
		}
		if len(path) > 0 {
			if sub, ok := props[path[0]].(map[string]any); ok {
				m[path[0]] = build(sub, path[1:], v)
			}
		}
		return m
	case "array":
		items, _ := s["items"].(map[string]any)
		if len(path) > 0 {
			return []any{build(items, path[1:], v)}
		}
		return []any{build(items, nil, nil)}
	case "string":
		if e, ok := s["enum"].([]any); ok && len(e) > 0 {
			return e[0]
		}
		return "Welcome"
	case "integer", "number":
		if m, ok := s["minimum"].(float64); ok && m > 1 {
			return m
		}
		return 1
	case "boolean":
		return false
	}
	return nil
}

// stringLeaves lists the paths of every free-text string in schema s (enums are
// checked by the schema, so they are left out).
func stringLeaves(s map[string]any, prefix []string) [][]string {
	switch typeOf(s) {
	case "object":
		props, _ := s["properties"].(map[string]any)
		var out [][]string
		for _, k := range slices.Sorted(mapKeys(props)) {
			sub, _ := props[k].(map[string]any)
			out = append(out, stringLeaves(sub, append(slices.Clone(prefix), k))...)
		}
		return out
	case "array":
		items, _ := s["items"].(map[string]any)
		return stringLeaves(items, append(slices.Clone(prefix), "[]"))
	case "string":
		if _, ok := s["enum"]; ok {
			return nil
		}
		return [][]string{prefix}
	}
	return nil
}

func mapKeys(m map[string]any) func(func(string) bool) {
	return func(yield func(string) bool) {
		for k := range m {
			if !yield(k) {
				return
			}
		}
	}
}

// hostileValues are tried in every free-text string argument of every tool.
func hostileValues(root string) []string {
	return []string{
		"../../etc/passwd", "/etc/passwd", filepath.Join(root, "outside", "secret"), `..\..\outside\secret`,
		"escape/secret", "escape-abs/sub/deep", "escape", "chain", "people/back", "loop", "dangling",
		"../outside/secret", "people/../../outside/secret", ".git/config", ".memotree/lock", "journey",
		"a\x00b", "\x01\x1b[2J", "CON", " trailing. ", strings.Repeat("é", 50_000), // 100 KB
		"file:///etc/passwd", "%2e%2e/%2e%2e/etc/passwd", strings.Repeat("n", 300), "notes/" + strings.Repeat("é", 130),
	}
}

// openHostile opens the vault of root with the agent's permission perm.
func openHostile(t testing.TB, vault string, perm tool.Permission) *tool.Registry {
	t.Helper()
	ws, err := workspace.Open(context.Background(), []workspace.Spec{{Name: "demo", Path: vault, Permission: perm}}, workspace.Options{Lazy: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ws.Close() })
	reg, err := ws.Registry()
	if err != nil {
		t.Fatal(err)
	}
	return reg
}

// TestEveryToolHostileArguments iterates the registry: every free-text string argument
// of every registered tool gets path escapes, links out of the vault, NUL, control
// characters, reserved names and 100 KB. No call panics or fails internally, every
// error carries a code and a message, nothing outside the vault is read into an
// answer or touched, and git's and MemoTree's own files stay as they were.
func TestEveryToolHostileArguments(t *testing.T) {
	passwd, _ := os.ReadFile("/etc/passwd")
	probe := filepath.Join(t.TempDir(), "vault")
	if err := demo.CopyTo(probe); err != nil {
		t.Fatal(err)
	}
	names := openHostile(t, probe, tool.PermWrite).Names()
	if len(names) < 35 {
		t.Fatalf("only %d tools registered", len(names))
	}
	for _, name := range names {
		t.Run(name, func(t *testing.T) {
			root, vault := hostileRoot(t)
			reg := openHostile(t, vault, tool.PermWrite)
			x, _ := reg.Get(name)
			s := schemaOf(t, x)
			leaves := stringLeaves(s, nil)
			if len(leaves) == 0 {
				t.Logf("%s takes no free-text string", name)
			}
			outsideBefore := snapshot(t, filepath.Join(root, "outside"))
			obsidianBefore := snapshot(t, filepath.Join(vault, ".obsidian"))
			guarded := map[string]string{}
			for _, f := range []string{".git/config", ".git/HEAD", ".memotree/settings.json"} {
				b, _ := os.ReadFile(filepath.Join(vault, f))
				guarded[f] = string(b)
			}
			counts := map[string]int{}
			defer func() { t.Logf("%s: %v", name, counts) }()
			for _, leaf := range leaves {
				for _, h := range hostileValues(root) {
					args, err := json.Marshal(build(s, leaf, h))
					if err != nil {
						t.Fatal(err)
					}
					what := fmt.Sprintf("%s %s=%.40q", name, strings.Join(leaf, "."), h)
					ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
					start := time.Now()
					res, err := reg.Call(ctx, &tool.Call{Actor: tool.ActorAgent, Session: "hostile"}, name, args)
					cancel()
					counts[string(res.Status)+" "+string(res.ErrorCode)]++
					var pe *tool.PanicError
					if errors.As(err, &pe) || res.ErrorCode == tool.CodeInternal {
						t.Errorf("%s: internal failure: %s %v", what, res.Message, err)
					}
					if d := time.Since(start); d > 10*time.Second {
						t.Errorf("%s took %v", what, d)
					} else if d > 200*time.Millisecond {
						t.Logf("%s took %v", what, d)
					}
					if res.IsError() && (res.ErrorCode == "" || strings.TrimSpace(res.Message) == "") {
						t.Errorf("%s: an error without code or message: %+v", what, res)
					}
					out := res.YAML()
					if strings.Contains(out, "the secret text") {
						t.Errorf("%s: the answer shows a file from outside the vault:\n%.400s", what, out)
					}
					if len(passwd) > 40 && strings.Contains(out, string(passwd[:40])) {
						t.Errorf("%s: the answer shows /etc/passwd", what)
					}
				}
			}
			if after := snapshot(t, filepath.Join(root, "outside")); !mapsEqual(outsideBefore, after) {
				t.Errorf("%s touched files outside the vault:\nbefore %v\nafter  %v", name, outsideBefore, after)
			}
			if after := snapshot(t, filepath.Join(vault, ".obsidian")); !mapsEqual(obsidianBefore, after) {
				t.Errorf("%s wrote under .obsidian:\nbefore %v\nafter  %v", name, obsidianBefore, after)
			}
			entries, _ := os.ReadDir(root)
			for _, e := range entries {
				if e.Name() != "vault" && e.Name() != "outside" {
					t.Errorf("%s created %s beside the vault", name, e.Name())
				}
			}
			for f, was := range guarded {
				b, _ := os.ReadFile(filepath.Join(vault, f))
				if string(b) != was {
					t.Errorf("%s changed %s", name, f)
				}
			}
			for link, target := range map[string]string{"escape": "../outside", "escape-rel.md": "../outside/secret.md", "chain.md": "escape-rel.md"} {
				if got, err := os.Readlink(filepath.Join(vault, link)); err == nil && got != target {
					t.Errorf("%s re-pointed the link %s to %s", name, link, got)
				}
			}
		})
	}
}

func mapsEqual(a, b map[string]string) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if b[k] != v {
			return false
		}
	}
	return true
}

// FuzzEveryTool sends fuzzed arguments to a tool picked by the input among all the
// registered ones: raw JSON, or a fuzzed string placed in one of the tool's string
// arguments. The agent may only read (writes are refused after their arguments were
// decoded and validated, so every tool's decoding is reached and nothing is written).
// No call panics, every answer has a status, every error a code.
func FuzzEveryTool(f *testing.F) {
	_, vault := hostileRoot(f)
	reg := openHostile(f, vault, tool.PermRead)
	tools := reg.List()
	for i, h := range hostileValues("/tmp") {
		f.Add(uint8(i), uint8(i), h, false)
	}
	for i, raw := range []string{`{}`, `null`, `[]`, `{"entity_names":["Welcome"],"entity_name":"Welcome"}`, `{"a":`,
		`{"relations":[{"from":"Welcome","to":"x","type":"t"}]}`, `{"code":"__result__ = 1","target":"t"}`} {
		f.Add(uint8(i), uint8(0), raw, true)
	}
	f.Fuzz(func(t *testing.T, which, leaf uint8, value string, raw bool) {
		x := tools[int(which)%len(tools)]
		var args []byte
		if raw {
			args = []byte(value)
		} else {
			s := schemaOf(t, x)
			leaves := stringLeaves(s, nil)
			if len(leaves) == 0 {
				return
			}
			args, _ = json.Marshal(build(s, leaves[int(leaf)%len(leaves)], value))
		}
		res, err := reg.Call(context.Background(), &tool.Call{Actor: tool.ActorAgent}, x.Name(), args)
		var pe *tool.PanicError
		if errors.As(err, &pe) || res.ErrorCode == tool.CodeInternal {
			t.Fatalf("%s(%.200q): internal failure: %s %v", x.Name(), args, res.Message, err)
		}
		switch res.Status {
		case tool.StatusSuccess, tool.StatusPartial:
		case tool.StatusError:
			if res.ErrorCode == "" {
				t.Fatalf("%s(%.200q): error without code: %s", x.Name(), args, res.Message)
			}
		default:
			t.Fatalf("%s(%.200q): status %q", x.Name(), args, res.Status)
		}
	})
}
