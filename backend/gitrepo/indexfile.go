package gitrepo

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"time"
	"unsafe"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/format/index"

	"github.com/memotree/memotree/backend/internal/mapped"
)

// A lean reader of .git/index for Status, over the file mapped in place (mapped.File).
// go-git's decoder reads each field through reflection and allocates several objects
// per entry; at 10k notes that was a fifth of a status and most of its page faults.
// This reader makes one slice of entries and one string of all their names (packNames),
// so that nothing refers to the mapping once it is released. It reads index versions
// 2, 3 and 4; a newer version, or an index it cannot find, makes Status fall back to
// go-git's decoder, and a split or sparse index is refused (see Repo.indexForm).
// Writing the index stays with go-git (index.go).

// ientry is what Status needs of one index entry.
type ientry struct {
	name         string
	hash         plumbing.Hash
	mode         filemode.FileMode
	size         uint32
	ctimeS       uint32
	ctimeN       uint32
	mtimeS       uint32
	mtimeN       uint32
	ino          uint32
	stage        uint8
	intentToAdd  bool
	skipWorktree bool
	assumeValid  bool // git update-index --assume-unchanged
}

// errIndexFormat means the index uses a form this reader leaves to go-git.
var errIndexFormat = errors.New("index format not read by the lean reader")

// errSplitIndex and errSparseIndex mean the index is in a form neither this reader nor
// go-git reads (see Repo.indexForm).
var (
	errSplitIndex  = errors.New("split index")
	errSparseIndex = errors.New("sparse index")
)

// readIndexFile reads the entries of .git/index, sorted as git sorts them. A missing
// index (a repository with no commit yet) has no entries.
func (r *Repo) readIndexFile() ([]ientry, error) {
	entries, _, err := r.readIndex()
	return entries, err
}

// readIndex is readIndexFile with the valid records of the index's cache-tree.
func (r *Repo) readIndex() ([]ientry, map[string]cachedTree, error) {
	b, release, err := mapped.File(filepath.Join(r.dir, ".git", "index"), mapped.Options{Populate: true})
	if errors.Is(err, os.ErrNotExist) {
		if _, serr := os.Stat(filepath.Join(r.dir, ".git")); serr == nil {
			return nil, nil, nil
		}
		return nil, nil, errIndexFormat // a linked worktree or a .git file: go-git finds the index
	}
	if err != nil {
		return nil, nil, fmt.Errorf("read index: %w", err)
	}
	defer release()
	if len(b) == 0 {
		return parseIndex("")
	}
	entries, tree, err := parseIndex(unsafe.String(&b[0], len(b)))
	if err != nil {
		return nil, nil, err
	}
	packNames(entries)
	return entries, tree, nil
}

// packNames copies the entries' names, which parseIndex sliced out of the mapped
// file, into one string of their own, so that nothing refers to the file's bytes
// once it is released: one allocation of the names alone, about half the file.
func packNames(entries []ientry) {
	n := 0
	for i := range entries {
		n += len(entries[i].name)
	}
	if n == 0 {
		return
	}
	buf := make([]byte, 0, n)
	for i := range entries {
		buf = append(buf, entries[i].name...)
	}
	all := unsafe.String(&buf[0], n)
	pos := 0
	for i := range entries {
		l := len(entries[i].name)
		entries[i].name = all[pos : pos+l]
		pos += l
	}
}

// parseIndex decodes an index file held in s: its entries and the valid records of
// its cache-tree extension (nil without one).
func parseIndex(s string) ([]ientry, map[string]cachedTree, error) {
	const header, fixed = 12, 62 // header; an entry's fixed part up to its flags
	if len(s) < header+20 || s[:4] != "DIRC" {
		return nil, nil, fmt.Errorf("read index: %w", errors.New("not an index file (bad signature or too short)"))
	}
	u32 := func(i int) uint32 { return binary.BigEndian.Uint32([]byte(s[i : i+4])) }
	version := u32(4)
	if version < 2 || version > 4 {
		return nil, nil, errIndexFormat
	}
	n := int(u32(8))
	end := len(s) - 20 // the trailing checksum
	if n > end/fixed {
		return nil, nil, fmt.Errorf("read index: %d entries cannot fit in %d bytes", n, len(s))
	}
	out := make([]ientry, n)
	pos := header
	prev := ""
	for i := range out {
		if pos+fixed > end {
			return nil, nil, fmt.Errorf("read index: entry %d runs past the end", i)
		}
		e := &out[i]
		start := pos
		e.ctimeS, e.ctimeN = u32(pos), u32(pos+4)
		e.mtimeS, e.mtimeN = u32(pos+8), u32(pos+12)
		e.ino = u32(pos + 20)
		e.mode = filemode.FileMode(u32(pos + 24))
		e.size = u32(pos + 36)
		copy(e.hash[:], s[pos+40:pos+60])
		flags := binary.BigEndian.Uint16([]byte(s[pos+60 : pos+62]))
		e.stage = uint8(flags>>12) & 3
		e.assumeValid = flags&0x8000 != 0
		pos += fixed
		if flags&0x4000 != 0 { // extended flags (version 3 and later)
			if version < 3 || pos+2 > end {
				return nil, nil, fmt.Errorf("read index: entry %d has extended flags in version %d", i, version)
			}
			ext := binary.BigEndian.Uint16([]byte(s[pos : pos+2]))
			e.skipWorktree, e.intentToAdd = ext&0x4000 != 0, ext&0x2000 != 0
			pos += 2
		}
		if version == 4 { // the name is the previous one, less some bytes, plus a suffix
			strip, w := offsetVarint(s[pos:end])
			if w == 0 || strip < 0 || strip > len(prev) { // < 0: the varint overflowed
				return nil, nil, fmt.Errorf("read index: entry %d has a bad name prefix", i)
			}
			pos += w
			nul := strings.IndexByte(s[pos:end], 0)
			if nul < 0 {
				return nil, nil, fmt.Errorf("read index: entry %d name has no end", i)
			}
			e.name = prev[:len(prev)-strip] + s[pos:pos+nul]
			pos += nul + 1
		} else {
			nul := strings.IndexByte(s[pos:end], 0)
			if nul < 0 {
				return nil, nil, fmt.Errorf("read index: entry %d name has no end", i)
			}
			e.name = s[pos : pos+nul]
			pos = start + (pos-start+nul+8)&^7 // NUL padding to a multiple of 8
		}
		prev = e.name
	}
	if pos > end {
		return nil, nil, fmt.Errorf("read index: entries run past the end")
	}
	var tree map[string]cachedTree
	for pos+8 <= end { // extensions: refuse those that change what the entries mean
		sig := s[pos : pos+4]
		size := int(u32(pos + 4))
		switch sig {
		case "link":
			return nil, nil, errSplitIndex
		case "sdir":
			return nil, nil, errSparseIndex
		case "TREE":
			if pos+8+size <= end {
				tree = parseCacheTree(s[pos+8 : pos+8+size])
			}
		}
		pos += 8 + size
	}
	return out, tree, nil
}

// offsetVarint decodes git's "offset" varint (index v4 name prefixes): each
// continuation adds one before shifting. It returns the value and the bytes read, 0
// when malformed.
func offsetVarint(s string) (int, int) {
	if len(s) == 0 {
		return 0, 0
	}
	c := s[0]
	v := int(c & 0x7f)
	i := 1
	for c&0x80 != 0 {
		if i >= len(s) || i > 8 {
			return 0, 0
		}
		c = s[i]
		i++
		if v > math.MaxInt32 {
			return 0, 0 // no name is that long: a malformed prefix, not an overflow
		}
		v = (v+1)<<7 | int(c&0x7f)
	}
	return v, i
}

// fromIndex converts entries decoded by go-git, for the forms readIndexFile leaves
// to it.
func fromIndex(idx *index.Index) []ientry {
	out := make([]ientry, len(idx.Entries))
	for i, e := range idx.Entries {
		out[i] = entryOf(e)
	}
	return out
}

// unixParts returns a time's seconds and nanoseconds as the index stores them.
func unixParts(t time.Time) (uint32, uint32) {
	if t.IsZero() {
		return 0, 0
	}
	return uint32(t.Unix()), uint32(t.Nanosecond())
}
