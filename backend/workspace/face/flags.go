package face

import (
	"flag"
	"fmt"
	"maps"
	"path/filepath"
	"slices"
	"strings"

	"github.com/memotree/memotree/backend/tool"
	"github.com/memotree/memotree/backend/workspace"
)

// Flags are the flags every face takes, defined once: the libraries to open and what
// the agent and MCP clients may do in each. A face-wide flag is one more field here,
// registered by Register and applied by the Open functions.
type Flags struct {
	// Libraries are the --library NAME=PATH flags, in order: the first is the
	// default library.
	Libraries []workspace.Spec
	// Permissions are the --permission NAME=LEVEL flags: the permission of the
	// library of that name, for the agent and MCP clients (tool.Permission; propose
	// when not given). `memotree call`, the person's own, is held to a permission only
	// when one is given for the library.
	Permissions map[string]tool.Permission
}

// permissionUsage is the --permission flag's line in every face's usage.
const permissionUsage = "what the agent and MCP clients may do in a library: `NAME=read|propose|write` (repeatable; default propose; memotree call is held to it only when given)"

// Register adds --library and --permission to fs. A relative PATH is taken from dir
// ("" for the working folder): a second launch of the window sends its own.
func (f *Flags) Register(fs *flag.FlagSet, dir string) {
	f.RegisterLibraries(fs, dir)
	fs.Func("permission", permissionUsage, func(s string) error {
		name, level, ok := strings.Cut(s, "=")
		if !ok {
			return fmt.Errorf("want NAME=LEVEL, got %q", s)
		}
		p, err := tool.ParsePermission(level)
		if err != nil {
			return err
		}
		if f.Permissions == nil {
			f.Permissions = map[string]tool.Permission{}
		}
		f.Permissions[name] = p
		return nil
	})
}

// RegisterLibraries adds only --library to fs, for a command that runs no tool
// (memotree doctor); dir is as for Register.
func (f *Flags) RegisterLibraries(fs *flag.FlagSet, dir string) {
	fs.Func("library", "mount a vault as `NAME=PATH` (repeatable; the first is the default)", func(s string) error {
		sp, err := workspace.ParseSpec(s)
		if err != nil {
			return err
		}
		// ParseSpec takes a relative PATH from our working folder.
		if _, raw, ok := strings.Cut(s, "="); dir != "" && ok && !filepath.IsAbs(raw) {
			sp.Path = filepath.Join(dir, raw)
		} else if dir != "" && !ok && !filepath.IsAbs(s) {
			sp.Path = filepath.Join(dir, s)
		}
		f.Libraries = append(f.Libraries, sp)
		return nil
	})
}

// Check reports a --permission that names none of the --library libraries, when some
// are given (without them the window opens vaults whose names come later, and a
// permission applies to the vault of that name when it opens).
func (f Flags) Check() error {
	if len(f.Libraries) == 0 {
		return nil
	}
	for _, name := range slices.Sorted(maps.Keys(f.Permissions)) {
		if !slices.ContainsFunc(f.Libraries, func(s workspace.Spec) bool { return s.Name == name }) {
			return fmt.Errorf("--permission names %q, which is not a mounted library", name)
		}
	}
	return nil
}

// face is the workspace.Face of mode with these flags' permissions.
func (f Flags) face(mode workspace.Mode) workspace.Face {
	return workspace.Face{Mode: mode, Permissions: f.Permissions}
}

// unknownPermissions lists the --permission names no library of ws has, sorted.
func (f Flags) unknownPermissions(ws *workspace.Workspace) []string {
	var out []string
	for _, name := range slices.Sorted(maps.Keys(f.Permissions)) {
		if _, err := ws.Library(name); err != nil || name == "" {
			out = append(out, name)
		}
	}
	return out
}
