package vaults

import (
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

func mkdir(t *testing.T, parts ...string) string {
	t.Helper()
	p := filepath.Join(parts...)
	if err := os.MkdirAll(p, 0o755); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestCheck(t *testing.T) {
	root := t.TempDir()
	notes := mkdir(t, root, "Notes")
	open := mkdir(t, root, "Open")
	mkdir(t, open, "inner")
	obsidian := mkdir(t, root, "Obs")
	mkdir(t, obsidian, ".obsidian")
	mkdir(t, obsidian, "daily")
	file := filepath.Join(root, "note.md")
	if err := os.WriteFile(file, []byte("# x\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(root, "link")
	if err := os.Symlink(open, link); err != nil {
		t.Fatal(err)
	}
	// Folders that are no vault of their own and hold vaults; vaults holding others.
	holder := mkdir(t, root, "Holder")
	mkdir(t, holder, "Notes", ".obsidian")
	projects := mkdir(t, root, "Projects")
	mkdir(t, projects, "a", "src")
	mkdir(t, projects, "b", "deep", ".git")
	worktrees := mkdir(t, root, "Worktrees")
	mkdir(t, worktrees, "w")
	if err := os.WriteFile(filepath.Join(worktrees, "w", ".git"), []byte("gitdir: /elsewhere\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	memo := mkdir(t, root, "Memo")
	mkdir(t, memo, "x", ".memotree")
	mkdir(t, obsidian, "sub", ".git") // a nested repository of notes in a vault
	repo := mkdir(t, root, "Repo")
	mkdir(t, repo, ".git")
	mkdir(t, repo, "notes", "inner", ".git") // a submodule-like folder
	mkdir(t, repo, "other", ".obsidian")
	plain := mkdir(t, root, "Plain")
	mkdir(t, plain, "notes", "deeper")
	mkdir(t, plain, ".trash", "old", ".git") // the trash is not looked in
	if err := os.Symlink(filepath.Join(holder, "Notes"), filepath.Join(plain, "linked")); err != nil {
		t.Fatal(err) // a link is not followed, as the vault's walk does not follow one leaving it
	}
	mounted := []Mounted{{Name: "open", Path: open}}
	tests := []struct {
		path    string
		want    Checked
		wantErr error
		says    string
	}{
		{notes, Checked{Path: notes}, nil, ""},
		{notes + "/", Checked{Path: notes}, nil, ""},
		{open, Checked{Path: open, OpenAs: "open"}, nil, ""},
		{link, Checked{Path: open, OpenAs: "open"}, nil, ""},
		{obsidian, Checked{Path: obsidian}, nil, ""},
		{"", Checked{}, ErrNoPath, "full path"},
		{"Notes", Checked{}, ErrNoPath, "full path"},
		{filepath.Join(root, "missing"), Checked{}, ErrMissing, "check the path"},
		{file, Checked{}, ErrNotFolder, root},
		{filepath.Join(open, "inner"), Checked{}, ErrInsideVault, "inside the open vault open"},
		{root, Checked{}, ErrInsideVault, "holds the open vault open"},
		{filepath.Join(obsidian, "daily"), Checked{}, ErrInsideVault, "open " + obsidian + " instead"},
		{holder, Checked{}, ErrInsideVault, "holds the vault " + filepath.Join(holder, "Notes") + " (an Obsidian vault)"},
		{projects, Checked{}, ErrInsideVault, "holds the vault " + filepath.Join(projects, "b", "deep") + " (a git repository)"},
		{worktrees, Checked{}, ErrInsideVault, "holds the vault " + filepath.Join(worktrees, "w") + " (a git repository)"},
		{memo, Checked{}, ErrInsideVault, "holds the vault " + filepath.Join(memo, "x") + " (a MemoTree vault)"},
		{filepath.Join(holder, "Notes"), Checked{Path: filepath.Join(holder, "Notes")}, nil, ""},
		{repo, Checked{Path: repo}, nil, ""},
		{plain, Checked{Path: plain}, nil, ""},
	}
	for _, tt := range tests {
		got, err := Check(tt.path, mounted)
		if !errors.Is(err, tt.wantErr) || (err != nil && !strings.Contains(err.Error(), tt.says)) {
			t.Errorf("Check(%q) error = %v, want %v saying %q", tt.path, err, tt.wantErr, tt.says)
		}
		if diff := cmp.Diff(tt.want, got); diff != "" {
			t.Errorf("Check(%q) (-want +got):\n%s", tt.path, diff)
		}
	}
	t.Setenv("HOME", root)
	if got, err := Check("~/Notes", nil); err != nil || got.Path != notes {
		t.Errorf("Check(~/Notes) = %+v, %v", got, err)
	}
}

func TestCheckUnreadable(t *testing.T) {
	if runtime.GOOS != "linux" && (runtime.GOOS == "windows" || os.Geteuid() == 0) {
		t.Skip("permissions do not stop the superuser (or Windows) from reading a folder")
	}
	dir := mkdir(t, t.TempDir(), "locked")
	if err := os.Chmod(dir, 0o000); err != nil {
		t.Fatal(err)
	}
	defer os.Chmod(dir, 0o755)
	var err error
	asPlainUser(t, func() { _, err = Check(dir, nil) }) // on Linux the superuser too (CI runs as root)
	if !errors.Is(err, ErrUnreadable) {
		t.Errorf("Check of an unreadable folder: %v", err)
	}
}

func TestUniqueName(t *testing.T) {
	tests := []struct {
		path  string
		taken []string
		want  string
	}{
		{"/home/a/Notes", nil, "Notes"},
		{"/home/a/Notes", []string{"notes"}, "Notes-2"},
		{"/home/a/Notes", []string{"Notes", "Notes-2"}, "Notes-3"},
		{"/home/a/My Vault", nil, "My-Vault"},
		{"/home/a/笔记", nil, "笔记"},
		{"/home/a/.hidden", nil, "hidden"},
		{"/", nil, "vault"},
		{"/home/a/" + strings.Repeat("x", 80), nil, strings.Repeat("x", 56)},
	}
	for _, tt := range tests {
		if got := UniqueName(tt.path, tt.taken); got != tt.want {
			t.Errorf("UniqueName(%q, %q) = %q, want %q", tt.path, tt.taken, got, tt.want)
		}
	}
}

func TestObsidian(t *testing.T) {
	dir := t.TempDir()
	work, home := mkdir(t, dir, "Work"), mkdir(t, dir, "Home")
	good := filepath.Join(dir, "good.json")
	body := `{"vaults":{"a1":{"path":"` + work + `","ts":1700000000000,"open":true},` +
		`"b2":{"path":"` + home + `","ts":1710000000000},` +
		`"c3":{"path":"` + filepath.Join(dir, "Gone") + `","ts":1600000000000},` +
		`"d4":{"path":"relative/x","ts":1}},"frame":"native"}`
	if err := os.WriteFile(good, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	for name, content := range map[string]string{"empty.json": "", "malformed.json": "{\"vaults\": [", "other.json": `{"vaults": 3}`} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
		if got, problems := Obsidian([]string{filepath.Join(dir, name)}); len(got) != 0 || len(problems) != 0 {
			t.Errorf("%s lists %v, problems %v", name, got, problems)
		}
	}
	if got, problems := Obsidian([]string{filepath.Join(dir, "missing.json")}); len(got) != 0 || len(problems) != 0 {
		t.Errorf("a missing obsidian.json lists %v, problems %v", got, problems)
	}
	before, _ := os.ReadFile(good)
	got, problems := Obsidian([]string{filepath.Join(dir, "malformed.json"), good, good})
	if len(problems) != 0 {
		t.Errorf("problems: %v", problems)
	}
	want := []Found{
		{Path: home, Name: "Home", Opened: time.UnixMilli(1710000000000).UTC(), Exists: true},
		{Path: work, Name: "Work", Opened: time.UnixMilli(1700000000000).UTC(), Exists: true},
		{Path: filepath.Join(dir, "Gone"), Name: "Gone", Opened: time.UnixMilli(1600000000000).UTC(), Exists: false},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Obsidian (-want +got):\n%s", diff)
	}
	if after, _ := os.ReadFile(good); string(after) != string(before) {
		t.Error("reading obsidian.json changed it")
	}
}

func TestStore(t *testing.T) {
	path := filepath.Join(t.TempDir(), "memotree", "vaults.toml")
	s, err := Load(path)
	if err != nil {
		t.Fatal(err)
	}
	now := time.Date(2026, 11, 25, 10, 0, 0, 0, time.UTC)
	for i, p := range []string{"/v/a", "/v/b", "/v/a"} {
		if err := s.Opened(p, now.Add(time.Duration(i)*time.Minute)); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.SetWindow(Window{Width: 1400, Height: 900, X: 10, Y: 20}); err != nil {
		t.Fatal(err)
	}
	if err := s.Closed("/v/a"); err != nil {
		t.Fatal(err)
	}
	if st, err := os.Stat(path); err != nil || st.Mode().Perm() != 0o600 {
		t.Errorf("the state file: %v, %v", st, err)
	}
	again, err := Load(path)
	if err != nil {
		t.Fatal(err)
	}
	want := State{
		Open:   []string{"/v/b"},
		Active: "/v/b",
		Recent: []Recent{{Path: "/v/a", Opened: now.Add(2 * time.Minute)}, {Path: "/v/b", Opened: now.Add(time.Minute)}},
		Window: Window{Width: 1400, Height: 900, X: 10, Y: 20},
	}
	if diff := cmp.Diff(want, again.State()); diff != "" {
		t.Errorf("reloaded state (-want +got):\n%s", diff)
	}
	if err := again.Forget("/v/a"); err != nil {
		t.Fatal(err)
	}
	if st := again.State(); len(st.Recent) != 1 || st.Recent[0].Path != "/v/b" {
		t.Errorf("after Forget: %+v", st)
	}
	for i := range MaxRecent + 5 {
		if err := again.Opened("/many/"+string(rune('a'+i)), now); err != nil {
			t.Fatal(err)
		}
	}
	if n := len(again.State().Recent); n != MaxRecent {
		t.Errorf("%d recent vaults kept, want %d", n, MaxRecent)
	}

	damaged := filepath.Join(t.TempDir(), "vaults.toml")
	if err := os.WriteFile(damaged, []byte("open = [\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	d, err := Load(damaged)
	if err == nil || d == nil || len(d.State().Open) != 0 {
		t.Errorf("a damaged file: %+v, %v", d, err)
	}
}
