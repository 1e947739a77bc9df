package main

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
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
	// The Wails shell and the command line are two media of the same faces, both
	// assembled by package face: neither imports the other, in any build (the files
	// of the desktop build included, which go list leaves out here).
	files, err := filepath.Glob("app/*.go")
	if err != nil || len(files) == 0 {
		t.Fatalf("no files in app/: %v", err)
	}
	for _, file := range files {
		f, err := parser.ParseFile(token.NewFileSet(), file, nil, parser.ImportsOnly)
		if err != nil {
			t.Fatal(err)
		}
		for _, imp := range f.Imports {
			if p, _ := strconv.Unquote(imp.Path.Value); p == mod+"cli" {
				t.Errorf("%s imports %s: the window's shell does not reach into the command line", file, p)
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

// assembly is the one package that builds the faces (package face).
const assembly = "backend/workspace/face"

// faceBuilders are the constructors only the assembly may call, by the import path
// of their package: the workspace of a face, the window's API, the MCP server.
var faceBuilders = map[string]string{
	"github.com/memotree/memotree/backend/workspace": "OpenFace",
	"github.com/memotree/memotree/backend/uiapi":     "NewAPI",
	"github.com/memotree/memotree/backend/mcpserver": "New",
}

// TestOnlyTheAssemblyBuildsFaces keeps one place that assembles the window, serve,
// MCP, call and chat: outside backend/workspace/face, no Go code (tests aside) calls
// or takes workspace.OpenFace, uiapi.NewAPI or mcpserver.New, so that a face cannot
// wire itself, nor a flag every face takes be forgotten by one. The check is first
// run on a planted violation, which it must find.
func TestOnlyTheAssemblyBuildsFaces(t *testing.T) {
	planted := t.TempDir()
	for path, src := range map[string]string{
		"cli/serve.go":                   "package cli\n\nimport w \"github.com/memotree/memotree/backend/workspace\"\n\nvar open = w.OpenFace\n",
		"app/window.go":                  "package app\n\nimport \"github.com/memotree/memotree/backend/uiapi\"\n\nfunc f() { uiapi.NewAPI(nil, uiapi.Options{}) }\n",
		"backend/uiapi/own.go":           "package uiapi\n\nfunc g() { NewAPI(nil, Options{}) }\n",
		"backend/workspace/face/face.go": "package face\n\nimport \"github.com/memotree/memotree/backend/mcpserver\"\n\nvar _ = mcpserver.New\n",
	} {
		p := filepath.Join(planted, filepath.FromSlash(path))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	got, _ := faceBuilderUses(t, planted)
	want := []string{"app/window.go: uiapi.NewAPI", "backend/uiapi/own.go: uiapi.NewAPI", "cli/serve.go: workspace.OpenFace"}
	if !slices.Equal(got, want) {
		t.Fatalf("on the planted violations the check found %q, want %q", got, want)
	}

	uses, checked := faceBuilderUses(t, ".")
	for _, u := range uses {
		t.Errorf("%s: only %s assembles the faces (see its package doc)", u, assembly)
	}
	if checked < 100 {
		t.Fatalf("only %d Go files checked: the walk missed the code", checked)
	}
}

// faceBuilderUses returns, for the Go files under root (tests and the assembly aside),
// each use of a face builder as "path: package.Name", sorted, and how many files it
// read.
func faceBuilderUses(t *testing.T, root string) (uses []string, checked int) {
	t.Helper()
	const mod = "github.com/memotree/memotree/"
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
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
		rel, err := filepath.Rel(root, path)
		if err != nil {
			return err
		}
		rel = filepath.ToSlash(rel)
		dir := filepath.ToSlash(filepath.Dir(rel))
		if dir == assembly {
			return nil
		}
		fset := token.NewFileSet()
		f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		checked++
		// The builders by the name this file calls them: imported ones qualified,
		// its own package's bare.
		names := map[[2]string]string{}
		for _, imp := range f.Imports {
			p, _ := strconv.Unquote(imp.Path.Value)
			if b, ok := faceBuilders[p]; ok {
				local := p[strings.LastIndex(p, "/")+1:]
				if imp.Name != nil {
					local = imp.Name.Name
				}
				names[[2]string{local, b}] = p
			}
		}
		for p, b := range faceBuilders {
			if mod+dir == p {
				names[[2]string{"", b}] = p
			}
		}
		ast.Inspect(f, func(n ast.Node) bool {
			var key [2]string
			switch x := n.(type) {
			case *ast.SelectorExpr:
				id, ok := x.X.(*ast.Ident)
				if !ok {
					return true
				}
				key = [2]string{id.Name, x.Sel.Name}
			case *ast.CallExpr:
				id, ok := x.Fun.(*ast.Ident)
				if !ok {
					return true
				}
				key = [2]string{"", id.Name}
			default:
				return true
			}
			if p, ok := names[key]; ok {
				uses = append(uses, rel+": "+p[strings.LastIndex(p, "/")+1:]+"."+key[1])
			}
			return true
		})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	slices.Sort(uses)
	return uses, checked
}
