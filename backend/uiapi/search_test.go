package uiapi_test

import (
	"testing"

	"github.com/memotree/memotree/backend/uiapi"
)

// apiWith opens a vault of files (see writeFiles and openAPI in git_test.go).
func apiWith(t *testing.T, files map[string]string) *uiapi.API {
	t.Helper()
	dir := t.TempDir()
	writeFiles(t, dir, files)
	a, _ := openAPI(t, dir)
	return a
}

func TestQuickSwitchAndSearch(t *testing.T) {
	a := apiWith(t, map[string]string{
		"people/Ada Lovelace.md":        "---\naliases: [Countess]\n---\nWrote the first algorithm for the Analytical Engine.\n",
		"machines/Analytical Engine.md": "A mechanical computer.\n",
		"插件/反向链接.md":                    "反向链接面板列出链接到当前笔记的其他笔记。\n",
	})
	items, err := a.QuickSwitch("v", "adlo", 10)
	if err != nil || len(items) == 0 || items[0].Path != "people/Ada Lovelace.md" {
		t.Fatalf("adlo: %+v %v", items, err)
	}
	items, _ = a.QuickSwitch("v", "countess", 10)
	if len(items) != 1 || items[0].Alias != "Countess" {
		t.Errorf("by alias: %+v", items)
	}
	if items, _ := a.QuickSwitch("v", "", 2); len(items) != 2 {
		t.Errorf("empty query lists the first notes: %+v", items)
	}
	res, err := a.Search("v", "analytical engine", uiapi.SearchOptions{})
	if err != nil || len(res.Hits) != 2 || res.Hits[0].Path != "machines/Analytical Engine.md" {
		t.Fatalf("search: %+v %v", res, err)
	}
	if res.Hits[1].Preview != "Wrote the first algorithm for the **Analytical** **Engine**. " {
		t.Errorf("preview %q", res.Hits[1].Preview)
	}
	res, err = a.Search("v", "反向链接", uiapi.SearchOptions{})
	if err != nil || len(res.Hits) != 1 || res.Hits[0].Path != "插件/反向链接.md" {
		t.Errorf("chinese: %+v %v", res, err)
	}
	res, err = a.Search("v", "nothing here", uiapi.SearchOptions{})
	if err != nil || len(res.Hits) != 0 || res.Message == "" {
		t.Errorf("no match: %+v %v", res, err)
	}
	// A pattern search answers with the notes with matches: the hits are named.
	res, err = a.Search("v", "/mechanical/", uiapi.SearchOptions{Type: "pattern"})
	if err != nil || len(res.Hits) != 1 || res.Hits[0].Path != "machines/Analytical Engine.md" || res.Hits[0].EntityName != "machines/Analytical Engine" {
		t.Errorf("pattern: %+v %v", res, err)
	}
	if _, err := a.Search("v", "x", uiapi.SearchOptions{Type: "bogus"}); err == nil {
		t.Error("a bad search type is not reported")
	}
}
