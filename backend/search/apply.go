package search

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"sync"
	"sync/atomic"

	"github.com/memotree/memotree/backend/internal/osmem"
	"github.com/memotree/memotree/backend/vault"
	"github.com/memotree/memotree/backend/vpath"
)

// entry is one file read for the index: analysed, or only re-stamped when its
// content did not change, or gone.
type entry struct {
	a      analyzed
	grams  bloom
	stamp  bool // same content: update size and time only
	gone   bool
	failed bool
}

// mapDictAfter is how many notes to read make a refresh map the persisted terms
// first (postings.mapDict): past it, looking each note's terms up in the mapped
// dictionary costs more than mapping them all once.
const mapDictAfter = 256

// A read of at least hugeBuildMin bytes of notes prepares buildHeapPerByte bytes of
// heap a byte for huge pages (the build's heap is 3-5 times the Markdown).
const (
	hugeBuildMin     = 32 << 20
	buildHeapPerByte = 4
)

// readAndApply reads files on every core, analyses those whose content changed, and
// applies them and the removals to the index. It returns how many files were read.
// progress (may be nil) hears 0 of len(files) first, then each note applied.
func (ix *Index) readAndApply(ctx context.Context, files []vault.FileInfo, gone []vpath.Path, progress func(done, total int)) (int, error) {
	if len(gone) > 0 {
		ix.mu.Lock()
		for _, p := range gone {
			ix.x.remove(p)
		}
		compacted := ix.x.needsCompaction()
		if compacted {
			ix.x = ix.x.compact()
		}
		ix.version++
		ix.mu.Unlock()
		if compacted {
			osmem.Release() // the dead documents' postings are garbage now
		}
	}
	if len(files) == 0 {
		return 0, nil
	}
	if len(files) > mapDictAfter {
		ix.mu.Lock()
		ix.x.mapDict()
		ix.mu.Unlock()
	}
	paths := make([]vpath.Path, len(files))
	for i, f := range files {
		paths[i] = f.Path
	}
	out := make(chan entry, 64)
	var merged sync.WaitGroup
	if progress != nil {
		progress(0, len(files))
	}
	var compacted atomic.Bool
	big, total := false, int64(0)
	for _, f := range files {
		big = big || f.Size >= osmem.Large
		total += f.Size
	}
	if total >= hugeBuildMin {
		// The analysis and the postings of this much text grow the heap by a few
		// times its size, touched once: huge pages take most of the page faults away
		// (10k notes of names, 91 MB: 4.5 s -> 3.9 s on a virtual machine).
		osmem.PrepareHugeHeap(int(min(total*buildHeapPerByte, osmem.MaxHugeHeap)))
	}
	// The readers take no lock of the index (the merge would wait for them, and on
	// two cores a reader holding the lock is often off its core): the content sums
	// of the notes indexed already are read here, the postings to look terms up in
	// are published by the merge (cur), and their terms have locks of their own.
	olds := make([]uint64, len(files))
	had := make([]bool, len(files))
	type terms struct {
		x       *postings
		dictMap map[string]uint32 // x's, read under the lock (another refresh may set it)
	}
	var cur atomic.Pointer[terms]
	ix.mu.RLock()
	cur.Store(&terms{ix.x, ix.x.dictMap})
	if ix.x.n() > 0 {
		for i, f := range files {
			if id, ok := ix.x.lookup(f.Path); ok {
				_, _, olds[i] = ix.x.stampOf(id)
				had[i] = true
			}
		}
	}
	ix.mu.RUnlock()
	merged.Go(func() {
		done := 0
		for e := range out {
			ix.mu.Lock()
			if ix.applyEntry(e) {
				compacted.Store(true)
				cur.Store(&terms{ix.x, ix.x.dictMap}) // compacted: look terms up there from now on
			}
			ix.mu.Unlock()
			if done++; progress != nil {
				progress(done, len(files))
			}
		}
	})
	err := ix.v.ReadMany(ctx, paths, vault.ReadManyOptions{MaxSize: MaxNoteBytes}, func(i int, data []byte, err error) {
		f := files[i]
		var e entry
		switch {
		case errors.Is(err, vault.ErrNotFound) || errors.Is(err, fs.ErrNotExist):
			e.gone, e.a.info.path = true, f.Path
		case err != nil:
			data = nil // too large or unreadable: indexed by name only
			e.failed = true
			fallthrough
		default:
			sum := sumOf(data)
			if had[i] && !e.failed && olds[i] == sum {
				e.stamp = true
				e.a.info = docInfo{path: f.Path}
			} else {
				an := analyzerPool.Get().(*analyzer)
				e.a = an.analyze(f.Path, data)
				analyzerPool.Put(an)
				t := cur.Load()
				t.x.lookupTerms(&e.a, t.dictMap) // in parallel: the merge then looks up only new terms
				e.grams = bloomFor(data)
			}
			e.a.info.size, e.a.info.mtime, e.a.info.sum = f.Size, f.ModTime.UnixNano(), sum
		}
		out <- e
	})
	close(out)
	merged.Wait()
	if big || compacted.Load() {
		// A huge note's analysis (millions of terms), or the dead documents'
		// postings, are garbage now: hand the memory back rather than hold it for
		// minutes.
		osmem.Release()
	}
	if err != nil {
		return len(files), fmt.Errorf("search index: %w", err)
	}
	return len(files), nil
}

// applyEntry applies one read file, and reports whether the index was compacted;
// the caller holds mu for writing.
func (ix *Index) applyEntry(e entry) (compacted bool) {
	p := e.a.info.path
	ix.version++
	switch {
	case e.gone:
		ix.x.remove(p)
	case e.stamp:
		if id, ok := ix.x.lookup(p); ok {
			ix.x.restamp(id, e.a.info.size, e.a.info.mtime)
		}
	default:
		ix.x.remove(p)
		ix.x.add(e.a, e.grams)
	}
	if ix.x.needsCompaction() {
		ix.x = ix.x.compact()
		return true
	}
	return false
}
