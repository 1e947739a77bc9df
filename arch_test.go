package main

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
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
		// The file-system rules of other systems do no I/O: callers pass the Renamer.
		"backend/portable": {"os", "io/fs", "net", mod},
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

// TestNoToolCalledByName keeps Go callers on the typed handles: outside the catalogue
// (backend/catalog) and the registry (backend/tool), no code calls a tool by a
// literal name (`reg.Call(ctx, c, "read_manual", …)`), where a renamed tool or key
// would compile and break at run time. Faces that pass on a name they were given
// (MCP, Starlark, the agent's model) use a variable, which this does not flag.
func TestNoToolCalledByName(t *testing.T) {
	toolName := regexp.MustCompile(`^[a-z]+(_[a-z]+)+$`)
	allowed := []string{"backend/catalog/", "backend/tool/"}
	var checked int
	err := filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			switch d.Name() {
			case "node_modules", ".git", "frontend", "build", "testdata":
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		for _, a := range allowed {
			if strings.HasPrefix(filepath.ToSlash(path), a) {
				return nil
			}
		}
		fset := token.NewFileSet()
		f, err := parser.ParseFile(fset, path, nil, 0)
		if err != nil {
			return err
		}
		checked++
		ast.Inspect(f, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok {
				return true
			}
			sel, ok := call.Fun.(*ast.SelectorExpr)
			if !ok || (sel.Sel.Name != "Call" && sel.Sel.Name != "Check") {
				return true
			}
			for _, arg := range call.Args {
				lit, ok := arg.(*ast.BasicLit)
				if !ok || lit.Kind != token.STRING {
					continue
				}
				if v, err := strconv.Unquote(lit.Value); err == nil && toolName.MatchString(v) {
					t.Errorf("%s calls the tool %q by name: use its typed handle in backend/catalog", fset.Position(call.Pos()), v)
				}
			}
			return true
		})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if checked < 100 {
		t.Fatalf("only %d Go files checked: the walk missed the code", checked)
	}
}
