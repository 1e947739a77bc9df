package tool

import (
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestPage(t *testing.T) {
	items := make([]int, 120)
	for i := range items {
		items[i] = i
	}
	tests := []struct {
		name          string
		offset, limit int
		first, n      int
		want          PageInfo
	}{
		{"defaults", 0, 0, 0, 50, PageInfo{Total: 120, Offset: 0, Limit: 50, NextOffset: 50}},
		{"middle", 50, 50, 50, 50, PageInfo{Total: 120, Offset: 50, Limit: 50, NextOffset: 100}},
		{"last", 100, 50, 100, 20, PageInfo{Total: 120, Offset: 100, Limit: 50}},
		{"exact end", 70, 50, 70, 50, PageInfo{Total: 120, Offset: 70, Limit: 50}},
		{"past the end", 500, 10, 0, 0, PageInfo{Total: 120, Offset: 500, Limit: 10}},
		{"negative offset", -5, 10, 0, 10, PageInfo{Total: 120, Offset: 0, Limit: 10, NextOffset: 10}},
		{"limit above max", 0, 10000, 0, 120, PageInfo{Total: 120, Offset: 0, Limit: MaxLimit}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			page, info := Page(items, tt.offset, tt.limit)
			if diff := cmp.Diff(tt.want, info); diff != "" {
				t.Errorf("info (-want +got):\n%s", diff)
			}
			if len(page) != tt.n || (tt.n > 0 && page[0] != tt.first) {
				t.Errorf("page = %d items from %v, want %d from %d", len(page), page[:min(1, len(page))], tt.n, tt.first)
			}
		})
	}
	page, info := Page([]string(nil), 0, 0)
	if len(page) != 0 || info != (PageInfo{Limit: DefaultLimit}) {
		t.Errorf("nil list: %v %+v", page, info)
	}
}

func TestPageDoesNotLeakCapacity(t *testing.T) {
	items := []int{1, 2, 3, 4}
	page, _ := Page(items, 0, 2)
	_ = append(page, 99)
	if items[2] != 3 {
		t.Errorf("appending to a page overwrote the list: %v", items)
	}
}

func TestPaginateSummaryOnly(t *testing.T) {
	page, info := Paginate([]string{"a", "b", "c"}, Paging{SummaryOnly: true})
	if len(page) != 0 || info.Total != 3 || !info.SummaryOnly || info.NextOffset != 0 {
		t.Errorf("summary: %v %+v", page, info)
	}
}

func TestHint(t *testing.T) {
	tests := []struct {
		info PageInfo
		want string
	}{
		{PageInfo{}, "no entities"},
		{PageInfo{Total: 3, Limit: 50}, "3 entities"},
		{PageInfo{Total: 174, Limit: 50, SummaryOnly: true}, "174 entities (summary only: call without summary_only to list them)"},
		{PageInfo{Total: 240, Offset: 50, Limit: 50, NextOffset: 100}, "showing 51-100 of 240 entities; call again with offset=100 for more"},
		{PageInfo{Total: 240, Offset: 200, Limit: 50}, "showing 201-240 of 240 entities"},
		{PageInfo{Total: 240, Offset: 300, Limit: 50}, "offset 300 is past the end: there are 240 entities"},
		// A list not counted to its end says so, however the page is asked for.
		{PageInfo{Total: 21, Limit: 20, NextOffset: 20, AtLeast: true}, "showing 1-20 of at least 21 entities; call again with offset=20 for more"},
		{PageInfo{Total: 20, Limit: 50, AtLeast: true, SummaryOnly: true}, "at least 20 entities (summary only: call without summary_only to list them)"},
		{PageInfo{Total: 7, Limit: 50, AtLeast: true}, "at least 7 entities"},
	}
	for _, tt := range tests {
		if got := tt.info.Hint("entities"); got != tt.want {
			t.Errorf("Hint(%+v) = %q, want %q", tt.info, got, tt.want)
		}
	}
}

func TestListToolPages(t *testing.T) {
	r := testRegistry(t)
	res, err := r.Call(t.Context(), nil, "list", json.RawMessage(`{"entity_glob":"*","offset":100,"limit":30}`))
	if err != nil || res.Status != StatusSuccess {
		t.Fatalf("list = %+v, %v", res, err)
	}
	data := res.Data.(*listOut)
	if got := len(data.Entities); got != 20 {
		t.Errorf("got %d entities, want 20", got)
	}
	if want := "showing 101-120 of 120 entities"; res.Message != want {
		t.Errorf("message = %q, want %q", res.Message, want)
	}
}

func TestClip(t *testing.T) {
	tests := []struct {
		s    string
		n    int
		want string
		cut  bool
	}{
		{"hello", 10, "hello", false},
		{"hello", 3, "hel", true},
		{"héllo", 2, "h", true},
		{"✓✓", 4, "✓", true},
		{"abc", -1, "", true},
	}
	for _, tt := range tests {
		got, cut := Clip(tt.s, tt.n)
		if got != tt.want || cut != tt.cut {
			t.Errorf("Clip(%q, %d) = %q, %v; want %q, %v", tt.s, tt.n, got, cut, tt.want, tt.cut)
		}
	}
}

func TestNearest(t *testing.T) {
	names := []string{"read_entities", "read_manual", "create_entity", "delete_entities", "list_entities"}
	tests := []struct {
		target string
		n      int
		want   []string
	}{
		{"red_entities", 2, []string{"read_entities", "list_entities"}},
		{"READ_MANUAL", 1, []string{"read_manual"}},
		{"entity", 1, []string{"create_entity"}},
		{"x", 0, nil},
	}
	for _, tt := range tests {
		if diff := cmp.Diff(tt.want, Nearest(tt.target, names, tt.n)); diff != "" {
			t.Errorf("Nearest(%q) (-want +got):\n%s", tt.target, diff)
		}
	}
}
