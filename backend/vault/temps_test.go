package vault

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"path"
	"path/filepath"
	"strings"
	"testing"
)

// personsTempNames are files a person may have that start with TempPrefix but are
// not MemoTree's: no cleanup may remove them.
var personsTempNames = []string{
	TempPrefix + "notes.md",
	"n/" + TempPrefix + "notes.md",
	"n/" + TempPrefix + strings.Repeat("A", 25),
	"n/" + TempPrefix + strings.Repeat("A", 27),
	"n/" + TempPrefix + strings.Repeat("a", 26),
	"n/" + TempPrefix + strings.Repeat("A", 25) + "1",
	"n/" + TempPrefix + strings.Repeat("A", 25) + ".md",
	internalDir + "/" + TempPrefix + "notes.md",
}

// TestTempNames: the names of the temporary files MemoTree makes are exactly those
// IsTempName knows, and a person's names with the prefix are not.
func TestTempNames(t *testing.T) {
	for range 1000 {
		if n := TempName(); !IsTempName(n) {
			t.Fatalf("IsTempName(%q) = false for a name TempName made", n)
		}
	}
	for _, p := range personsTempNames {
		if IsTempName(path.Base(p)) {
			t.Errorf("IsTempName(%q) = true for a person's name", path.Base(p))
		}
	}
	v, dir := openTemp(t)
	var seen []string
	v.beforeRename = func(tmp string) error {
		seen = append(seen, path.Base(filepath.ToSlash(tmp)))
		return nil
	}
	if _, err := v.Write(t.Context(), "a/n.md", []byte("note"), WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	if err := v.WriteInternal("x.bin", []byte("state")); err != nil {
		t.Fatal(err)
	}
	if len(seen) != 2 {
		t.Fatalf("saw %d temporary files, want 2: %q", len(seen), seen)
	}
	for _, n := range seen {
		if !IsTempName(n) {
			t.Errorf("a write made the temporary file %q, which IsTempName does not know: its orphan would never be removed", n)
		}
	}
	assertNoTemp(t, dir)
}

// TestTempNamesAreMadeOneWay: every temporary file name the package makes is TempPrefix
// followed by rand.Text() (TempName's form), so that IsTempName knows every orphan a
// crash may leave; the caches outside the vault (os.CreateTemp) are no orphans of it.
func TestTempNamesAreMadeOneWay(t *testing.T) {
	fset := token.NewFileSet()
	pkgs, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, file := range pkgs {
		if strings.HasSuffix(file, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, file, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		ast.Inspect(f, func(node ast.Node) bool {
			b, ok := node.(*ast.BinaryExpr)
			if !ok || b.Op != token.ADD {
				return true
			}
			if id, ok := b.X.(*ast.Ident); !ok || id.Name != "TempPrefix" {
				return true
			}
			n++
			if call, ok := b.Y.(*ast.CallExpr); ok {
				if sel, ok := call.Fun.(*ast.SelectorExpr); ok && sel.Sel.Name == "Text" && fmt.Sprint(sel.X) == "rand" {
					return true
				}
			}
			if lit, ok := b.Y.(*ast.BasicLit); ok && lit.Value == `"*"` && file == "cache.go" {
				return true // os.CreateTemp in the cache folder outside the vault
			}
			t.Errorf("%s: a temporary name is made as TempPrefix + %s, which IsTempName may not know; use TempName()", fset.Position(b.Pos()), types.ExprString(b.Y))
			return true
		})
	}
	if n == 0 {
		t.Fatal("no temporary name made in the package: the test looks at nothing")
	}
}
