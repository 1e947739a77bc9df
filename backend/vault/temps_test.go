package vault

import (
	"encoding/json"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"os"
	"path"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/memotree/memotree/backend/vpath"
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

// TestRemoveOrphanTemps: temporary files a walk found among the notes are removed
// under the lock; in .memotree only those older than a minute. A person's own files
// that merely start with the prefix (".memotree-tmp-notes.md", three hours old) stay,
// as does anything not named exactly as MemoTree names its temporary files.
func TestRemoveOrphanTemps(t *testing.T) {
	dir := t.TempDir()
	v, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer v.Close()
	orphanNotes, orphanRoot := "n/"+TempName(), TempName()
	oldInternal, newInternal := internalDir+"/"+TempName(), internalDir+"/"+TempName()
	want := map[string]bool{"a.md": true, orphanNotes: false, orphanRoot: false, oldInternal: false, newInternal: true}
	for _, name := range personsTempNames {
		want[name] = true
	}
	for name := range want {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte("x"), 0o644); err != nil {
			t.Fatal(err)
		}
		if name == newInternal {
			continue
		}
		old := time.Now().Add(-3 * time.Hour)
		if err := os.Chtimes(p, old, old); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := v.WalkPaths(t.Context()); err != nil {
		t.Fatal(err)
	}
	n, err := v.RemoveOrphanTemps(t.Context())
	if err != nil || n != 3 {
		t.Errorf("removed %d, %v; want 3", n, err)
	}
	for name, want := range want {
		_, err := os.Stat(filepath.Join(dir, filepath.FromSlash(name)))
		if (err == nil) != want {
			t.Errorf("%s exists = %v, want %v", name, err == nil, want)
		}
	}
}

// TestRecoverTakesNoPersonsFileForATemp: a crashed batch's intent (here a crafted
// one, as a vault copied with its .memotree may hold) whose new content is a person's
// file named with the prefix is refused: the recovery moves only files named exactly
// as MemoTree names its temporary files, so the person's file and the note it names
// both stay as they are.
func TestRecoverTakesNoPersonsFileForATemp(t *testing.T) {
	for _, name := range personsTempNames {
		if strings.HasPrefix(name, internalDir+"/") {
			continue // never beside a note
		}
		t.Run(name, func(t *testing.T) {
			target := path.Join(path.Dir(name), "a.md")
			files := map[string]string{name: "mine\n", target: "a\n"}
			v, dir := openWith(t, files)
			b, _ := json.Marshal(intent{Steps: []step{{Temp: vpath.Path(name), Target: vpath.Path(target)}}})
			if err := v.WriteInternal(intentName, b); err != nil {
				t.Fatal(err)
			}
			if _, err := v.Recover(t.Context()); err == nil {
				t.Error("Recover moved a person's file over a note")
			}
			if d := cmp.Diff(files, contents(t, dir)); d != "" {
				t.Errorf("after the recovery (-want +got):\n%s", d)
			}
		})
	}
}
