package gitrepo

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
	"path"
	"path/filepath"
	"strings"

	"github.com/go-git/go-billy/v5"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/format/idxfile"
	"github.com/go-git/go-git/v5/plumbing/format/packfile"
)

// Pack files a fetch writes, made safe against a kill at any moment.
//
// go-git's fetch streams the pack into objects/pack/tmp_pack_*, then creates
// pack-<sum>.idx under its final name and writes it in place, then renames the pack
// to pack-<sum>.pack; nothing is synced. A process killed while the .idx is being
// written leaves a truncated index under its final name: git fsck fails on it ("index
// file … is too small"), and the next fetch, finding an .idx of that name, keeps it
// and renames the new pack beside it, so that every later read of those objects fails.
//
// packFS wraps the repository's file system as go-git's storage sees it: an .idx is
// written to a temporary name, synced and renamed into place whole, and the pack is
// synced before its rename. The .idx still comes first (go-git lists packs by their
// .pack file and needs its .idx), so a kill between the two renames leaves a whole
// .idx without its pack, which git and go-git pass over and the next fetch completes.
//
// repairPacks mends what a kill of an older MemoTree (or any other writer) left: an
// .idx too short for the objects it counts, or naming another pack than the one beside
// it, is removed, and a pack without a usable .idx has its index built again from the
// pack, as `git index-pack` would.

// packFS is a billy file system whose pack index writes are atomic (see above).
type packFS struct {
	billy.Filesystem
	// pause, when set (by tests), is called with "idx" after the first write to a
	// new .idx and with "pack" before the pack's rename: a crash test kills there.
	pause func(stage string)
}

// isPackFile reports whether name (slash or OS separators) is objects/pack/pack-*.ext.
func isPackFile(name, ext string) bool {
	name = filepath.ToSlash(name)
	return path.Base(path.Dir(name)) == "pack" && path.Base(path.Dir(path.Dir(name))) == "objects" &&
		strings.HasPrefix(path.Base(name), "pack-") && strings.HasSuffix(name, ext)
}

// Create writes a new .idx to a temporary file renamed into place on Close.
func (f *packFS) Create(name string) (billy.File, error) {
	if !isPackFile(name, ".idx") {
		return f.Filesystem.Create(name)
	}
	tmp, err := f.Filesystem.TempFile(filepath.Dir(name), "tmp_idx_")
	if err != nil {
		return nil, err
	}
	return &stagedIdx{File: tmp, fs: f, final: name}, nil
}

// Rename syncs a pack before it takes its final name, so that its name never stands
// for bytes a power cut could lose.
func (f *packFS) Rename(from, to string) error {
	if isPackFile(to, ".pack") {
		if err := syncBilly(f.Filesystem, from); err != nil {
			return fmt.Errorf("sync %s: %w", from, err)
		}
		if f.pause != nil {
			f.pause("pack")
		}
	}
	return f.Filesystem.Rename(from, to)
}

// syncBilly syncs the file name of fs when its files can be synced (the disk's can).
func syncBilly(fs billy.Filesystem, name string) error {
	r, err := fs.Open(name)
	if err != nil {
		return err
	}
	defer r.Close()
	if s, ok := r.(interface{ Sync() error }); ok {
		return s.Sync()
	}
	return nil
}

// stagedIdx is an .idx being written under a temporary name.
type stagedIdx struct {
	billy.File
	fs      *packFS
	final   string
	written bool
}

// Write writes to the temporary file.
func (s *stagedIdx) Write(p []byte) (int, error) {
	n, err := s.File.Write(p)
	if !s.written && n > 0 {
		s.written = true
		if s.fs.pause != nil {
			s.fs.pause("idx")
		}
	}
	return n, err
}

// Name returns the name the index will have.
func (s *stagedIdx) Name() string { return s.final }

// Close syncs the temporary file and renames it to the final name; a failure removes
// it, leaving no index at all.
func (s *stagedIdx) Close() error {
	tmp := s.File.Name()
	var err error
	if sy, ok := s.File.(interface{ Sync() error }); ok {
		err = sy.Sync()
	}
	err = errors.Join(err, s.File.Close())
	if err == nil {
		err = s.fs.Filesystem.Rename(tmp, s.final)
	}
	if err != nil {
		_ = s.fs.Filesystem.Remove(tmp)
		return fmt.Errorf("write %s: %w", s.final, err)
	}
	return nil
}

// packDir is where a repository's packs are, relative to its storage's file system.
var packDir = filepath.Join("objects", "pack")

// damagedPacks lists the packs (by their file name without extension) whose .idx is
// missing, truncated or names another pack, and the .idx files without a pack that are
// damaged. It reads a few bytes of each file, not whole packs.
func damagedPacks(fs billy.Filesystem) (rebuild, remove []string, err error) {
	infos, err := fs.ReadDir(packDir)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil, nil
	}
	if err != nil {
		return nil, nil, err
	}
	have := map[string]int64{}
	for _, fi := range infos {
		if fi.Mode().IsRegular() {
			have[fi.Name()] = fi.Size()
		}
	}
	for name, size := range have {
		base, ok := strings.CutSuffix(name, ".idx")
		if ok && strings.HasPrefix(base, "pack-") {
			packSize, hasPack := have[base+".pack"]
			if idxUsable(fs, filepath.Join(packDir, name), size, filepath.Join(packDir, base+".pack"), packSize, hasPack) {
				continue
			}
			if hasPack {
				rebuild = append(rebuild, base)
			} else {
				remove = append(remove, name)
			}
			continue
		}
		base, ok = strings.CutSuffix(name, ".pack")
		if ok && strings.HasPrefix(base, "pack-") {
			if _, hasIdx := have[base+".idx"]; !hasIdx {
				rebuild = append(rebuild, base)
			}
		}
	}
	return rebuild, remove, nil
}

// idxUsable reports whether the version 2 (or 1) pack index idx of the given size is
// as long as the objects it counts make it, as git checks it, and, when the pack is
// there, names that pack's checksum (its last 20 bytes).
func idxUsable(fs billy.Filesystem, idx string, size int64, pack string, packSize int64, hasPack bool) bool {
	f, err := fs.Open(idx)
	if err != nil {
		return false
	}
	defer f.Close()
	head := make([]byte, 8+256*4)
	if _, err := io.ReadFull(f, head); err != nil {
		return false
	}
	const hashSize = 20
	var count, min, max int64
	if bytes.Equal(head[:4], []byte{0xff, 't', 'O', 'c'}) {
		if binary.BigEndian.Uint32(head[4:8]) != 2 {
			return true // a version this check does not know: left to git
		}
		count = int64(binary.BigEndian.Uint32(head[8+255*4:]))
		min = 8 + 256*4 + count*(hashSize+4+4) + 2*hashSize
		max = min + 8*count // the large offsets, at most one per object
	} else {
		count = int64(binary.BigEndian.Uint32(head[255*4 : 256*4]))
		min = 256*4 + count*(hashSize+4) + 2*hashSize
		max = min
	}
	if size < min || size > max || (size-min)%8 != 0 {
		return false
	}
	if !hasPack {
		return true
	}
	if packSize < 12+hashSize {
		return false
	}
	trailer := make([]byte, 2*hashSize)
	if _, err := f.ReadAt(trailer, size-2*hashSize); err != nil {
		return false
	}
	p, err := fs.Open(pack)
	if err != nil {
		return false
	}
	defer p.Close()
	sum := make([]byte, hashSize)
	if _, err := p.ReadAt(sum, packSize-hashSize); err != nil {
		return false
	}
	return bytes.Equal(sum, trailer[:hashSize])
}

// repairPacks mends the packs a killed fetch left damaged (see damagedPacks): an
// index rebuilt from its pack, a damaged index without a pack removed. It takes the
// vault lock only when there is something to mend.
func (r *Repo) repairPacks(ctx context.Context, fs billy.Filesystem) error {
	rebuild, remove, err := damagedPacks(fs)
	if err != nil || len(rebuild)+len(remove) == 0 {
		return err
	}
	unlock, err := r.w.Lock(ctx)
	if err != nil {
		return err
	}
	defer unlock()
	if rebuild, remove, err = damagedPacks(fs); err != nil { // again, under the lock
		return err
	}
	for _, name := range remove {
		if err := fs.Remove(filepath.Join(packDir, name)); err != nil && !errors.Is(err, os.ErrNotExist) {
			return fmt.Errorf("remove the damaged pack index %s: %w", name, err)
		}
	}
	for _, base := range rebuild {
		if err := indexPack(fs, base); err != nil {
			return fmt.Errorf("rebuild the index of %s: %w", base, err)
		}
	}
	return nil
}

// indexPack writes objects/pack/<base>.idx from <base>.pack, to a temporary file
// renamed into place. A pack that does not read whole is left as it is, with an error.
func indexPack(fs billy.Filesystem, base string) error {
	pf, err := fs.Open(filepath.Join(packDir, base+".pack"))
	if err != nil {
		return err
	}
	defer pf.Close()
	w := new(idxfile.Writer)
	parser, err := packfile.NewParser(packfile.NewScanner(pf), w)
	if err != nil {
		return err
	}
	sum, err := parser.Parse()
	if err != nil {
		return fmt.Errorf("read the pack: %w", err)
	}
	if want := strings.TrimPrefix(base, "pack-"); plumbing.IsHash(want) && sum.String() != want {
		return fmt.Errorf("the pack's checksum is %s, not the one its name says", sum)
	}
	idx, err := w.Index()
	if err != nil {
		return err
	}
	out, err := (&packFS{Filesystem: fs}).Create(filepath.Join(packDir, base+".idx"))
	if err != nil {
		return err
	}
	if _, err := idxfile.NewEncoder(out).Encode(idx); err != nil {
		_ = out.(*stagedIdx).File.Close()
		_ = fs.Remove(out.(*stagedIdx).File.Name())
		return err
	}
	return out.Close()
}
