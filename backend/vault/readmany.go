package vault

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime"
	"slices"
	"strings"
	"sync"

	"github.com/memotree/memotree/backend/vpath"
)

// ReadManyOptions qualify ReadMany.
type ReadManyOptions struct {
	// MaxSize skips (with ErrTooLarge) files larger than this many bytes; 0 means no
	// limit.
	MaxSize int64
	// Workers is the number of files read at once; 0 means GOMAXPROCS.
	Workers int
}

// ErrTooLarge is given to ReadMany's callback for a file over the size limit.
var ErrTooLarge = errors.New("file too large")

// ReadMany reads the files at paths on several goroutines and calls fn for each, in no
// particular order, with the file's content or the error reading it. data is valid only
// during the call: its buffer is reused, so fn must copy what it keeps. fn runs on
// several goroutines at once. Files of one folder are read through one handle on the
// folder, which saves resolving the folder again for every file; the same escape checks
// as ReadFile apply. ReadMany returns ctx's error if it was cancelled.
func (v *Vault) ReadMany(ctx context.Context, paths []vpath.Path, o ReadManyOptions, fn func(i int, data []byte, err error)) error {
	if v.stage != nil {
		return v.stage.readMany(ctx, paths, o, fn)
	}
	groups := groupByDir(paths)
	workers := o.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	next := make(chan []int, workers)
	var wg sync.WaitGroup
	for range min(workers, max(1, len(groups))) {
		wg.Go(func() {
			var buf []byte
			for g := range next {
				buf = v.readGroup(paths, g, o.MaxSize, buf, fn)
			}
		})
	}
	var err error
	for _, g := range groups {
		if err = ctx.Err(); err != nil {
			break
		}
		next <- g
	}
	close(next)
	wg.Wait()
	return err
}

// groupByDir returns the indexes of paths grouped by folder, the folders in path
// order, large folders split so that work spreads over the workers. The paths of a
// walk come a folder's files together, so the map is asked once per run of them.
func groupByDir(paths []vpath.Path) [][]int {
	byDir := map[vpath.Path]int{} // folder -> index in dirs and idx
	var (
		dirs []vpath.Path
		idx  [][]int
		last vpath.Path
		k    = -1
	)
	for i, p := range paths {
		if d := p.Dir(); k < 0 || d != last {
			var ok bool
			if k, ok = byDir[d]; !ok {
				k = len(dirs)
				byDir[d] = k
				dirs, idx = append(dirs, d), append(idx, nil)
			}
			last = d
		}
		idx[k] = append(idx[k], i)
	}
	order := make([]int, len(dirs))
	for i := range order {
		order[i] = i
	}
	slices.SortFunc(order, func(a, b int) int { return strings.Compare(string(dirs[a]), string(dirs[b])) })
	const chunk = 64
	out := make([][]int, 0, len(dirs)+len(paths)/chunk)
	for _, d := range order {
		for rest := idx[d]; len(rest) > 0; {
			n := min(chunk, len(rest))
			out = append(out, rest[:n:n])
			rest = rest[n:]
		}
	}
	return out
}

// errSlowPath tells readGroup to read a file through os.Root: a symbolic link, or a
// system without the fast path.
var errSlowPath = errors.New("read through os.Root")

// readGroup reads files of one folder through one handle on that folder.
func (v *Vault) readGroup(paths []vpath.Path, idx []int, maxSize int64, buf []byte, fn func(int, []byte, error)) []byte {
	dir := paths[idx[0]].Dir()
	var dr *dirReader
	if checkPath(dir) == nil {
		name := "."
		if dir != "" {
			name = osName(dir)
		}
		if r, err := v.openDirReader(name); err == nil {
			dr = r
			defer r.close()
		}
	}
	ahead := false // the folder's files were opened ahead (see dirReader)
	for k, i := range idx {
		p := paths[i]
		if err := checkPath(p); err != nil {
			fn(i, nil, fmt.Errorf("read %s: %w", p, err))
			continue
		}
		err := errSlowPath
		if dr != nil {
			var cold bool
			buf, cold, err = dr.read(p.Base(), maxSize, buf)
			if cold && !ahead {
				ahead = true
				bases := make([]string, 0, len(idx)-k-1)
				for _, j := range idx[k+1:] {
					if checkPath(paths[j]) == nil {
						bases = append(bases, paths[j].Base())
					}
				}
				dr.readAhead(bases)
			}
		}
		if errors.Is(err, errSlowPath) {
			// A symbolic link (followed only inside the vault), or no fast path.
			buf, err = readInto(v.root, osName(p), maxSize, buf)
		}
		if err != nil {
			fn(i, nil, fmt.Errorf("read %s: %w", p, mapErr(err)))
			continue
		}
		fn(i, buf, nil)
	}
	return buf
}

// readInto reads the file name of r into buf, growing it as needed.
func readInto(r *os.Root, name string, maxSize int64, buf []byte) ([]byte, error) {
	f, st, err := openRegular(r, name)
	if err != nil {
		return buf, err
	}
	defer f.Close()
	if maxSize > 0 && st.Size() > maxSize {
		return buf, fmt.Errorf("%w: %d bytes", ErrTooLarge, st.Size())
	}
	n := int(st.Size()) + 1 // one more byte to see a file that grew since the stat
	if cap(buf) < n {
		buf = make([]byte, 0, n+n/4)
	}
	buf = buf[:0]
	for {
		if len(buf) == cap(buf) {
			buf = append(buf, 0)[:len(buf)]
		}
		m, err := f.Read(buf[len(buf):cap(buf)])
		buf = buf[:len(buf)+m]
		if err == io.EOF {
			return buf, nil
		}
		if err != nil {
			return buf, err
		}
	}
}
