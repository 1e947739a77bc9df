package main

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os/exec"
	"path"
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
// note parser and the graph do no I/O and know nothing of the packages around them,
// and the search engine knows nothing of the tools.
func TestImportsPointInward(t *testing.T) {
	const mod = "github.com/memotree/memotree/"
	forbidden := map[string][]string{
		"backend/vpath": {"os", "io/fs", "net", mod},
		"backend/note":  {"os", "net", mod + "backend/vault", mod + "backend/graph", mod + "app"},
		"backend/graph": {"os", "net", mod + "backend/vault", mod + "backend/watch", mod + "app"},
		// The file-system rules of other systems do no I/O: callers pass the Renamer.
		"backend/portable": {"os", "io/fs", "net", mod},
		// The search engine knows nothing of the tools that call it: the catalogue
		// decodes their arguments and shapes the engine's answers into results.
		"backend/search": {mod + "backend/tool", mod + "backend/catalog"},
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

// TestNoToolCalledByName keeps Go callers on the typed handles. Every tool is declared
// through a tool.Ref named with a literal (tool.NewRef[In, Out]("read_manual")), and
// outside the catalogue (backend/catalog), the registry (backend/tool) and the
// benchmarks' MCP client (bench/) no Go code names a tool any other way: not to call
// or check it (`reg.Call(ctx, c, "read_manual", …)`), not to get it
// (`reg.Get("git_commit")`), not to pick it from a list (`t.Name() ==
// "delete_entities"`, a switch case, a map key), and not through a constant holding
// its name — where a renamed tool or key would compile and break at run time. Go code
// that means one tool uses its Ref (Ref.Call, Ref.Name); faces that pass on a name
// they were given (MCP, Starlark, the agent's model) use a variable, which this does
// not flag.
func TestNoToolCalledByName(t *testing.T) {
	files := goFiles(t)
	declared := map[string]bool{}
	first := map[string]token.Position{}
	refs := make([]map[string]token.Position, len(files))
	for i, f := range files {
		refs[i] = toolRefs(t, f)
		for name, pos := range refs[i] {
			if declared[name] {
				t.Errorf("%s: a second tool.NewRef for %q (the first is at %s): a tool has one Ref, which Go callers share", pos, name, first[name])
			}
			declared[name], first[name] = true, pos
		}
	}
	if len(declared) < 40 {
		t.Fatalf("only %d tools declared through tool.NewRef: the walk missed the catalogue", len(declared))
	}
	shape := regexp.MustCompile(`^[a-z]+(_[a-z]+)+$`) // what a tool's name looks like
	allowed := []string{
		"backend/catalog/", // declares the tools
		"backend/tool/",    // the registry
		"bench/",           // drives `memotree mcp` from outside, as any MCP client, beside servers whose tools share names
	}
	for i, f := range files {
		if !slices.ContainsFunc(allowed, func(a string) bool { return strings.HasPrefix(f.path, a) }) {
			checkToolNames(t, f, declared, refs[i], shape)
		}
	}
}

// coincidence reports whether the literal name, in the package in folder dir, spells
// a tool's name and is no way to reach the tool. (A switch, not a package-level map or
// regular expression: this package's init is held to a few kilobytes by
// TestOwnPackagesInitCheaply.)
func coincidence(dir, name string) bool {
	switch dir + " " + name {
	case "backend/uiapi git_resolve": // the journey's operation of a conflict resolved in the window
		return true
	}
	return false
}

// checkToolNames reports each place f names a tool declared elsewhere than by its
// NewRef (refs), and each name of a tool's shape that f calls, checks or gets though
// no NewRef declares it (a tool renamed or removed).
func checkToolNames(t *testing.T, f goFile, declared map[string]bool, refs map[string]token.Position, shape *regexp.Regexp) {
	t.Helper()
	ast.Inspect(f.ast, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.BasicLit:
			v, ok := stringLit(n)
			if !ok || !declared[v] || coincidence(path.Dir(f.path), v) {
				return true
			}
			if pos := f.fset.Position(n.Pos()); refs[v] != pos {
				t.Errorf("%s names the tool %q: use its tool.Ref (Ref.Call, Ref.Name)", pos, v)
			}
		case *ast.CallExpr:
			sel, ok := n.Fun.(*ast.SelectorExpr)
			if !ok || (sel.Sel.Name != "Call" && sel.Sel.Name != "Check" && sel.Sel.Name != "Get") {
				return true
			}
			for _, arg := range n.Args {
				if lit, ok := arg.(*ast.BasicLit); ok {
					if v, ok := stringLit(lit); ok && shape.MatchString(v) && !declared[v] {
						t.Errorf("%s reaches the tool %q by name, and no tool.NewRef declares it", f.fset.Position(n.Pos()), v)
					}
				}
			}
		}
		return true
	})
}

// goFile is one parsed Go file, its path slash-separated from the repository root.
type goFile struct {
	path string
	fset *token.FileSet
	ast  *ast.File
}

// goFiles parses the repository's Go files, tests and the frontend left out.
func goFiles(t *testing.T) []goFile {
	t.Helper()
	files, err := parseGoFiles(".")
	if err != nil {
		t.Fatal(err)
	}
	if len(files) < 100 {
		t.Fatalf("only %d Go files found: the walk missed the code", len(files))
	}
	return files
}

// parseGoFiles parses the Go files under root, tests, the frontend, builds and test
// data left out; each goFile's path is relative to root, with slashes.
func parseGoFiles(root string) ([]goFile, error) {
	var files []goFile
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
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
		if !strings.HasSuffix(p, ".go") || strings.HasSuffix(p, "_test.go") {
			return nil
		}
		rel, err := filepath.Rel(root, p)
		if err != nil {
			return err
		}
		fset := token.NewFileSet()
		f, err := parser.ParseFile(fset, p, nil, 0)
		if err != nil {
			return err
		}
		files = append(files, goFile{filepath.ToSlash(rel), fset, f})
		return nil
	})
	return files, err
}

// toolRefs returns the tools f declares through tool.NewRef, each with the position of
// the literal naming it; a NewRef named otherwise than by a literal is an error, since
// this test could not see its name.
func toolRefs(t *testing.T, f goFile) map[string]token.Position {
	t.Helper()
	refs := map[string]token.Position{}
	ast.Inspect(f.ast, func(n ast.Node) bool {
		call, ok := n.(*ast.CallExpr)
		if !ok {
			return true
		}
		fun := call.Fun
		switch x := fun.(type) {
		case *ast.IndexListExpr:
			fun = x.X
		case *ast.IndexExpr:
			fun = x.X
		}
		if sel, ok := fun.(*ast.SelectorExpr); !ok || sel.Sel.Name != "NewRef" {
			return true
		}
		var v string
		if len(call.Args) == 1 {
			if lit, ok := call.Args[0].(*ast.BasicLit); ok {
				v, _ = stringLit(lit)
			}
		}
		if v == "" {
			t.Errorf("%s: name the tool of a tool.NewRef with a string literal", f.fset.Position(call.Pos()))
			return true
		}
		refs[v] = f.fset.Position(call.Args[0].Pos())
		return true
	})
	return refs
}

// stringLit returns the value of a string literal.
func stringLit(lit *ast.BasicLit) (string, bool) {
	if lit.Kind != token.STRING {
		return "", false
	}
	v, err := strconv.Unquote(lit.Value)
	return v, err == nil
}

// assembly is the one package that builds the faces (package face).
const assembly = "backend/workspace/face"

// faceBuilders are the constructors only the assembly may call, by the import path
// of their package: the workspace of a face, the window's API, the MCP server.
var faceBuilders = map[string][]string{
	"github.com/memotree/memotree/backend/workspace": {"OpenFace"},
	"github.com/memotree/memotree/backend/uiapi":     {"NewAPI"},
	"github.com/memotree/memotree/backend/mcpserver": {"New"},
}

// TestOnlyTheAssemblyBuildsFaces keeps one place that assembles the window, serve,
// MCP, call and chat: outside backend/workspace/face, no Go code (tests aside) calls
// or takes workspace.OpenFace, uiapi.NewAPI or mcpserver.New, so that a face cannot
// wire itself, nor a flag every face takes be forgotten by one. The check is first
// run on a planted violation, which it must find.
func TestOnlyTheAssemblyBuildsFaces(t *testing.T) {
	planted := plant(t, map[string]string{
		"cli/serve.go":                   "package cli\n\nimport w \"github.com/memotree/memotree/backend/workspace\"\n\nvar open = w.OpenFace\n",
		"app/window.go":                  "package app\n\nimport \"github.com/memotree/memotree/backend/uiapi\"\n\nfunc f() { uiapi.NewAPI(nil, uiapi.Options{}) }\n",
		"backend/uiapi/own.go":           "package uiapi\n\nfunc g() { NewAPI(nil, Options{}) }\n",
		"backend/workspace/face/face.go": "package face\n\nimport \"github.com/memotree/memotree/backend/mcpserver\"\n\nvar _ = mcpserver.New\n",
	})
	holds(t, planted, []string{"app/window.go: uiapi.NewAPI", "backend/uiapi/own.go: uiapi.NewAPI", "cli/serve.go: workspace.OpenFace"},
		faceBuilderUses, "only "+assembly+" assembles the faces (see its package doc)")
}

// faceBuilderUses returns, for the Go files under root (tests and the assembly aside),
// each use of a face builder as "path: package.Name", sorted, and how many files it
// read.
func faceBuilderUses(t *testing.T, root string) (uses []string, checked int) {
	t.Helper()
	return funcUses(t, root, faceBuilders, func(dir string) bool { return dir == assembly })
}

// funcUses returns, for the Go files under root (tests aside, and those in a folder
// skip accepts), each use — a call or a value — of the package-level functions funcs
// names by the import path of their package, as "path: package.Name", sorted, and how
// many files it read. A file of the functions' own package is held to the same rule
// for its bare names.
func funcUses(t *testing.T, root string, funcs map[string][]string, skip func(dir string) bool) (uses []string, checked int) {
	t.Helper()
	const mod = "github.com/memotree/memotree/"
	files, err := parseGoFiles(root)
	if err != nil {
		t.Fatal(err)
	}
	for _, gf := range files {
		rel, f := gf.path, gf.ast
		dir := filepath.ToSlash(filepath.Dir(rel))
		if skip(dir) {
			continue
		}
		checked++
		// The functions by the name this file uses them: imported ones qualified, its
		// own package's bare.
		names := map[[2]string]string{}
		for _, imp := range f.Imports {
			p, _ := strconv.Unquote(imp.Path.Value)
			local := p[strings.LastIndex(p, "/")+1:]
			if imp.Name != nil {
				local = imp.Name.Name
			}
			for _, b := range funcs[p] {
				names[[2]string{local, b}] = p
			}
		}
		for _, b := range funcs[mod+dir] {
			names[[2]string{"", b}] = mod + dir
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
	}
	slices.Sort(uses)
	return uses, checked
}
