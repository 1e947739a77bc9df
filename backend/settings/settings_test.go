package settings_test

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/memotree/memotree/backend/llm"
	"github.com/memotree/memotree/backend/settings"
)

// oldSettingsFile is settings.toml as the versions before the look's table wrote it.
const oldSettingsFile = `# MemoTree's model endpoint. Written by the app; private to you (mode 0600).
base_url = "http://127.0.0.1:11434/v1"
model = "qwen3:8b"
api_key = "sk-very-secret-1234"
embedding_model = "nomic-embed-text"
`

// TestPersonSettingsShareTheEndpointsFile: the look is kept in settings.toml beside
// the endpoint; an existing file is read as before (the look its defaults); saving
// either keeps the other, key included, and the file stays 0600.
func TestPersonSettingsShareTheEndpointsFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "memotree", llm.SettingsFile)
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(oldSettingsFile), 0o600); err != nil {
		t.Fatal(err)
	}
	endpoint := llm.Settings{BaseURL: "http://127.0.0.1:11434/v1", Model: "qwen3:8b", APIKey: "sk-very-secret-1234", EmbeddingModel: "nomic-embed-text"}
	if got, err := llm.LoadSettings(path); err != nil || got != endpoint {
		t.Fatalf("endpoint of an existing file: %+v, %v", got, err)
	}
	p, err := settings.LoadPerson(path)
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(settings.DefaultPerson(), p); d != "" {
		t.Errorf("an existing file's look (-want +got):\n%s", d)
	}

	dark := settings.Person{Look: settings.Look{Theme: "dark", Language: "zh"}}
	if err := settings.SavePerson(path, dark); err != nil {
		t.Fatal(err)
	}
	if got, err := llm.LoadSettings(path); err != nil || got != endpoint {
		t.Errorf("endpoint after the look was saved: %+v, %v", got, err)
	}
	other := llm.Settings{BaseURL: "http://127.0.0.1:1234/v1", Model: "m", APIKey: "sk-another-key-5678"}
	if err := llm.SaveSettings(path, other); err != nil {
		t.Fatal(err)
	}
	if p, err := settings.LoadPerson(path); err != nil || p != dark {
		t.Errorf("look after the endpoint was saved: %+v, %v", p, err)
	}
	if got, err := llm.LoadSettings(path); err != nil || got != other {
		t.Errorf("endpoint saved: %+v, %v", got, err)
	}
	if fi, err := os.Stat(path); err != nil || fi.Mode().Perm() != 0o600 {
		t.Errorf("mode %v, %v; want 0600", fi.Mode().Perm(), err)
	}
}

func TestPersonSettingsRules(t *testing.T) {
	path := filepath.Join(t.TempDir(), "settings.toml")
	if p, err := settings.LoadPerson(path); err != nil || p != settings.DefaultPerson() {
		t.Errorf("missing file: %+v, %v", p, err)
	}
	for _, bad := range []settings.Look{{Theme: "sepia", Language: "en"}, {Theme: "dark", Language: "fr"}, {}} {
		if err := settings.SavePerson(path, settings.Person{Look: bad}); err == nil {
			t.Errorf("%+v saved", bad)
		}
	}
	// A value a newer version wrote is read as the default.
	if err := os.WriteFile(path, []byte("[look]\ntheme = \"sepia\"\nlanguage = \"zh\"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if p, err := settings.LoadPerson(path); err != nil || p.Look != (settings.Look{Theme: "auto", Language: "zh"}) {
		t.Errorf("unknown theme: %+v, %v", p, err)
	}
	if err := os.WriteFile(path, []byte("[look\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := settings.LoadPerson(path); err == nil || !strings.Contains(err.Error(), "fix the file") {
		t.Errorf("damaged file: %v", err)
	}
}

// files is a vault's .memotree folder in memory.
type files map[string][]byte

func (f files) ReadInternal(name string) ([]byte, error) {
	b, ok := f[name]
	if !ok {
		return nil, fmt.Errorf("read internal %s: %w", name, fs.ErrNotExist)
	}
	if b == nil {
		return nil, fmt.Errorf("read internal %s: %w", name, fs.ErrPermission)
	}
	return b, nil
}

func (f files) WriteInternal(name string, data []byte) error {
	f[name] = data
	return nil
}

type demo struct {
	Size  int      `json:"size"`
	On    bool     `json:"on"`
	Names []string `json:"names"`
}

var demoSection = settings.Section[demo]{
	File:    "demo.json",
	Default: func() demo { return demo{Size: 10, On: true} },
	Normal: func(d demo) demo {
		d.Size = min(max(d.Size, 1), 100)
		if d.Names == nil {
			d.Names = []string{}
		}
		return d
	},
	Check: func(d demo) error {
		if d.Size < 0 {
			return errors.New("size below 0")
		}
		return nil
	},
	Damaged: "the demo shows its defaults until saved again",
}

func TestSectionLoad(t *testing.T) {
	def := demo{Size: 10, On: true, Names: []string{}}
	tests := []struct {
		name     string
		file     []byte
		missing  bool
		want     demo
		saved    bool
		warnings []string
	}{
		{name: "missing", missing: true, want: def},
		{name: "whole", file: []byte(`{"size": 5, "on": false, "names": ["a"]}`), want: demo{Size: 5, Names: []string{"a"}}, saved: true},
		{name: "older file without a field keeps its default", file: []byte(`{"size": 5}`), want: demo{Size: 5, On: true, Names: []string{}}, saved: true},
		{name: "newer field ignored", file: []byte(`{"size": 5, "colour": "red"}`), want: demo{Size: 5, On: true, Names: []string{}}, saved: true},
		{name: "out of range bounded", file: []byte(`{"size": 500}`), want: demo{Size: 100, On: true, Names: []string{}}, saved: true},
		{name: "damaged", file: []byte(`{"size": "five"`), want: def,
			warnings: []string{".memotree/demo.json is damaged (unexpected end of JSON input): the demo shows its defaults until saved again"}},
		{name: "unreadable", file: nil, want: def, warnings: []string{"read internal demo.json: permission denied"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := files{}
			if !tt.missing {
				f["demo.json"] = tt.file
			}
			got, loaded := demoSection.Load(f)
			if d := cmp.Diff(tt.want, got); d != "" {
				t.Errorf("value (-want +got):\n%s", d)
			}
			if loaded.Saved != tt.saved {
				t.Errorf("saved = %v, want %v", loaded.Saved, tt.saved)
			}
			if d := cmp.Diff(tt.warnings, loaded.Warnings); d != "" {
				t.Errorf("warnings (-want +got):\n%s", d)
			}
		})
	}
}

func TestSectionSave(t *testing.T) {
	f := files{}
	if _, err := demoSection.Save(f, demo{Size: -1}); err == nil || len(f) != 0 {
		t.Errorf("refused value: %v, %d files written", err, len(f))
	}
	got, err := demoSection.Save(f, demo{Size: 1000, On: true})
	if err != nil {
		t.Fatal(err)
	}
	want := demo{Size: 100, On: true, Names: []string{}}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("saved (-want +got):\n%s", d)
	}
	if s := string(f["demo.json"]); s != "{\n \"size\": 100,\n \"on\": true,\n \"names\": []\n}\n" {
		t.Errorf("file:\n%s", s)
	}
	if back, _ := demoSection.Load(f); !cmp.Equal(back, want) {
		t.Errorf("read back %+v", back)
	}
}
