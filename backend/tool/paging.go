package tool

import (
	"fmt"
	"unicode/utf8"
)

// The page sizes of list tools.
const (
	// DefaultLimit is the page size when a call gives no limit.
	DefaultLimit = 50
	// MaxLimit is the largest page a call may ask for.
	MaxLimit = 500
)

// Paging is embedded in the input struct of every tool that returns a list, giving it
// the standard offset, limit and summary_only arguments (with their descriptions and
// bounds in the schema):
//
//	type listEntitiesIn struct {
//		EntityGlob string `json:"entity_glob" jsonschema:"..."`
//		tool.Paging
//	}
type Paging struct {
	Offset      int  `json:"offset,omitempty"`
	Limit       int  `json:"limit,omitempty"`
	SummaryOnly bool `json:"summary_only,omitempty"`
}

// Window returns the offset and limit to use: negative offsets become 0, a missing
// limit becomes DefaultLimit and a larger one than MaxLimit becomes MaxLimit.
func (p Paging) Window() (offset, limit int) {
	offset, limit = max(p.Offset, 0), p.Limit
	if limit <= 0 {
		limit = DefaultLimit
	}
	return offset, min(limit, MaxLimit)
}

// PageInfo describes one page of a list; tools put it in their data under "page".
type PageInfo struct {
	// Total is the number of items in the whole list.
	Total int `json:"total"`
	// Offset is the index of the first item of this page.
	Offset int `json:"offset"`
	// Limit is the page size that was applied.
	Limit int `json:"limit"`
	// NextOffset is the offset of the next page, or 0 when this is the last one.
	NextOffset int `json:"next_offset,omitempty"`
	// AtLeast says the list was not counted to its end (a search that stopped once
	// its page was full): it holds at least Total items.
	AtLeast bool `json:"total_is_at_least,omitempty"`
	// SummaryOnly says the call asked for counts only, so the page holds no items.
	SummaryOnly bool `json:"summary_only,omitempty"`
}

// HasMore reports whether items follow this page.
func (pi PageInfo) HasMore() bool { return pi.NextOffset > 0 }

// Hint says in a sentence what the page holds and how to get more, for the result
// message: "showing 51-100 of 240 entities; call again with offset=100 for more".
func (pi PageInfo) Hint(noun string) string {
	if pi.Total == 0 {
		return "no " + noun
	}
	total := fmt.Sprint(pi.Total)
	if pi.AtLeast {
		total = "at least " + total // the list was not counted to its end
	}
	if pi.SummaryOnly {
		return fmt.Sprintf("%s %s (summary only: call without summary_only to list them)", total, noun)
	}
	first, last := pi.Offset+1, min(pi.Offset+pi.Limit, pi.Total)
	if pi.HasMore() {
		last = min(last, pi.NextOffset) // a page cut short (by a size budget)
	}
	if first > pi.Total {
		return fmt.Sprintf("offset %d is past the end: there are %s %s", pi.Offset, total, noun)
	}
	if !pi.HasMore() && pi.Offset == 0 {
		return fmt.Sprintf("%s %s", total, noun)
	}
	s := fmt.Sprintf("showing %d-%d of %s %s", first, last, total, noun)
	if pi.HasMore() {
		s += fmt.Sprintf("; call again with offset=%d for more", pi.NextOffset)
	}
	return s
}

// Page cuts one page out of items. A negative offset is 0, a limit of 0 or less is
// DefaultLimit and one above MaxLimit is MaxLimit; an offset past the end gives an
// empty page. The page shares items' backing array.
func Page[T any](items []T, offset, limit int) ([]T, PageInfo) {
	offset, limit = Paging{Offset: offset, Limit: limit}.Window()
	info := PageInfo{Total: len(items), Offset: offset, Limit: limit}
	if offset >= len(items) {
		return items[:0:0], info
	}
	end := min(offset+limit, len(items))
	if end < len(items) {
		info.NextOffset = end
	}
	return items[offset:end:end], info
}

// Paginate is Page driven by a tool's Paging arguments. With SummaryOnly it returns no
// items, only the page information, and the tool adds its own summary (counts by type,
// say) to its data.
func Paginate[T any](items []T, p Paging) ([]T, PageInfo) {
	page, info := Page(items, p.Offset, p.Limit)
	if p.SummaryOnly {
		info.SummaryOnly, info.NextOffset = true, 0
		return page[:0:0], info
	}
	return page, info
}

// Clip shortens s to at most maxBytes bytes without splitting a UTF-8 sequence, and
// reports whether it cut anything. Tools use it to keep one long field from flooding
// a context window, saying so in a warning.
func Clip(s string, maxBytes int) (string, bool) {
	if len(s) <= maxBytes {
		return s, false
	}
	cut := max(maxBytes, 0)
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut], true
}
