package uiapi_test

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/memotree/memotree/backend/uiapi"
	"github.com/memotree/memotree/backend/vaults"
	"github.com/memotree/memotree/backend/workspace"
)

// switcher opens an empty workspace with the vault switcher on, remembering in a
// state file of its own and reading Obsidian's list from obsidianJSON.
func switcher(t *testing.T, statePath, obsidianJSON string) (*uiapi.API, *workspace.Workspace, *vaults.Store) {
	t.Helper()
	ws, err := workspace.Open(t.Context(), nil, workspace.Options{Watch: true, AllowNone: true, Debounce: 20 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ws.Close() })
	store, err := vaults.Load(statePath)
	if err != nil {
		t.Fatal(err)
	}
	notices := uiapi.MountRemembered(t.Context(), ws, store, "")
	api := uiapi.NewAPI(ws, uiapi.Options{Vaults: &uiapi.VaultOptions{Store: store, Remember: true, ObsidianFiles: []string{obsidianJSON}, Notices: notices}})
	return api, ws, store
}

func names(infos []uiapi.LibraryInfo) []string {
	var out []string
	for _, li := range infos {
		out = append(out, li.Name)
	}
	return out
}

// TestVaultSwitcher: from nothing open, the person opens vaults by path (two with the
// same folder name get distinct names), sees Obsidian's vaults and the recent ones,
// closes one, and at the next start finds open what was open, the one shown last
// first. Bad paths are refused with a reason and open nothing.
func TestVaultSwitcher(t *testing.T) {
	root := t.TempDir()
	state := filepath.Join(root, "config", "vaults.toml")
	work, other := filepath.Join(root, "work", "Notes"), filepath.Join(root, "home", "Notes")
	third := filepath.Join(root, "Third")
	writeFiles(t, work, map[string]string{"a.md": "# A\n"})
	writeFiles(t, other, map[string]string{"b.md": "# B\n", "sub/c.md": "# C\n"})
	writeFiles(t, third, map[string]string{"t.md": "# T\n"})
	obs := filepath.Join(root, "obsidian.json")
	writeFiles(t, root, map[string]string{"obsidian.json": `{"vaults":{"x":{"path":"` + third + `","ts":1700000000000,"open":true}}}`})

	api, ws, _ := switcher(t, state, obs)
	v, err := api.Vaults()
	if err != nil {
		t.Fatal(err)
	}
	if len(v.Open) != 0 || len(v.Recent) != 0 || !v.CanOpen || v.CanPickFolder || len(v.Obsidian) != 1 || v.Obsidian[0].Path != third || !v.Obsidian[0].Exists || v.Obsidian[0].Library != "" {
		t.Fatalf("first run: %+v", v)
	}
	for _, bad := range []struct {
		path string
		want error
	}{
		{filepath.Join(root, "missing"), vaults.ErrMissing},
		{filepath.Join(work, "a.md"), vaults.ErrNotFolder},
		{"relative/path", vaults.ErrNoPath},
	} {
		if _, err := api.OpenVault(bad.path); !errors.Is(err, bad.want) {
			t.Errorf("OpenVault(%s): %v, want %v", bad.path, err, bad.want)
		}
	}
	if len(ws.Libraries()) != 0 {
		t.Fatal("a refused path opened a library")
	}

	li, err := api.OpenVault(work)
	if err != nil || li.Name != "Notes" || li.Path != work {
		t.Fatalf("open work: %+v, %v", li, err)
	}
	li2, err := api.OpenVault(other + "/")
	if err != nil || li2.Name != "Notes-2" {
		t.Fatalf("open a second Notes: %+v, %v", li2, err)
	}
	if again, err := api.OpenVault(work); err != nil || again.Name != "Notes" || len(ws.Libraries()) != 2 {
		t.Errorf("opening an open vault again: %+v, %v (%d open)", again, err, len(ws.Libraries()))
	}
	if _, err := api.OpenVault(filepath.Join(other, "sub")); !errors.Is(err, vaults.ErrInsideVault) {
		t.Errorf("a folder inside an open vault: %v", err)
	}
	if _, err := api.OpenVault(third); err != nil {
		t.Fatal(err)
	}
	if files, err := api.Files("Notes-2"); err != nil || len(files.Paths) != 2 {
		t.Errorf("files of Notes-2: %v, %v", files, err)
	}
	if err := api.ActivateVault("Notes-2"); err != nil {
		t.Fatal(err)
	}
	if err := api.CloseVault("Third"); err != nil {
		t.Fatal(err)
	}
	if err := api.CloseVault("Third"); err == nil {
		t.Error("closing a closed vault succeeded")
	}
	v, _ = api.Vaults()
	if got := names(v.Open); !slices.Equal(got, []string{"Notes", "Notes-2"}) {
		t.Errorf("open after closing Third: %v", got)
	}
	var recent []string
	for _, r := range v.Recent {
		recent = append(recent, r.Path+"="+r.Library)
	}
	if want := []string{third + "=", work + "=Notes", other + "=Notes-2"}; !slices.Equal(recent, want) { // work was opened again last
		t.Errorf("recent = %v, want %v", recent, want)
	}
	if v.Obsidian[0].Library != "" {
		t.Errorf("Obsidian's Third shows as open: %+v", v.Obsidian[0])
	}
	ws.Close()

	// The next start: what was open is open again, the one shown last first; one of
	// them was deleted meanwhile.
	os.RemoveAll(work)
	api, ws, _ = switcher(t, state, obs)
	v, _ = api.Vaults()
	if got := names(v.Open); !slices.Equal(got, []string{"Notes"}) || v.Open[0].Path != other { // the name is free now
		t.Errorf("open at the next start: %+v", v.Open)
	}
	if len(v.Notices) != 1 || !strings.Contains(v.Notices[0], work) {
		t.Errorf("notices: %q", v.Notices)
	}
	if _, err := api.OpenVault(work); !errors.Is(err, vaults.ErrMissing) {
		t.Errorf("reopening the deleted vault: %v", err)
	}
	ws.Close()
	if api, _, _ = switcher(t, state, obs); true {
		if v, _ := api.Vaults(); len(v.Notices) != 0 {
			t.Errorf("the deleted vault is still remembered as open: %q", v.Notices)
		}
	}
}

// TestFixedSessionOpensNothing: a session given its libraries on the command line
// (serve --library) refuses to open or close vaults from the window.
func TestFixedSessionOpensNothing(t *testing.T) {
	dir := t.TempDir()
	api, ws := openAPI(t, dir)
	if _, err := api.OpenVault(t.TempDir()); err == nil {
		t.Error("a fixed session opened a vault")
	}
	if err := api.CloseVault("v"); err == nil || len(ws.Libraries()) != 1 {
		t.Errorf("a fixed session closed a vault: %v", err)
	}
	if v, err := api.Vaults(); err != nil || v.CanOpen || len(v.Open) != 1 {
		t.Errorf("Vaults of a fixed session: %+v, %v", v, err)
	}
}

// TestRevealNote: without a file manager the answer names the file's path; with one,
// it is given the note's absolute path and nothing outside the vault.
func TestRevealNote(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{"people/Ada.md": "# Ada\n"})
	ws, err := workspace.Open(t.Context(), []workspace.Spec{{Name: "v", Path: dir}}, workspace.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer ws.Close()
	want := filepath.Join(dir, "people", "Ada.md")
	if err := uiapi.NewAPI(ws, uiapi.Options{}).RevealNote("v", "people/Ada.md"); err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("RevealNote without a file manager: %v", err)
	}
	var got []string
	api := uiapi.NewAPI(ws, uiapi.Options{Reveal: func(p string) error { got = append(got, p); return nil }})
	if err := api.RevealNote("v", "people/Ada.md"); err != nil || !slices.Equal(got, []string{want}) {
		t.Errorf("RevealNote: %v, revealed %v", err, got)
	}
	if err := api.RevealNote("v", "../outside.md"); err == nil || len(got) != 1 {
		t.Errorf("RevealNote outside the vault: %v, revealed %v", err, got)
	}
}

// TestMountRememberedOrder: the vault shown last opens first (it is the default), and
// a folder named on the command line goes before it and is remembered.
func TestMountRememberedOrder(t *testing.T) {
	root := t.TempDir()
	a, b, c := filepath.Join(root, "A"), filepath.Join(root, "B"), filepath.Join(root, "C")
	for _, d := range []string{a, b, c} {
		writeFiles(t, d, map[string]string{"n.md": "# N\n"})
	}
	store, err := vaults.Load(filepath.Join(root, "vaults.toml"))
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range []string{a, b} {
		if err := store.Opened(d, time.Now()); err != nil {
			t.Fatal(err)
		}
	}
	if err := store.SetActive(b); err != nil {
		t.Fatal(err)
	}
	open := func(folder string) []string {
		ws, err := workspace.Open(t.Context(), nil, workspace.Options{AllowNone: true})
		if err != nil {
			t.Fatal(err)
		}
		defer ws.Close()
		if n := uiapi.MountRemembered(t.Context(), ws, store, folder); len(n) != 0 {
			t.Errorf("notices: %q", n)
		}
		var got []string
		for _, l := range ws.Libraries() {
			got = append(got, l.Name())
		}
		return got
	}
	if got := open(""); !slices.Equal(got, []string{"B", "A"}) {
		t.Errorf("remembered order: %v", got)
	}
	if got := open(c); !slices.Equal(got, []string{"C", "B", "A"}) {
		t.Errorf("with a folder named: %v", got)
	}
	if st := store.State(); st.Active != c || !slices.Contains(st.Open, c) {
		t.Errorf("the named folder is not remembered: %+v", st)
	}
	if got := open(a); !slices.Equal(got, []string{"A", "C", "B"}) {
		t.Errorf("naming a remembered folder: %v", got)
	}
}

// TestOpenVaultRefusesAFolderHoldingVaults: the window refuses a folder that is no
// vault of its own and holds vaults (a git repository, an Obsidian vault below it),
// naming the vault, so that no file list shows a nested .git/config; the vaults
// themselves open, and a vault that holds a repository of notes (a submodule) opens
// whole, as it always did.
func TestOpenVaultRefusesAFolderHoldingVaults(t *testing.T) {
	root := t.TempDir()
	parent := filepath.Join(root, "Parent")
	writeFiles(t, parent, map[string]string{
		"readme.md":               "# Parent\n",
		"Project/.git/config":     "[core]\n",
		"Project/notes.md":        "# P\n",
		"Obs/.obsidian/app.json":  "{}",
		"Obs/o.md":                "# O\n",
		"Repo/.git/HEAD":          "ref: refs/heads/main\n",
		"Repo/r.md":               "# R\n",
		"Repo/shared/.git/config": "[core]\n",
		"Repo/shared/s.md":        "# S\n",
	})
	api, ws, _ := switcher(t, filepath.Join(root, "config", "vaults.toml"), filepath.Join(root, "none.json"))
	_, err := api.OpenVault(parent)
	if !errors.Is(err, vaults.ErrInsideVault) || !strings.Contains(err.Error(), "holds the vault "+filepath.Join(parent, "Obs")) && !strings.Contains(err.Error(), "holds the vault "+filepath.Join(parent, "Project")) {
		t.Errorf("OpenVault of a folder holding vaults: %v, want ErrInsideVault naming one of them", err)
	}
	if n := len(ws.Libraries()); n != 0 {
		t.Fatalf("%d libraries open after the refusal", n)
	}
	for _, dir := range []string{filepath.Join(parent, "Project"), filepath.Join(parent, "Obs"), filepath.Join(parent, "Repo")} {
		if _, err := api.OpenVault(dir); err != nil {
			t.Errorf("OpenVault(%s): %v", dir, err)
		}
	}
	files, err := api.Files("Repo")
	if err != nil || !slices.Contains(files.Paths, "shared/s.md") {
		t.Errorf("files of a vault holding a repository of notes: %v, %v", files.Paths, err)
	}
}
