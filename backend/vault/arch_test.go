package vault

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// writeCalls are the calls that create, change, move or remove a file or folder: the
// methods of os.Root and the functions of os and unix (by name), and this package's
// and internal/regular's helpers that open a file for writing.
var writeCalls = map[string]bool{
	"OpenFile": true, "Create": true, "WriteFile": true, "Rename": true, "Remove": true,
	"RemoveAll": true, "Mkdir": true, "MkdirAll": true, "Link": true, "Symlink": true,
	"Chmod": true, "Chown": true, "Lchown": true, "Chtimes": true,
	"Openat": true, "Openat2": true, "Renameat": true, "Renameat2": true, "Unlinkat": true,
	"Linkat": true, "Mkdirat": true, "Symlinkat": true, "Fchmodat": true, "Fchownat": true,
	"createFile": true,
}

// ownFileWriters are the functions outside the resolver that write files themselves:
// MemoTree's own files in .memotree, whose names MemoTree chooses and whose folder is
// never a symbolic link (ensureInternal), its caches, and reads that open a file.
var ownFileWriters = map[string]string{
	"apply.go stageIntent":       "a batch's intent, created in .memotree",
	"apply.go commitBatch":       "a batch's intent, renamed into place in .memotree",
	"cache.go SetCacheDir":       "the caches outside the vault, before its first write",
	"cache.go WriteCache":        "a cache file, in .memotree or the user's cache folder",
	"cache.go CachePath":         "a cache's folder, in .memotree or the user's cache folder",
	"cache.go RemoveCache":       "a cache file, in .memotree or the user's cache folder",
	"cache.go HoldCache":         "a cache's lock file, in .memotree or the user's cache folder",
	"internal.go ensureInternal": ".memotree/.gitignore",
	"internal.go InternalPath":   "a folder in .memotree for a library that opens its own files",
	"lock.go openLockFile":       "the vault's lock file in .memotree",
	"lock.go HoldInternal":       "a lock file in .memotree",
	"readfast_linux.go open":     "a read (O_RDONLY)",
	"rename.go rename":           "the batchDirs' own rename (renameOnce, through dirsRenamer), retried while another program holds the file",
	"sync_other.go syncAll":      "a batch's temporary file, opened to sync it",
	"temps.go lockTemp":          "a temporary file in .memotree, opened to lock it",
	"temps.go InternalTempLive":  "a temporary file in .memotree, opened to probe its lock",
	"apply.go createFile":        "a new file in .memotree (a batch's intent)",
	"batchdirs_linux.go *":       "the resolver's descriptors",
	"batchdirs_other.go *":       "the resolver's portable half",
}

// TestWritesGoThroughTheResolver: in this package, no function but the resolver's
// (resolve.go, batchdirs_*.go) and those listed in ownFileWriters, each with its
// reason, calls anything that creates, changes, moves or removes a file: every other
// write goes through a batchDirs after the resolver judged its path, so that no
// caller can go around it. A new write must do the same, or be listed with why.
func TestWritesGoThroughTheResolver(t *testing.T) {
	names, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	var found []string
	used := map[string]bool{}
	for _, name := range names {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		src, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		f, err := parser.ParseFile(fset, name, src, 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range f.Decls {
			fn, ok := d.(*ast.FuncDecl)
			if !ok || fn.Body == nil {
				continue
			}
			key := name + " " + fn.Name.Name
			if ownFileWriters[name+" *"] != "" {
				key = name + " *"
			}
			ast.Inspect(fn.Body, func(n ast.Node) bool {
				call, ok := n.(*ast.CallExpr)
				if !ok {
					return true
				}
				var callee string
				switch f := call.Fun.(type) {
				case *ast.SelectorExpr:
					callee = f.Sel.Name
				case *ast.Ident:
					callee = f.Name
				}
				switch {
				case !writeCalls[callee] || throughBatchDirs(call):
				case ownFileWriters[key] != "":
					used[key] = true
				default:
					found = append(found, fmt.Sprintf("%s: %s calls %s", fset.Position(call.Pos()), fn.Name.Name, callee))
				}
				return true
			})
		}
	}
	sort.Strings(found)
	for _, f := range found {
		t.Errorf("%s, around the resolver: write through a batchDirs (resolve.go), or list it in ownFileWriters with why", f)
	}
	for key := range ownFileWriters {
		if !used[key] && !strings.HasSuffix(key, " *") {
			t.Errorf("ownFileWriters lists %s, which writes nothing itself (any more): take it off", key)
		}
	}
}

// throughBatchDirs reports whether call is a method of a batchDirs, whose receiver is
// conventionally named dirs, bd or b.
func throughBatchDirs(call *ast.CallExpr) bool {
	sel, ok := call.Fun.(*ast.SelectorExpr)
	if !ok {
		return false
	}
	id, ok := sel.X.(*ast.Ident)
	return ok && (id.Name == "dirs" || id.Name == "bd")
}
