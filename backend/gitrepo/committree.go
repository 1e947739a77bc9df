package gitrepo

import (
	"bytes"
	"compress/zlib"
	"encoding/binary"
	"encoding/hex"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"
)

// A fast path for "which tree does this commit name", the one object a status needs.
// go-git answers it by decoding every pack index in full (hundreds of kilobytes into
// maps) before it looks up one hash; here a pack index is searched where it lies, as
// git does, and one object is inflated. Anything unusual (a deltified commit, an
// alternate object store, a damaged file) returns ok false and the caller asks go-git.

// commitTree returns the tree hash of the commit h, read from the loose objects or
// the packs of the repository's .git folder; ok is false when it cannot tell.
func (r *Repo) commitTree(h plumbing.Hash) (tree plumbing.Hash, ok bool) {
	objects := filepath.Join(r.dir, ".git", "objects")
	if fi, err := os.Stat(objects); err != nil || !fi.IsDir() {
		return plumbing.ZeroHash, false // a worktree's .git file, or no store here
	}
	hx := h.String()
	if f, err := os.Open(filepath.Join(objects, hx[:2], hx[2:])); err == nil {
		defer f.Close()
		return looseCommitTree(f)
	}
	idxs, err := filepath.Glob(filepath.Join(objects, "pack", "pack-*.idx"))
	if err != nil {
		return plumbing.ZeroHash, false
	}
	for _, idx := range idxs {
		off, found, err := packOffset(idx, h)
		if err != nil {
			return plumbing.ZeroHash, false
		}
		if found {
			return packedCommitTree(strings.TrimSuffix(idx, ".idx")+".pack", off)
		}
	}
	return plumbing.ZeroHash, false
}

// looseCommitTree reads the tree line of a loose commit object.
func looseCommitTree(f io.Reader) (plumbing.Hash, bool) {
	z, err := zlib.NewReader(f)
	if err != nil {
		return plumbing.ZeroHash, false
	}
	defer z.Close()
	var buf [128]byte
	n, _ := io.ReadFull(z, buf[:])
	hdr, body, found := bytes.Cut(buf[:n], []byte{0})
	if !found || !bytes.HasPrefix(hdr, []byte("commit ")) {
		return plumbing.ZeroHash, false
	}
	return treeLine(body)
}

// treeLine parses the "tree <hex>" line that starts a commit.
func treeLine(b []byte) (plumbing.Hash, bool) {
	const prefix = "tree "
	if len(b) < len(prefix)+40+1 || string(b[:len(prefix)]) != prefix || b[len(prefix)+40] != '\n' {
		return plumbing.ZeroHash, false
	}
	var h plumbing.Hash
	if _, err := hex.Decode(h[:], b[len(prefix):len(prefix)+40]); err != nil {
		return plumbing.ZeroHash, false
	}
	return h, true
}

// packOffset looks h up in a version 2 pack index: the fan-out table narrows the
// search to the hashes sharing h's first byte, found by binary search, reading only
// the pages it touches.
func packOffset(idxPath string, h plumbing.Hash) (off int64, found bool, err error) {
	f, err := os.Open(idxPath)
	if err != nil {
		return 0, false, err
	}
	defer f.Close()
	var head [8 + 256*4]byte
	if _, err := f.ReadAt(head[:], 0); err != nil {
		return 0, false, err
	}
	if !bytes.Equal(head[:8], []byte{0xff, 't', 'O', 'c', 0, 0, 0, 2}) {
		return 0, false, errIndexFormat
	}
	fan := func(i int) uint32 { return binary.BigEndian.Uint32(head[8+4*i:]) }
	total := int64(fan(255))
	lo, hi := int64(0), int64(fan(int(h[0])))
	if h[0] > 0 {
		lo = int64(fan(int(h[0]) - 1))
	}
	const hashes = 8 + 256*4
	var cand [20]byte
	for lo < hi {
		mid := (lo + hi) / 2
		if _, err := f.ReadAt(cand[:], hashes+20*mid); err != nil {
			return 0, false, err
		}
		switch c := bytes.Compare(cand[:], h[:]); {
		case c == 0:
			var o [8]byte
			offsets := hashes + 20*total + 4*total // after the hashes and their CRCs
			if _, err := f.ReadAt(o[:4], offsets+4*mid); err != nil {
				return 0, false, err
			}
			v := binary.BigEndian.Uint32(o[:4])
			if v&0x80000000 == 0 {
				return int64(v), true, nil
			}
			large := offsets + 4*total + 8*int64(v&0x7fffffff)
			if _, err := f.ReadAt(o[:], large); err != nil {
				return 0, false, err
			}
			return int64(binary.BigEndian.Uint64(o[:])), true, nil
		case c < 0:
			lo = mid + 1
		default:
			hi = mid
		}
	}
	return 0, false, nil
}

// packedCommitTree reads the commit stored whole at off in a pack; ok is false for
// any other object type, deltas included.
func packedCommitTree(packPath string, off int64) (plumbing.Hash, bool) {
	f, err := os.Open(packPath)
	if err != nil {
		return plumbing.ZeroHash, false
	}
	defer f.Close()
	var hdr [16]byte
	n, err := f.ReadAt(hdr[:], off)
	if n == 0 || err != nil && err != io.EOF {
		return plumbing.ZeroHash, false
	}
	const commitType = 1
	if (hdr[0]>>4)&7 != commitType {
		return plumbing.ZeroHash, false
	}
	i := 0
	for hdr[i]&0x80 != 0 { // the size's continuation bytes
		i++
		if i >= n {
			return plumbing.ZeroHash, false
		}
	}
	z, err := zlib.NewReader(io.NewSectionReader(f, off+int64(i)+1, 1<<20))
	if err != nil {
		return plumbing.ZeroHash, false
	}
	defer z.Close()
	var buf [64]byte
	m, _ := io.ReadFull(z, buf[:])
	return treeLine(buf[:m])
}
