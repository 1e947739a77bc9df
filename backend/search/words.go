package search

import (
	"bytes"
	"regexp/syntax"
)

// The word filter: a literal that every match of a regular expression contains is
// split into words as the index splits text. A word enclosed by other characters of
// the literal is a whole term of every matching note; the word at the literal's
// start ends a term, the word at its end begins one, and a literal that is one
// partial word lies inside a term. CJK characters give their exact bigrams. The
// notes holding such terms for every word of a literal are the candidates, which on
// real text (and on vaults whose words all share a few syllables, where trigrams say
// little) leaves a handful of notes to read.

// wordNeed is one word a literal requires.
type wordNeed struct {
	w              string
	atStart, atEnd bool // the word touches the literal's start / end: it may continue
	cjk            bool // a CJK bigram or character
}

// minPartial is the shortest partial word used as a constraint; shorter ones match
// too many terms to be worth it.
const minPartial = 3

// maxTermsPerWord caps how many index terms one partial word may expand to.
const maxTermsPerWord = 4096

// literalWords splits a literal into the words it requires.
func literalWords(lit string) []wordNeed {
	lower := []byte(lit)
	s := wordScanner{text: lower}
	var out []wordNeed
	var cjkRun []string
	prevEnd := -1
	flushCJK := func() {
		for i := 1; i < len(cjkRun); i++ {
			out = append(out, wordNeed{w: cjkRun[i-1] + cjkRun[i], cjk: true})
		}
		if len(cjkRun) == 1 {
			out = append(out, wordNeed{w: cjkRun[0], cjk: true})
		}
		cjkRun = cjkRun[:0]
	}
	for {
		w, start, end, cjk, ok := s.next()
		if !ok {
			break
		}
		if cjk {
			if start != prevEnd {
				flushCJK()
			}
			cjkRun = append(cjkRun, string(w))
			prevEnd = end
			continue
		}
		flushCJK()
		prevEnd = -1
		if end-start > maxWordBytes-4 {
			out = append(out, wordNeed{}) // cut in the index: no exact form to look for
			continue
		}
		out = append(out, wordNeed{w: string(w), atStart: start == 0, atEnd: end == len(lower)})
	}
	flushCJK()
	return out
}

// LiteralAlternatives reduces a parsed regular expression to the literals its matches
// contain: every match holds all the strings of at least one returned alternative.
// It returns nil when nothing is known. Case-insensitive literals are split where a
// letter folds outside ASCII (k, s, é, …), so that each string can be looked for
// ignoring ASCII case only; empty strings say nothing.
func LiteralAlternatives(re *syntax.Regexp) [][]string { return literalAlternatives(re) }

// literalAlternatives reduces re to alternatives of literals (nil: no constraint).
func literalAlternatives(re *syntax.Regexp) [][]string {
	ls := literalsOf(re.Simplify())
	if ls.any || len(ls.alts) == 0 {
		return nil
	}
	return ls.alts
}

// wordCandidates marks the documents that may match by the words of the literals;
// ok is false when the literals give no usable word. The caller holds mu.
func (x *postings) wordCandidates(alts [][]string) (cand []bool, ok bool) {
	n := x.n()
	cand = make([]bool, n)
	for _, alt := range alts {
		var needs []wordNeed
		var seqs [][]termSet
		for _, lit := range alt {
			ws := literalWords(lit)
			needs = append(needs, ws...)
			if sets := x.wordSets(ws); sets != nil {
				seqs = append(seqs, sets)
			}
		}
		var acc []bool // documents holding every word so far; nil: no constraint yet
		for _, nd := range needs {
			if nd.w == "" {
				continue
			}
			docs := x.docsWith(nd)
			if docs == nil {
				continue
			}
			if acc == nil {
				acc = docs
				continue
			}
			for i := range acc {
				acc[i] = acc[i] && docs[i]
			}
		}
		if acc == nil {
			return nil, false // this alternative may match anywhere
		}
		// Words of one literal follow each other in every matching note.
		if len(seqs) > 0 {
			x.mapSeqs()
		}
		for _, sets := range seqs {
			for i, ok := range acc {
				acc[i] = ok && seqHasSets(x.seq(uint32(i)), sets)
			}
		}
		for i, v := range acc {
			cand[i] = cand[i] || v
		}
	}
	return cand, true
}

// mapSeqs maps every page of the persisted word sequences in one system call,
// rather than one page fault per few pages as a scan of thousands of them would take.
func (x *postings) mapSeqs() {
	x.seqMu.Lock()
	defer x.seqMu.Unlock()
	if !x.seqMapped {
		prefault(x.seqPages)
		x.seqMapped = true
	}
}

// docsWith marks the documents holding a term that satisfies nd, or nil when nd is
// too vague to be a constraint.
func (x *postings) docsWith(nd wordNeed) []bool {
	var tids []uint32
	switch {
	case !nd.atStart && !nd.atEnd:
		if id, ok := x.termID(nd.w); ok {
			tids = []uint32{id}
		}
	case len(nd.w) < minPartial:
		return nil
	case nd.atStart && nd.atEnd: // inside a term
		w := []byte(nd.w)
		tids, _ = x.termsWhere(func(t []byte) bool { return bytes.Contains(t, w) }, maxTermsPerWord)
	case nd.atStart: // ends a term
		w := []byte(nd.w)
		tids, _ = x.termsWhere(func(t []byte) bool { return bytes.HasSuffix(t, w) }, maxTermsPerWord)
	default: // begins a term
		tids = x.withPrefix(nd.w, maxTermsPerWord+1)
	}
	if len(tids) > maxTermsPerWord {
		return nil
	}
	docs := make([]bool, x.n())
	for _, id := range tids {
		for _, p := range x.list(int(id)) {
			docs[p.doc] = true
		}
	}
	return docs
}

// termSet is a set of term ids, as a bitmap over the index's terms: testing each
// word of a long sequence against it costs a shift and a mask, not a map lookup.
type termSet struct {
	bits []uint64
	n    int    // members
	one  uint32 // the member, when n is 1
}

func newTermSet(terms int) termSet { return termSet{bits: make([]uint64, (terms+63)/64)} }

func (s *termSet) add(id uint32) {
	if int(id>>6) >= len(s.bits) {
		return // no such term
	}
	if w, b := &s.bits[id>>6], uint64(1)<<(id&63); *w&b == 0 {
		*w |= b
		s.n++
		s.one = id
	}
}

func (s *termSet) has(id uint32) bool {
	return int(id>>6) < len(s.bits) && s.bits[id>>6]&(1<<(id&63)) != 0
}

// wordSets turns the words of one literal into the term ids each position of the
// word sequence may hold, or nil when the literal is not two or more Latin words
// that all have usable terms.
func (x *postings) wordSets(ws []wordNeed) []termSet {
	if len(ws) < 2 {
		return nil
	}
	sets := make([]termSet, len(ws))
	for i, nd := range ws {
		if nd.w == "" || nd.cjk {
			return nil
		}
		set := newTermSet(x.numTerms())
		switch {
		case !nd.atStart && !nd.atEnd:
			if id, ok := x.termID(nd.w); ok {
				set.add(id)
			}
		case nd.atStart && nd.atEnd:
			return nil
		case nd.atStart:
			w := []byte(nd.w)
			ids, over := x.termsWhere(func(t []byte) bool { return bytes.HasSuffix(t, w) }, maxTermsPerWord)
			if over {
				return nil
			}
			for _, id := range ids {
				set.add(id)
			}
		default:
			for _, id := range x.withPrefix(nd.w, maxTermsPerWord+1) {
				set.add(id)
			}
		}
		if set.n > maxTermsPerWord {
			return nil
		}
		sets[i] = set
	}
	return sets
}

// seqHasSets reports whether a word sequence holds consecutive words drawn from
// sets, in order. When every set is one term, the search is a byte search.
func seqHasSets(seq []byte, sets []termSet) bool {
	single := true
	for _, s := range sets {
		if s.n == 0 {
			return false
		}
		single = single && s.n == 1
	}
	if single {
		var want [8]uint32 // on the stack: this runs for every candidate note
		sp := phraseSpec{want: want[:0]}
		for _, s := range sets {
			sp.want = append(sp.want, s.one)
		}
		return seqHas(seq, sp)
	}
	for a := range sets {
		if sets[a].n == 1 {
			return seqHasAnchored(seq, sets, a)
		}
	}
	for i := 0; i < len(seq); {
		id, next, ok := seqNext(seq, i)
		if !ok {
			return false
		}
		if sets[0].has(id) && seqRunAt(seq, next, sets[1:]) {
			return true
		}
		i = next
	}
	return false
}

// seqRunAt reports whether the words from offset i on are drawn from sets, in order.
func seqRunAt(seq []byte, i int, sets []termSet) bool {
	for _, s := range sets {
		id, next, ok := seqNext(seq, i)
		if !ok || !s.has(id) {
			return false
		}
		i = next
	}
	return true
}

// seqHasAnchored is seqHasSets when sets[a] is one term: the sequence is searched for
// that term's bytes (a vectorised search, where testing every word against a set
// would touch each in turn) and only its occurrences are checked against the others.
func seqHasAnchored(seq []byte, sets []termSet, a int) bool {
	var buf [8]byte
	pat := appendSeq(buf[:0], sets[a].one)
	for from := 0; ; from++ {
		at := seqFind(seq, pat, from)
		if at < 0 {
			return false
		}
		from = at
		start := at // the word where the run would begin: a words before
		for range a {
			if start == 0 {
				start = -1
				break
			}
			start = seqPrev(seq, start)
		}
		if start < 0 {
			continue
		}
		ok := seqRunAt(seq, start, sets[:a])
		if ok {
			ok = seqRunAt(seq, at+len(pat), sets[a+1:])
		}
		if ok {
			return true
		}
	}
}
