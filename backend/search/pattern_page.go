package search

import "sync"

// A content search answers one page: the notes with matches from the offset-th on,
// up to the page's size in notes or in matching lines, whichever is reached first.
// Notes are searched in parallel but counted in path order, so the search stops as
// soon as the page is full and one more note with matches is known (there is a next
// page); the notes after it are never read, and the total is then a lower bound. A
// summary (ContentQuery.Summary) keeps no page: it counts every note with matches,
// exactly.

// pageWant is the window of one page of a content search.
type pageWant struct {
	offset, limit int  // in notes with matches
	lines         int  // the most matching lines the page shows
	summary       bool // count every note, keep none
}

// pageCollector counts the notes of one search in path order as their results
// arrive in any order, and says when the page is complete.
//
// Concurrency: done is called from the scanning goroutines; it serialises itself.
type pageCollector struct {
	want pageWant
	stop func() // cancels the scan once the page is complete

	mu       sync.Mutex
	results  []*NoteMatches // by item, nil: no match
	finished []bool
	frontier int // items before it are counted
	matched  int // notes with matches before the frontier
	page     []NoteMatches
	lines    int  // matching lines of the page
	full     bool // the page holds all it will
	more     bool // a note with matches follows the page
}

func newPageCollector(n int, want pageWant, stop func()) *pageCollector {
	return &pageCollector{want: want, stop: stop, results: make([]*NoteMatches, n), finished: make([]bool, n)}
}

// grow adds n items after those the collector counts (a search that lists its notes
// as it goes: orderedPage).
func (pc *pageCollector) grow(n int) {
	pc.mu.Lock()
	defer pc.mu.Unlock()
	pc.results = append(pc.results, make([]*NoteMatches, n)...)
	pc.finished = append(pc.finished, make([]bool, n)...)
}

// complete reports whether the page is known, with a note with matches after it.
func (pc *pageCollector) complete() bool {
	pc.mu.Lock()
	defer pc.mu.Unlock()
	return pc.more
}

// done records the result of item i (nil: no match) and advances the frontier.
func (pc *pageCollector) done(i int, r *NoteMatches) {
	pc.mu.Lock()
	defer pc.mu.Unlock()
	if pc.more {
		return // complete: later results are not needed
	}
	pc.results[i], pc.finished[i] = r, true
	for pc.frontier < len(pc.finished) && pc.finished[pc.frontier] {
		r := pc.results[pc.frontier]
		pc.results[pc.frontier] = nil
		pc.frontier++
		if r == nil {
			continue
		}
		pc.matched++
		switch {
		case pc.want.summary:
			// counted only
		case pc.full:
			pc.more = true
			pc.stop()
			return
		case pc.matched > pc.want.offset:
			pc.page = append(pc.page, *r)
			pc.lines += len(r.Matches)
			pc.full = len(pc.page) >= pc.want.limit || !pc.want.summary && pc.lines >= pc.want.lines
		}
	}
}

// info returns the page's notes, the count of notes with matches before the
// frontier (every note's, when the whole list was searched), and whether a note with
// matches follows the page (the count is then a lower bound).
func (pc *pageCollector) info() (page []NoteMatches, total int, more bool) {
	pc.mu.Lock()
	defer pc.mu.Unlock()
	return pc.page, pc.matched, pc.more
}
