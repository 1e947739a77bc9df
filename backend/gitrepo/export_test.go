package gitrepo

import (
	"bytes"
	"crypto/sha1"
	"encoding/binary"
	"errors"
	"fmt"
	"os"
	"slices"
)

// IndexTreeHash returns the hash of the tree the index would commit, computed in
// memory, for tests to compare with `git write-tree`.
func IndexTreeHash(r *Repo) (string, error) {
	entries, err := r.readIndexFile()
	if err != nil {
		return "", err
	}
	return hashIndexTrees(entries, nil).root().String(), nil
}

// IndexFolderTrees returns each folder's tree hash as Status computes it (taking the
// valid records of the index's cache-tree), as hashing every tree computes it, and
// the folders whose cache-tree record is valid.
func IndexFolderTrees(r *Repo) (status, hashed map[string]string, cachedFolders []string, err error) {
	entries, cached, err := r.readIndex()
	if err != nil {
		return nil, nil, nil, err
	}
	flat := func(t *indexTrees) map[string]string {
		m := map[string]string{}
		for d, span := range t.dirs {
			m[d] = fmt.Sprintf("%s %d-%d", span.hash, span.lo, span.hi)
		}
		return m
	}
	for d := range cached {
		cachedFolders = append(cachedFolders, d)
	}
	return flat(hashIndexTrees(entries, cached)), flat(hashIndexTrees(entries, nil)), cachedFolders, nil
}

// IndexEntries returns the entries the lean index reader sees, as `git ls-files -s`
// prints them: "mode hash stage\tpath".
func IndexEntries(r *Repo) ([]string, error) {
	entries, err := r.readIndexFile()
	if err != nil {
		return nil, err
	}
	out := make([]string, len(entries))
	for i, e := range entries {
		out[i] = fmt.Sprintf("%06o %s %d\t%s", uint32(e.mode), e.hash, e.stage, e.name)
	}
	return out, nil
}

// PauseBeforeIndexRename makes every later index write of r call fn once the new
// index is written to index.lock, before it replaces the index (a crash test kills
// there).
func PauseBeforeIndexRename(r *Repo, fn func()) { r.beforeIndexRename = fn }

// PauseBeforeRefRename makes every later reference update of r call fn once the new
// value is written to <ref>.lock and checked, before it replaces the reference (a
// crash test kills there).
func PauseBeforeRefRename(r *Repo, fn func()) { r.beforeRefRename = fn }

// PauseAfterConfigRead makes every later SetIdentity call fn once it has read
// .git/config, before it writes the new one.
func PauseAfterConfigRead(fn func()) { afterConfigRead = fn }

// ConfigList reads a git configuration file as `git config --file F --list` prints it:
// "section.subsection.key=value", or "section.key" for a key without a value.
func ConfigList(b []byte) ([]string, error) {
	var out []string
	err := parseConfig(b, func(section, sub, key, value string, hasValue bool) {
		name := section
		if sub != "" {
			name += "." + sub
		}
		name += "." + key
		if hasValue {
			name += "=" + value
		}
		out = append(out, name)
	})
	return out, err
}

// ValidTag is validTag, for tests to compare with git's own rules.
func ValidTag(name string) error { return validTag(name) }

// PausePackWrite makes a fetch of r call fn at stage: "idx" once it has begun writing
// a pack's index, "pack" just before the pack takes its final name (a crash test kills
// there).
func PausePackWrite(r *Repo, stage string, fn func()) {
	r.packs.pause = func(s string) {
		if s == stage {
			fn()
		}
	}
}

// SpliceCacheTree writes into the index file at path the cache-tree extension of the
// index bytes from, in place of its own, with a fresh checksum: a cache-tree that
// disagrees with the entries. (A test's index names no file "TREE".)
func SpliceCacheTree(path string, from []byte) error {
	cur, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	ext := func(b []byte) (int, int, error) {
		i := bytes.LastIndex(b, []byte("TREE"))
		if i < 0 {
			return 0, 0, errors.New("no cache-tree extension")
		}
		return i, i + 8 + int(binary.BigEndian.Uint32(b[i+4:])), nil
	}
	lo, hi, err := ext(from)
	if err != nil {
		return err
	}
	clo, chi, err := ext(cur)
	if err != nil {
		return err
	}
	out := slices.Concat(cur[:clo], from[lo:hi], cur[chi:len(cur)-20])
	sum := sha1.Sum(out)
	return os.WriteFile(path, append(out, sum[:]...), 0o644)
}

// HashIndexTrees returns a function that computes the index's trees as Status does,
// from the entries and cache-tree read once, taking the cache-tree's hashes when
// useCache is set: for benchmarks.
func HashIndexTrees(r *Repo) (func(useCache bool), error) {
	entries, cached, err := r.readIndex()
	if err != nil {
		return nil, err
	}
	if len(cached) == 0 {
		return nil, errors.New("the index has no valid cache-tree")
	}
	return func(useCache bool) {
		c := cached
		if !useCache {
			c = nil
		}
		hashIndexTrees(entries, c)
	}, nil
}

// SetDirectStat turns DirectStat on or off, for a test that compares both.
func SetDirectStat(on bool) { directStat.Store(on) }
