package cli

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestLibrariesInsideOrAroundAnotherAreRefused: every command given libraries whose
// folders overlap (`--library a=X --library b=X/sub`, or the other way round) stops
// at once with exit 1 and a reason naming the other library, before serving or
// calling anything.
func TestLibrariesInsideOrAroundAnotherAreRefused(t *testing.T) {
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	t.Setenv("OPENAI_BASE_URL", "http://127.0.0.1:9/v1") // never reached
	t.Setenv("OPENAI_API_KEY", "sk-test")
	t.Setenv("MEMOTREE_MODEL", "test-model")
	x := t.TempDir()
	sub := filepath.Join(x, "sub")
	for name, text := range map[string]string{"a.md": "# A\n", "sub/b.md": "# B\n"} {
		p := filepath.Join(x, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	pairs := map[string][]string{
		"inside": {"--library", "a=" + x, "--library", "b=" + sub},
		"around": {"--library", "a=" + sub, "--library", "b=" + x},
	}
	commands := map[string][]string{
		"serve": {"serve", "--addr", "127.0.0.1:0"},
		"mcp":   {"mcp"},
		"call":  {"call", "list_entities", "{}"},
		"chat":  {"chat", "-p", "hi"},
	}
	for cmd, head := range commands {
		for pair, libs := range pairs {
			t.Run(cmd+" "+pair, func(t *testing.T) {
				ctx, cancel := context.WithTimeout(t.Context(), 20*time.Second)
				defer cancel()
				var out, errOut bytes.Buffer
				args := append(append([]string{head[0]}, libs...), head[1:]...)
				code := Main(ctx, Env{Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errOut}, args)
				if ctx.Err() != nil {
					t.Fatalf("%q ran until stopped (exit %d): the overlapping libraries were served", args, code)
				}
				if msg := errOut.String(); code != 1 || !strings.Contains(msg, "open library b") || !strings.Contains(msg, "the library a (") {
					t.Errorf("%q: exit %d, stderr %q; want exit 1 naming the library a", args, code, msg)
				}
			})
		}
	}
}
