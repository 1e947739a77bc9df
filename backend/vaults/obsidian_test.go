package vaults

import (
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestObsidianConfigsFor checks where Obsidian's vault list is looked for on each
// system, whichever system the test runs on.
func TestObsidianConfigsFor(t *testing.T) {
	flatpak := "/home/ada/.var/app/md.obsidian.Obsidian/config/obsidian/obsidian.json"
	snap := "/home/ada/snap/obsidian/current/.config/obsidian/obsidian.json"
	tests := []struct {
		name string
		goos string
		env  map[string]string
		home string
		want []string
	}{
		{"windows: %APPDATA%", "windows", map[string]string{"APPDATA": `C:\Users\Ada\AppData\Roaming`}, `C:\Users\Ada`,
			[]string{`C:\Users\Ada\AppData\Roaming\obsidian\obsidian.json`}},
		{"windows: %APPDATA% with a trailing separator", "windows", map[string]string{"APPDATA": `D:\Profiles\ada\`}, `C:\Users\Ada`,
			[]string{`D:\Profiles\ada\obsidian\obsidian.json`}},
		{"windows: no %APPDATA%", "windows", nil, `C:\Users\Ada`, nil},
		{"macOS: Application Support", "darwin", map[string]string{"XDG_CONFIG_HOME": "/Users/ada/.xdg"}, "/Users/ada",
			[]string{"/Users/ada/Library/Application Support/obsidian/obsidian.json"}},
		{"macOS: no home", "darwin", nil, "", nil},
		{"linux: ~/.config, the Flatpak and the Snap", "linux", nil, "/home/ada",
			[]string{"/home/ada/.config/obsidian/obsidian.json", flatpak, snap}},
		{"linux: $XDG_CONFIG_HOME", "linux", map[string]string{"XDG_CONFIG_HOME": "/data/ada/config"}, "/home/ada",
			[]string{"/data/ada/config/obsidian/obsidian.json", flatpak, snap}},
		{"linux: a relative $XDG_CONFIG_HOME is ignored", "linux", map[string]string{"XDG_CONFIG_HOME": "config"}, "/home/ada",
			[]string{"/home/ada/.config/obsidian/obsidian.json", flatpak, snap}},
		{"linux: no home, $XDG_CONFIG_HOME alone", "linux", map[string]string{"XDG_CONFIG_HOME": "/cfg"}, "",
			[]string{"/cfg/obsidian/obsidian.json"}},
		{"freebsd: no Flatpak or Snap", "freebsd", nil, "/home/ada",
			[]string{"/home/ada/.config/obsidian/obsidian.json"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := obsidianConfigsFor(tt.goos, func(k string) string { return tt.env[k] }, tt.home)
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("obsidianConfigsFor(%s) (-want +got):\n%s", tt.goos, diff)
			}
		})
	}
}

// TestObsidianConfigsFindsEachLinuxPlace puts an obsidian.json in each Linux place in
// turn under a home folder of the test's own and checks that its vault is found.
func TestObsidianConfigsFindsEachLinuxPlace(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("the Flatpak and Snap places are Linux's")
	}
	places := map[string]string{
		"config":  ".config/obsidian/obsidian.json",
		"flatpak": ".var/app/md.obsidian.Obsidian/config/obsidian/obsidian.json",
		"snap":    "snap/obsidian/current/.config/obsidian/obsidian.json",
	}
	for name, rel := range places {
		t.Run(name, func(t *testing.T) {
			home := t.TempDir()
			t.Setenv("HOME", home)
			t.Setenv("XDG_CONFIG_HOME", "")
			vault := mkdir(t, home, "Notes "+name)
			file := filepath.Join(home, filepath.FromSlash(rel))
			mkdir(t, filepath.Dir(file))
			if err := os.WriteFile(file, []byte(`{"vaults":{"x":{"path":"`+vault+`","ts":1}}}`), 0o644); err != nil {
				t.Fatal(err)
			}
			got, problems := Obsidian(ObsidianConfigs())
			if len(got) != 1 || got[0].Path != vault || len(problems) != 0 {
				t.Errorf("with %s, Obsidian(ObsidianConfigs()) = %v, %v; want the vault %s", rel, got, problems, vault)
			}
		})
	}
}
