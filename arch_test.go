package main

import (
	"os/exec"
	"strings"
	"testing"
)

// goList runs `go list` with the given arguments and returns its lines.
func goList(t *testing.T, args ...string) []string {
	t.Helper()
	out, err := exec.Command("go", append([]string{"list"}, args...)...).Output()
	if err != nil {
		t.Fatalf("go list %v: %v", args, err)
	}
	return strings.Fields(string(out))
}

// TestBackendHasNoWails keeps the backend plain Go: no package under backend/ may
// depend on Wails, so that it builds and tests without a display, cgo or WebKit.
func TestBackendHasNoWails(t *testing.T) {
	for _, dep := range goList(t, "-deps", "./backend/...") {
		if strings.Contains(dep, "wailsapp") {
			t.Errorf("backend depends on %s: Wails belongs in app/ only", dep)
		}
	}
}

// TestImportsPointInward checks the dependency direction of the inner packages: the
// note parser and the graph do no I/O and know nothing of the packages around them.
func TestImportsPointInward(t *testing.T) {
	const mod = "github.com/memotree/memotree/"
	forbidden := map[string][]string{
		"backend/vpath": {"os", "io/fs", "net", mod},
		"backend/note":  {"os", "net", mod + "backend/vault", mod + "backend/graph", mod + "app"},
		"backend/graph": {"os", "net", mod + "backend/vault", mod + "backend/watch", mod + "app"},
	}
	for pkg, bad := range forbidden {
		for _, imp := range goList(t, "-f", `{{join .Imports " "}}`, "./"+pkg) {
			for _, b := range bad {
				if imp == b || (strings.HasSuffix(b, "/") && strings.HasPrefix(imp, b)) {
					t.Errorf("%s imports %s", pkg, imp)
				}
			}
		}
	}
}
