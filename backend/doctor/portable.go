package doctor

import (
	"fmt"
	"path/filepath"

	"github.com/memotree/memotree/backend/portable"
	"github.com/memotree/memotree/backend/vpath"
)

// CaseClash is a group of files whose paths differ only in case or Unicode form:
// several files here, one file on Windows and macOS, where a checkout of the vault
// keeps only one of them.
type CaseClash struct {
	Paths []vpath.Path `json:"paths"`
}

// WindowsPath is a file whose path Windows cannot hold: each problem is a sentence.
type WindowsPath struct {
	Path     vpath.Path `json:"path"`
	Problems []string   `json:"problems"`
}

// windowsDocs is the folder a vault typically lives in on Windows
// (C:\Users\<name>\Documents\<vault>), for counting the length of its paths there;
// the account's name is taken as eight characters.
const windowsDocs = `C:\Users\username\Documents`

// WindowsRoot returns the folder a vault in dir would typically be in on Windows,
// from which the length of its paths is counted.
func WindowsRoot(dir string) string {
	return windowsDocs + `\` + filepath.Base(dir)
}

// portability reports the files that would not survive a checkout on Windows or
// macOS: paths that differ only in case (CaseClashes), and paths Windows refuses or
// that reach MAX_PATH under a typical vault folder there (WindowsPaths). Both are
// warnings: the vault works here as it is.
func (r *Report) portability(files []vpath.Path, root string, limit int) {
	paths := make([]string, len(files))
	for i, p := range files {
		paths[i] = string(p)
	}
	for _, group := range portable.CaseClashes(paths) {
		c := CaseClash{}
		for _, p := range group {
			c.Paths = append(c.Paths, vpath.Path(p))
		}
		r.CaseClashes.add(limit, c)
	}
	for _, p := range files {
		probs := portable.WindowsProblems(string(p))
		if portable.TooLong(root, string(p)) {
			probs = append(probs, fmt.Sprintf("its path is %d characters long in %s, and Windows programs open none of %d or more (Explorer, Git for Windows without core.longpaths)",
				portable.WindowsLength(root, string(p)), root, portable.MaxPath))
		}
		if len(probs) > 0 {
			r.WindowsPaths.add(limit, WindowsPath{Path: p, Problems: probs})
		}
	}
}
