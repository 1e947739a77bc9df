package app

import (
	"io"
	"path/filepath"
	"strings"
	"testing"
)

// TestParseDesktopFlags: `memotree [FOLDER]` as a launcher, a terminal and a second
// launch give it — the folder made absolute from the launch's own working folder,
// flags before or after it, and the mistakes refused with a reason.
func TestParseDesktopFlags(t *testing.T) {
	wd := filepath.FromSlash("/home/ada/work")
	tests := []struct {
		name   string
		args   []string
		folder string
		smoke  bool
		specs  int
		// specPath is the first library's folder, when given.
		specPath string
		// perm is the permission given library a, when one is.
		perm string
		err  string
	}{
		{name: "nothing", args: nil},
		{name: "a relative folder is the launch's", args: []string{"Notes"}, folder: filepath.Join(wd, "Notes")},
		{name: "an absolute folder", args: []string{filepath.FromSlash("/srv/vault")}, folder: filepath.FromSlash("/srv/vault")},
		{name: "flags after the folder", args: []string{"Notes", "--smoke-test"}, folder: filepath.Join(wd, "Notes"), smoke: true},
		{name: "flags before the folder", args: []string{"--smoke-test", "Notes"}, folder: filepath.Join(wd, "Notes"), smoke: true},
		{name: "libraries", args: []string{"--library", "a=/srv/a", "--library", "b=/srv/b"}, specs: 2},
		{name: "two folders", args: []string{"Notes", "Work"}, err: "one folder at most"},
		{name: "a folder and libraries", args: []string{"--library", "a=/srv/a", "Notes"}, err: "not both"},
		{name: "a relative library is the launch's", args: []string{"--library", "a=Notes"}, specs: 1, specPath: filepath.Join(wd, "Notes")},
		{name: "a bare relative library too", args: []string{"--library", "Notes"}, specs: 1, specPath: filepath.Join(wd, "Notes")},
		{name: "a library without a path", args: []string{"--library", "a="}, err: "NAME=PATH"},
		{name: "an unknown flag", args: []string{"--nope"}, err: "not defined"},
		{name: "a permission, as every face takes it", args: []string{"--library", "a=/srv/a", "--permission", "a=read"}, specs: 1, perm: "read"},
		{name: "a wrong permission", args: []string{"--permission", "a=all"}, err: "want read, propose or write"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f, err := parseDesktopFlags(tt.args, wd, io.Discard)
			if tt.err != "" {
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Fatalf("parseDesktopFlags(%q) = %v, want an error saying %q", tt.args, err, tt.err)
				}
				return
			}
			if err != nil {
				t.Fatalf("parseDesktopFlags(%q): %v", tt.args, err)
			}
			if f.folder != tt.folder || f.smoke != tt.smoke || len(f.flags.Libraries) != tt.specs {
				t.Errorf("parseDesktopFlags(%q) = folder %q, smoke %v, %d libraries; want %q, %v, %d", tt.args, f.folder, f.smoke, len(f.flags.Libraries), tt.folder, tt.smoke, tt.specs)
			}
			if got := string(f.flags.Permissions["a"]); got != tt.perm {
				t.Errorf("parseDesktopFlags(%q) = permission %q for a, want %q", tt.args, got, tt.perm)
			}
			if tt.specPath != "" && (len(f.flags.Libraries) == 0 || f.flags.Libraries[0].Path != tt.specPath) {
				t.Errorf("parseDesktopFlags(%q) = libraries %+v, want the first at %q", tt.args, f.flags.Libraries, tt.specPath)
			}
		})
	}
}

// TestInstanceID: one person's launches share a window (the same config folder gives
// the same id), a home folder of its own (a test's) gets a window of its own, and the
// id is one D-Bus accepts in a bus name (letters, digits, underscores).
func TestInstanceID(t *testing.T) {
	a, b := instanceID("/home/ada/.config/memotree/vaults.toml"), instanceID("/tmp/home/.config/memotree/vaults.toml")
	if a != instanceID("/home/ada/.config/memotree/vaults.toml") {
		t.Error("the same config folder gave two ids")
	}
	if a == b {
		t.Error("two config folders share an id")
	}
	for _, r := range a {
		if !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '_') {
			t.Fatalf("instance id %q holds %q, which a D-Bus name cannot", a, r)
		}
	}
}
