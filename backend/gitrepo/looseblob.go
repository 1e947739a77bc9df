package gitrepo

import (
	"bytes"
	"compress/zlib"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"

	"github.com/go-git/go-git/v5/plumbing"
)

// A fast path for reading one blob of HEAD, as a status or a diff does for each
// change: a loose object is opened and inflated once, its header read before its
// body so that a blob over the limit is never inflated, and by any number of
// goroutines at once (go-git's storage is not safe for that, and it opens a loose
// object twice to learn its size and then its content). A packed object, an
// alternate store or a worktree's .git file answers ok false: the caller asks go-git.

// looseBlob reads the loose blob h from the repository's .git/objects: its size, and
// its content when the size is at most limit. ok is false when there is no such
// loose object; err says a loose object that could not be read as a blob.
func (r *Repo) looseBlob(h plumbing.Hash, limit int64) (data []byte, size int64, ok bool, err error) {
	hx := h.String()
	f, err := os.Open(filepath.Join(r.dir, ".git", "objects", hx[:2], hx[2:]))
	if err != nil {
		return nil, 0, false, nil // not loose here (packed, an alternate store): go-git decides
	}
	defer f.Close()
	z, err := zlib.NewReader(f)
	if err != nil {
		return nil, 0, false, fmt.Errorf("read object %s: %w", hx, err)
	}
	defer z.Close()
	var head [32]byte // "blob " and a size of at most 20 digits and the NUL
	n, err := io.ReadFull(z, head[:])
	if err != nil && !errors.Is(err, io.ErrUnexpectedEOF) {
		return nil, 0, false, fmt.Errorf("read object %s: %w", hx, err)
	}
	hdr, rest, found := bytes.Cut(head[:n], []byte{0})
	kind, num, sp := bytes.Cut(hdr, []byte{' '})
	if !found || !sp || string(kind) != "blob" {
		return nil, 0, false, fmt.Errorf("read object %s: not a blob", hx)
	}
	size, err = strconv.ParseInt(string(num), 10, 64)
	if err != nil || size < 0 {
		return nil, 0, false, fmt.Errorf("read object %s: bad size %q", hx, num)
	}
	if size > limit {
		return nil, size, true, nil
	}
	if int64(len(rest)) > size {
		return nil, 0, false, fmt.Errorf("read object %s: longer than its size", hx)
	}
	data = make([]byte, size)
	copied := copy(data, rest)
	if _, err := io.ReadFull(z, data[copied:]); err != nil {
		return nil, 0, false, fmt.Errorf("read object %s: %w", hx, err)
	}
	// Read to the end: zlib checks the stream's checksum there, and a longer object
	// is damaged.
	var one [1]byte
	if _, err := io.ReadFull(z, one[:]); !errors.Is(err, io.EOF) {
		return nil, 0, false, fmt.Errorf("read object %s: longer than its size or damaged: %v", hx, err)
	}
	return data, size, true, nil
}
