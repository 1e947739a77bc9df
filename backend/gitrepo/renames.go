package gitrepo

import (
	"cmp"
	"crypto/sha256"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"sync"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/object"

	"github.com/memotree/memotree/backend/vpath"
)

// Rename detection. Status pairs a deleted path with a new one as one renamed change
// in four rounds, each among the paths the rounds before left unpaired:
//
//  1. the journey: a move MemoTree made (rename_entity, move_entity, a rename in the
//     window) is recorded with the path it came from (vault.Entry.From), followed
//     through later moves, so it is paired however much the note changed since;
//  2. exact renames: the same content, a path with the same file name preferred;
//  3. the same file name (and no other deleted or new path with it) and a similarity
//     of at least 75%;
//  4. any pair at least 50% similar, most similar first, when there are no more
//     than renameLimit² candidate pairs.
//
// Rounds 2 to 4 are git's (diffcore-rename, as `git diff -M` and `git status` on
// staged changes run it), with git's measure of similarity: both files are cut into
// spans ending at a line break or after 64 bytes (a carriage return before a line
// break ignored in text), each span is hashed, and the score is the bytes of the old
// file's spans found again in the new one, over the larger size. Only regular files
// are compared; a pair whose sizes differ by more than the threshold allows is not
// compared at all.

// The scores of git's rename detection, in its unit (maxScore is 100%).
const (
	maxScore      = 60000
	renameScore   = maxScore / 2                           // git's default -M50%
	basenameScore = renameScore + (maxScore-renameScore)/2 // 75%, git's basename round
	renameLimit   = 1000                                   // git's diff.renameLimit
	spanHashBase  = 107927                                 // git's HASHBASE, a prime
	maxSpan       = 64                                     // the longest span hashed
	perDest       = 4                                      // candidates kept per new path
	maxMoveHops   = 8                                      // moves followed in the journey
)

// span is the total length of the spans of one hash.
type span struct {
	hash uint32
	n    uint32
}

// renameSide is a deleted path (in HEAD) or a new one (in the working tree).
type renameSide struct {
	at      int // index in the changes
	path    vpath.Path
	hash    plumbing.Hash
	size    int64
	regular bool
	data    []byte
	loaded  bool
	load    func() ([]byte, error)
	spans   []span
	paired  bool
	// sizeOf, when set, reads size on first use (a blob's header).
	sizeOf func() (int64, error)
}

// length returns the side's size in bytes; -1 when it cannot be read.
func (s *renameSide) length() int64 {
	if s.sizeOf != nil {
		n, err := s.sizeOf()
		if err != nil {
			n = -1
		}
		s.size, s.sizeOf = n, nil
	}
	return s.size
}

// content returns the side's bytes, read once.
func (s *renameSide) content() ([]byte, error) {
	if !s.loaded {
		d, err := s.load()
		if err != nil {
			return nil, err
		}
		s.data, s.loaded = d, true
	}
	return s.data, nil
}

// spanCounts returns the side's span hashes, computed once; a side that cannot be
// read has none (it is then similar to nothing, and status goes on).
func (s *renameSide) spanCounts() []span {
	if s.spans == nil {
		d, err := s.content()
		if err != nil {
			d = nil
		}
		s.spans = spanHashes(d)
	}
	return s.spans
}

// spanHashes cuts data into spans as git's diffcore-delta does and sums their lengths
// per hash, sorted by hash. A last span without a line break shorter than maxSpan is
// not counted (nor is it by git).
func spanHashes(data []byte) []span {
	text := !isBinary(data)
	counts := map[uint32]uint32{}
	var a1, a2 uint32
	n := uint32(0)
	for i := 0; i < len(data); i++ {
		c := uint32(data[i])
		if text && c == '\r' && i+1 < len(data) && data[i+1] == '\n' {
			continue
		}
		old := a1
		a1 = (a1 << 7) ^ (a2 >> 25)
		a2 = (a2 << 7) ^ (old >> 25)
		a1 += c
		n++
		if n < maxSpan && c != '\n' {
			continue
		}
		counts[(a1+a2*0x61)%spanHashBase] += n
		n, a1, a2 = 0, 0, 0
	}
	out := make([]span, 0, len(counts))
	for h, n := range counts {
		out = append(out, span{hash: h, n: n})
	}
	slices.SortFunc(out, func(a, b span) int { return cmp.Compare(a.hash, b.hash) })
	if out == nil {
		out = []span{}
	}
	return out
}

// copiedBytes counts the bytes of src's spans that dst holds too.
func copiedBytes(src, dst []span) int64 {
	var copied int64
	j := 0
	for _, s := range src {
		for j < len(dst) && dst[j].hash < s.hash {
			j++
		}
		if j < len(dst) && dst[j].hash == s.hash {
			copied += int64(min(s.n, dst[j].n))
			j++
		}
	}
	return copied
}

// similarity scores how much of src dst holds, from 0 to maxScore, as git's
// estimate_similarity does; a pair whose sizes cannot reach minimum is 0.
func similarity(src, dst *renameSide, minimum int64) int64 {
	if !src.regular || !dst.regular || src.length() < 0 || dst.length() <= 0 {
		return 0
	}
	maxSize, baseSize := max(src.size, dst.size), min(src.size, dst.size)
	if maxSize*(maxScore-minimum) < (maxSize-baseSize)*maxScore {
		return 0
	}
	return copiedBytes(src.spanCounts(), dst.spanCounts()) * maxScore / maxSize
}

// pairRenames folds deleted paths and new paths (untracked or staged as added) into
// renamed changes, in the rounds described above.
func (r *Repo) pairRenames(changes []Change) ([]Change, error) {
	var gone, born []int
	for i, c := range changes {
		switch c.State {
		case Deleted:
			gone = append(gone, i)
		case Untracked, Added:
			born = append(born, i)
		}
	}
	if len(gone) == 0 || len(born) == 0 {
		return changes, nil
	}
	_, head, err := r.headTree()
	if err != nil || head.tree == nil {
		return changes, err
	}
	stored, err := r.storedForm()
	if err != nil {
		return changes, err
	}
	srcs := r.renameSources(head.tree, changes, gone)
	dsts := r.renameDests(changes, born, stored)
	if len(srcs) == 0 || len(dsts) == 0 {
		return changes, nil
	}
	rd := &renamer{srcs: srcs, dsts: dsts, to: map[int]int{}}
	rd.fromJourney(r.journal())
	rd.exact()
	r.similar.run(rd)
	drop := map[int]bool{}
	for d, s := range rd.to {
		c := &changes[rd.dsts[d].at]
		c.State, c.From = Renamed, rd.srcs[s].path
		drop[rd.srcs[s].at] = true
	}
	out := changes[:0]
	for i, c := range changes {
		if !drop[i] {
			out = append(out, c)
		}
	}
	return out, nil
}

// renameSources lists the deleted paths that HEAD holds; their size and content are
// read when first compared.
func (r *Repo) renameSources(tree *object.Tree, changes []Change, gone []int) []*renameSide {
	var out []*renameSide
	for _, i := range gone {
		e, err := tree.FindEntry(string(changes[i].Path))
		if err != nil || e.Mode == filemode.Dir || e.Mode == filemode.Submodule {
			continue
		}
		h := e.Hash
		out = append(out, &renameSide{at: i, path: changes[i].Path, hash: h,
			regular: e.Mode == filemode.Regular || e.Mode == filemode.Executable,
			sizeOf:  func() (int64, error) { return r.repo.Storer.EncodedObjectSize(h) },
			load:    func() ([]byte, error) { return r.blobBytes(h) }})
	}
	return out
}

// renameDests reads the new paths of the working tree, as stored gives their content
// to git.
func (r *Repo) renameDests(changes []Change, born []int, stored func(vpath.Path, []byte) []byte) []*renameSide {
	var out []*renameSide
	for _, i := range born {
		p := changes[i].Path
		fi, err := os.Lstat(filepath.Join(r.dir, filepath.FromSlash(string(p))))
		if err != nil || fi.IsDir() {
			continue
		}
		var data []byte
		if fi.Mode()&os.ModeSymlink != 0 {
			t, err := os.Readlink(filepath.Join(r.dir, filepath.FromSlash(string(p))))
			if err != nil {
				continue
			}
			data = []byte(filepath.ToSlash(t))
		} else {
			d, ok, err := r.readWork(p)
			if err != nil || !ok {
				continue
			}
			data = stored(p, d)
		}
		out = append(out, &renameSide{at: i, path: p, hash: plumbing.ComputeHash(plumbing.BlobObject, data),
			size: int64(len(data)), regular: fi.Mode().IsRegular(), data: data, loaded: true})
	}
	return out
}

// blobOrNil reads a blob of the repository, nil when it cannot.
func (r *Repo) blobOrNil(h plumbing.Hash) []byte {
	b, err := r.blobBytes(h)
	if err != nil {
		return nil
	}
	return b
}

// blobBytes reads a blob of the repository.
func (r *Repo) blobBytes(h plumbing.Hash) ([]byte, error) {
	b, err := object.GetBlob(r.repo.Storer, h)
	if err != nil {
		return nil, fmt.Errorf("read blob %s: %w", h, err)
	}
	rd, err := b.Reader()
	if err != nil {
		return nil, fmt.Errorf("read blob %s: %w", h, err)
	}
	defer rd.Close()
	d, err := io.ReadAll(rd)
	if err != nil {
		return nil, fmt.Errorf("read blob %s: %w", h, err)
	}
	return d, nil
}

// journal returns the journey to read moves from, or nil.
func (r *Repo) journal() Journal {
	if j, ok := r.w.(Journal); ok {
		return j
	}
	return nil
}

// renamer pairs sources (deleted) and destinations (new): to maps a destination's
// index to its source's.
type renamer struct {
	srcs, dsts []*renameSide
	to         map[int]int
}

// pair records that dsts[d] is srcs[s] renamed.
func (rd *renamer) pair(d, s int) {
	rd.to[d] = s
	rd.dsts[d].paired, rd.srcs[s].paired = true, true
}

// fromJourney pairs the moves the journey recorded: for each deleted path, the newest
// entry naming it that moved it elsewhere, followed through later moves to a new path.
func (rd *renamer) fromJourney(j Journal) {
	if j == nil {
		return
	}
	dstAt := map[vpath.Path]int{}
	for i, d := range rd.dsts {
		dstAt[d.path] = i
	}
	srcAt := map[string]int{} // the name followed → the source it started from
	for i, s := range rd.srcs {
		srcAt[string(s.path)] = i
	}
	for hop := 0; hop < maxMoveHops && len(srcAt) > 0; hop++ {
		names := make([]string, 0, len(srcAt))
		for n := range srcAt {
			names = append(names, n)
		}
		entries, err := j.JourneyLatest(JourneyTailBytes, names)
		if err != nil {
			return
		}
		next := map[string]int{}
		for _, e := range entries {
			s, ok := srcAt[e.From]
			if !ok {
				continue
			}
			to := movedTo(e.Entities, e.From)
			if to == "" {
				continue
			}
			if d, found := dstAt[vpath.Path(to)]; found {
				if !rd.dsts[d].paired && !rd.srcs[s].paired {
					rd.pair(d, s)
				}
				continue
			}
			next[to] = s // moved on since: follow it
		}
		srcAt = next
	}
}

// movedTo returns the entity of a move's entry that is not its From.
func movedTo(entities []string, from string) string {
	for _, e := range entities {
		if e != from {
			return e
		}
	}
	return ""
}

// exact pairs new paths whose content a deleted path had, preferring one with the
// same file name (git's find_exact_renames).
func (rd *renamer) exact() {
	byHash := map[plumbing.Hash][]int{}
	for i, s := range rd.srcs {
		if !s.paired {
			byHash[s.hash] = append(byHash[s.hash], i)
		}
	}
	for d, dst := range rd.dsts {
		if dst.paired {
			continue
		}
		best, bestScore := -1, -1
		for _, s := range byHash[dst.hash] {
			src := rd.srcs[s]
			if src.paired || src.regular != dst.regular {
				continue
			}
			score := 0
			if src.path.Base() == dst.path.Base() {
				score = 1
			}
			if score > bestScore {
				best, bestScore = s, score
			}
		}
		if best >= 0 {
			rd.pair(d, best)
		}
	}
}

// sameNames pairs a deleted and a new path that alone among the unpaired ones have
// their file name, when at least basenameScore similar (git's find_basename_matches).
func (rd *renamer) sameNames() {
	unique := func(sides []*renameSide) map[string]int {
		out := map[string]int{}
		for i, s := range sides {
			if s.paired {
				continue
			}
			if _, dup := out[s.path.Base()]; dup {
				out[s.path.Base()] = -1
			} else {
				out[s.path.Base()] = i
			}
		}
		return out
	}
	srcNames, dstNames := unique(rd.srcs), unique(rd.dsts)
	for s, src := range rd.srcs {
		if src.paired || srcNames[src.path.Base()] != s {
			continue
		}
		d, ok := dstNames[src.path.Base()]
		if !ok || d < 0 {
			continue
		}
		if similarity(src, rd.dsts[d], basenameScore) >= basenameScore {
			rd.pair(d, s)
		}
	}
}

// renameCache remembers the pairs the inexact rounds (same name, similar) found for
// the last set of unpaired paths and contents: a status asked again and again while
// nothing changed (the window refreshes it after every write) compares nothing again.
type renameCache struct {
	mu    sync.Mutex
	key   [sha256.Size]byte
	pairs [][2]vpath.Path // source, destination
}

// run pairs the unpaired sides of rd by the inexact rounds, or by the remembered
// answer when they are the same as last time.
func (c *renameCache) run(rd *renamer) {
	h := sha256.New()
	for i, sides := range [][]*renameSide{rd.srcs, rd.dsts} {
		for _, s := range sides {
			if !s.paired {
				fmt.Fprintf(h, "%d\x00%s\x00%s\x00%t\n", i, s.path, s.hash, s.regular)
			}
		}
	}
	var key [sha256.Size]byte
	h.Sum(key[:0])
	c.mu.Lock()
	defer c.mu.Unlock()
	if key == c.key && c.pairs != nil {
		rd.pairByPath(c.pairs)
		return
	}
	before := map[int]bool{}
	for d := range rd.to {
		before[d] = true
	}
	rd.sameNames()
	rd.similar()
	pairs := [][2]vpath.Path{}
	for d, s := range rd.to {
		if !before[d] {
			pairs = append(pairs, [2]vpath.Path{rd.srcs[s].path, rd.dsts[d].path})
		}
	}
	c.key, c.pairs = key, pairs
}

// pairByPath pairs the sides named by pairs (source, destination).
func (rd *renamer) pairByPath(pairs [][2]vpath.Path) {
	srcAt, dstAt := map[vpath.Path]int{}, map[vpath.Path]int{}
	for i, s := range rd.srcs {
		srcAt[s.path] = i
	}
	for i, d := range rd.dsts {
		dstAt[d.path] = i
	}
	for _, p := range pairs {
		s, okS := srcAt[p[0]]
		d, okD := dstAt[p[1]]
		if okS && okD && !rd.srcs[s].paired && !rd.dsts[d].paired {
			rd.pair(d, s)
		}
	}
}

// candidate is one scored pair of the similarity matrix.
type candidate struct {
	src, dst  int
	score     int64
	sameNamed bool
}

// better orders candidates: the higher score first, then the one with the same file
// name.
func better(a, b candidate) int {
	if a.score != b.score {
		return cmp.Compare(b.score, a.score)
	}
	switch {
	case a.sameNamed == b.sameNamed:
		return 0
	case a.sameNamed:
		return -1
	}
	return 1
}

// similar scores every unpaired deleted path against every unpaired new one, keeps
// the best perDest candidates of each new path, and pairs them most similar first, a
// deleted path once (git's inexact rename detection). Too many pairs are not scored,
// as git does not beyond its rename limit.
func (rd *renamer) similar() {
	var srcs, dsts []int
	for i, s := range rd.srcs {
		if !s.paired {
			srcs = append(srcs, i)
		}
	}
	for i, d := range rd.dsts {
		if !d.paired {
			dsts = append(dsts, i)
		}
	}
	if len(srcs) == 0 || len(dsts) == 0 ||
		(len(srcs) > renameLimit && len(dsts) > renameLimit) || len(srcs)*len(dsts) > renameLimit*renameLimit {
		return
	}
	var all []candidate
	for _, d := range dsts {
		var best []candidate
		for _, s := range srcs {
			score := similarity(rd.srcs[s], rd.dsts[d], renameScore)
			if score < renameScore {
				continue
			}
			best = append(best, candidate{src: s, dst: d, score: score, sameNamed: rd.srcs[s].path.Base() == rd.dsts[d].path.Base()})
		}
		slices.SortStableFunc(best, better)
		all = append(all, best[:min(len(best), perDest)]...)
	}
	slices.SortStableFunc(all, better)
	for _, c := range all {
		if !rd.dsts[c.dst].paired && !rd.srcs[c.src].paired {
			rd.pair(c.dst, c.src)
		}
	}
}
