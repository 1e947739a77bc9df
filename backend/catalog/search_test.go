package catalog_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/memotree/memotree/backend/tool"
	"github.com/memotree/memotree/internal/corpora"
)

// kitResultNames lists the entity_name of every result of a content search.
func kitResultNames(t *testing.T, res tool.Result) []string {
	t.Helper()
	return kitNames(t, res, "results", "entity_name")
}

func TestSearchInNames(t *testing.T) {
	reg := kitOpen(t, kitCopy(t, kitDemo))
	tests := []struct {
		args string
		want []string
	}{
		{`{"entity_glob":"*engine"}`, []string{"machines/mechanical/Analytical Engine", "machines/mechanical/Difference Engine"}},
		{`{"entity_glob":"machines/**"}`, []string{"machines/electronic/ENIAC", "machines/imagined/Memex", "machines/mechanical/Analytical Engine", "machines/mechanical/Difference Engine", "machines/mechanical/Jacquard Loom"}},
		{`{"entity_glob":"中文/*/*"}`, []string{"中文/人物/沈括", "中文/人物/王选", "中文/典籍/梦溪笔谈", "中文/器物/算盘", "中文/技术/汉字激光照排", "中文/技术/活字印刷", "中文/概念/易经与二进制", "中文/概念/汉字编码"}},
		{`{"entity_glob":"/^people/.*(Turing|Hopper)$/"}`, []string{"people/Alan Turing", "people/Grace Hopper"}},
		{`{"entity_glob":"阿达*"}`, []string{"people/Ada Lovelace"}}, // an alias
	}
	for _, tc := range tests {
		got := kitNames(t, kitCall(t, reg, "search_in_names", tc.args), "entities", "entity_name")
		if d := cmp.Diff(tc.want, got); d != "" {
			t.Errorf("%s (-want +got):\n%s", tc.args, d)
		}
	}
	res := kitCall(t, reg, "search_in_names", `{"entity_glob":"zzz*"}`)
	if res.ErrorCode != tool.CodeNoMatch {
		t.Errorf("no match: %s", res.YAML())
	}
}

func TestSearchInContentsAndAnywhere(t *testing.T) {
	reg := kitOpen(t, kitCopy(t, kitDemo))
	got := kitResultNames(t, kitCall(t, reg, "search_in_contents", `{"content_glob":"*punched card*","entity_glob":"machines/**"}`))
	if d := cmp.Diff([]string{"machines/mechanical/Analytical Engine", "machines/mechanical/Jacquard Loom"}, got); d != "" {
		t.Errorf("glob with entity_glob (-want +got):\n%s", d)
	}
	// Front matter is not content: "entity type: person" is only found anywhere.
	res := kitCall(t, reg, "search_in_contents", `{"content_glob":"entity type: person"}`)
	if res.ErrorCode != tool.CodeNoMatch {
		t.Errorf("search_in_contents searched the front matter:\n%s", res.YAML())
	}
	res = kitCall(t, reg, "search_anywhere", `{"pattern_glob":"entity type: person","limit":1}`)
	kitWant(t, res, tool.StatusSuccess)
	results := kitData(t, res)["results"].([]any)
	m := results[0].(map[string]any)["matches"].([]any)[0].(map[string]any)
	if m["matched_in"] != "frontmatter" || m["line_number"] != float64(2) {
		t.Errorf("search_anywhere match: %v", m)
	}
	// A name match is reported even when the text does not hold the pattern.
	got = kitResultNames(t, kitCall(t, reg, "search_anywhere", `{"pattern_glob":"memex","entity_glob":"machines/**"}`))
	if !slices.Contains(got, "machines/imagined/Memex") {
		t.Errorf("search_anywhere by name: %v", got)
	}
	// max_results caps the lines of a page, with a warning.
	res = kitCall(t, reg, "search_in_contents", `{"content_glob":"the","max_results":3}`)
	lines := 0
	for _, r := range kitData(t, res)["results"].([]any) {
		lines += len(r.(map[string]any)["matches"].([]any))
	}
	if lines != 3 || len(res.Warnings) == 0 {
		t.Errorf("max_results 3 gave %d lines, warnings %v", lines, res.Warnings)
	}
}

func TestSearchChineseDemo(t *testing.T) {
	reg := kitOpen(t, kitCopy(t, kitDemo))
	// 活字印刷 holds the phrase in its summary only: front matter is not content.
	got := kitResultNames(t, kitCall(t, reg, "search_in_contents", `{"content_glob":"胶泥活字","entity_glob":"中文/**"}`))
	if d := cmp.Diff([]string{"中文/人物/沈括"}, got); d != "" {
		t.Errorf("search_in_contents 胶泥活字 (-want +got):\n%s", d)
	}
	got = kitResultNames(t, kitCall(t, reg, "search_anywhere", `{"pattern_glob":"胶泥活字","entity_glob":"中文/**"}`))
	if d := cmp.Diff([]string{"中文/人物/沈括", "中文/技术/活字印刷"}, got); d != "" {
		t.Errorf("search_anywhere 胶泥活字 (-want +got):\n%s", d)
	}
	got = kitResultNames(t, kitCall(t, reg, "search_in_contents", `{"content_glob":"/王选|沈括/","entity_glob":"中文/**"}`))
	for _, want := range []string{"中文/人物/沈括", "中文/人物/王选", "中文/中文笔记"} {
		if !slices.Contains(got, want) {
			t.Errorf("/王选|沈括/ misses %s: %v", want, got)
		}
	}
}

// kitCorpus copies a corpus vault from the shared folder, or skips.
func kitCorpus(t *testing.T, name string) string {
	t.Helper()
	return kitCopy(t, corpora.Dir(t, name))
}

func TestSearchCorpora(t *testing.T) {
	tests := []struct {
		corpus, tool, args string
		want               []string // notes that must be among the results
	}{
		{"obsidian-help-zh", "search_in_contents", `{"content_glob":"反向链接","limit":500}`, []string{"插件/反向链接", "快速入门/链接笔记"}},
		{"obsidian-help-zh", "search_in_contents", `{"content_glob":"/《艾萨克·牛顿》笔记/"}`, []string{"插件/反向链接"}},
		{"obsidian-help-zh", "search_in_contents", `{"content_glob":"/出链|反向链接/","entity_glob":"插件/*","limit":500}`, []string{"插件/出链", "插件/反向链接"}},
		{"obsidian-help-zh", "search_in_names", `{"entity_glob":"*链接*","limit":500}`, []string{"链接笔记与文件/内部链接", "插件/反向链接"}},
		{"obsidian-help-zh", "search_anywhere", `{"pattern_glob":"核心插件/反向链接","limit":500}`, []string{"插件/反向链接"}},
		{"obsidian-help-en", "search_in_contents", `{"content_glob":"/linked mentions/i","limit":500}`, []string{"Plugins/Backlinks"}},
		{"obsidian-help-en", "search_in_names", `{"entity_glob":"plugins/back*"}`, []string{"Plugins/Backlinks"}},
	}
	for _, tc := range tests {
		t.Run(tc.corpus+"/"+tc.tool+tc.args, func(t *testing.T) {
			reg := kitOpen(t, kitCorpus(t, tc.corpus))
			list, field := "results", "entity_name"
			if tc.tool == "search_in_names" {
				list = "entities"
			}
			got := kitNames(t, kitCall(t, reg, tc.tool, tc.args), list, field)
			for _, w := range tc.want {
				if !slices.Contains(got, w) {
					t.Errorf("%s missing from %s", w, strings.Join(got, ", "))
				}
			}
		})
	}
}

// TestSearchSeesWrites checks that the text cache follows writes made through tools:
// a note changed after a first search is searched in its new version.
func TestSearchSeesWrites(t *testing.T) {
	reg := kitOpen(t, kitCopy(t, kitDemo))
	if res := kitCall(t, reg, "search_in_contents", `{"content_glob":"qwertyuiop"}`); res.ErrorCode != tool.CodeNoMatch {
		t.Fatalf("found before the write:\n%s", res.YAML())
	}
	kitWant(t, kitCall(t, reg, "memory_notebook_replace", `{"old_text":"","new_text":"- qwertyuiop is the password of nothing."}`), tool.StatusSuccess)
	got := kitResultNames(t, kitCall(t, reg, "search_in_contents", `{"content_glob":"qwertyuiop"}`))
	if d := cmp.Diff([]string{"memory"}, got); d != "" {
		t.Errorf("after the write (-want +got):\n%s", d)
	}
	kitWant(t, kitCall(t, reg, "memory_notebook_replace", `{"old_text":"- qwertyuiop is the password of nothing.\n","new_text":""}`), tool.StatusSuccess)
	if res := kitCall(t, reg, "search_in_contents", `{"content_glob":"qwertyuiop"}`); res.ErrorCode != tool.CodeNoMatch {
		t.Errorf("found after the text was deleted:\n%s", res.YAML())
	}
}
