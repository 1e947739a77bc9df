package face

import (
	"flag"
	"io"
	"path/filepath"
	"strings"
	"testing"

	"github.com/memotree/memotree/backend/llm"
	"github.com/memotree/memotree/backend/tool"
	"github.com/memotree/memotree/backend/workspace"
	"github.com/memotree/memotree/demo"
)

// demoVault copies the demo vault into a fresh folder.
func demoVault(t *testing.T) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "demo")
	if err := demo.CopyTo(dir); err != nil {
		t.Fatal(err)
	}
	return dir
}

// parse registers the flags every face takes on a fresh set and parses args.
func parse(t *testing.T, args ...string) Flags {
	t.Helper()
	var f Flags
	fs := flag.NewFlagSet("face", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	f.Register(fs, "")
	if err := fs.Parse(args); err != nil {
		t.Fatalf("parse %q: %v", args, err)
	}
	return f
}

// TestEveryFaceHonoursThePermissionFlag: the window (the app's and serve's), MCP,
// call, chat and index all take --permission from the same flags, and each opens its
// library with the permission given, or propose without one.
func TestEveryFaceHonoursThePermissionFlag(t *testing.T) {
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	faces := map[string]func(t *testing.T, f Flags) (*workspace.Workspace, func()){
		"window": func(t *testing.T, f Flags) (*workspace.Workspace, func()) {
			w, err := OpenWindow(t.Context(), f, WindowOptions{StatePath: filepath.Join(t.TempDir(), "vaults.toml")})
			if err != nil {
				t.Fatal(err)
			}
			return w.Workspace, w.Close
		},
		"mcp": func(t *testing.T, f Flags) (*workspace.Workspace, func()) {
			m, err := OpenMCP(t.Context(), f, "test")
			if err != nil {
				t.Fatal(err)
			}
			return m.Workspace, m.Close
		},
		"call": func(t *testing.T, f Flags) (*workspace.Workspace, func()) {
			c, err := OpenCall(t.Context(), f)
			if err != nil {
				t.Fatal(err)
			}
			return c.Workspace, c.Close
		},
		"chat": func(t *testing.T, f Flags) (*workspace.Workspace, func()) {
			c, err := OpenChat(t.Context(), f, ChatOptions{Settings: llm.Settings{BaseURL: "http://127.0.0.1:9/v1", Model: "m"}})
			if err != nil {
				t.Fatal(err)
			}
			return c.Workspace, c.Close
		},
		"index": func(t *testing.T, f Flags) (*workspace.Workspace, func()) {
			ws, err := OpenIndex(t.Context(), f, nil)
			if err != nil {
				t.Fatal(err)
			}
			return ws, func() { ws.Close() }
		},
	}
	for name, open := range faces {
		for _, c := range []struct {
			flags []string
			want  tool.Permission
		}{
			{nil, tool.PermPropose},
			{[]string{"--permission", "demo=read"}, tool.PermRead},
			{[]string{"--permission", "demo=WRITE"}, tool.PermWrite},
		} {
			t.Run(name+strings.Join(c.flags, " "), func(t *testing.T) {
				f := parse(t, append([]string{"--library", "demo=" + demoVault(t)}, c.flags...)...)
				ws, closeFace := open(t, f)
				defer closeFace()
				if got := ws.Permission("demo"); got != c.want {
					t.Errorf("permission %s, want %s", got, c.want)
				}
			})
		}
	}
}

// A --permission that names no --library is refused the same way by every face; a
// window opened without --library applies it to the vault of that name when it opens.
func TestPermissionNamesALibrary(t *testing.T) {
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	f := parse(t, "--library", "demo="+demoVault(t), "--permission", "work=read")
	if err := f.Check(); err == nil || !strings.Contains(err.Error(), `--permission names "work", which is not a mounted library`) {
		t.Errorf("Check = %v", err)
	}
	if _, err := OpenCall(t.Context(), f); err == nil {
		t.Error("call opened with a --permission of no library")
	}
	if _, err := OpenWindow(t.Context(), f, WindowOptions{StatePath: filepath.Join(t.TempDir(), "vaults.toml")}); err == nil {
		t.Error("the window opened with a --permission of no library")
	}

	w, err := OpenWindow(t.Context(), parse(t, "--permission", "work=read"), WindowOptions{StatePath: filepath.Join(t.TempDir(), "vaults.toml")})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	if len(w.Notices) != 1 || !strings.Contains(w.Notices[0], `"work", which is not open now`) {
		t.Errorf("notices %q", w.Notices)
	}
	dir := filepath.Join(t.TempDir(), "work")
	if err := demo.CopyTo(dir); err != nil {
		t.Fatal(err)
	}
	info, err := w.API.OpenVault(dir)
	if err != nil {
		t.Fatal(err)
	}
	if got := w.Workspace.Permission(info.Name); info.Name != "work" || got != tool.PermRead {
		t.Errorf("the vault opened later: %s with permission %s, want work with read", info.Name, got)
	}
}
