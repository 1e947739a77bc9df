package gitrepo

import (
	"bytes"
	"crypto/sha1"
	"encoding/binary"
	"sort"
	"time"

	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/format/index"
)

// A commit changes a handful of the index's entries. go-git decodes every entry into
// objects (reading each field through reflection), sorts them and encodes them all
// again; at 10k notes that was a third of a commit's time. spliceIndex copies the
// bytes of the entries that stay as they are and encodes only the new ones, exactly
// as go-git's encoder does (TestSpliceIndexAsGoGit compares the two byte for byte).
// Like go-git's encoder it writes no extensions: the cached trees and the rest are
// dropped, and git rebuilds them. Index version 4 (names stored as prefixes of the
// previous one), an index that is not sorted, a split or sparse index, or one whose
// checksum is wrong are left to go-git: ok false. A kept entry that racy says is
// racily clean and differs from its file is copied with its size set to 0 (racy.go).

// spliceIndex returns the index file raw with the entries named in set replaced (nil
// drops a path, and every stage of a named path goes), as updateIndex computes them,
// and the racily clean entries racy finds smudged (nil finds none).
func spliceIndex(raw []byte, set map[string]*index.Entry, racy *racyCheck) (out []byte, ok bool, err error) {
	const header, fixed = 12, 62
	if len(raw) < header+20 || string(raw[:4]) != "DIRC" {
		return nil, false, nil
	}
	version := binary.BigEndian.Uint32(raw[4:8])
	if version != 2 && version != 3 {
		return nil, false, nil
	}
	end := len(raw) - sha1.Size
	if sum := sha1.Sum(raw[:end]); !bytes.Equal(sum[:], raw[end:]) {
		return nil, false, nil // go-git says what is wrong
	}
	n := int(binary.BigEndian.Uint32(raw[8:12]))
	if n > end/fixed {
		return nil, false, nil
	}
	type span struct {
		start, end int
		name       string
		smudge     bool
	}
	kept := make([]span, 0, n)
	folders := setFolders(set)
	pos, prev := header, ""
	for range n {
		if pos+fixed > end {
			return nil, false, nil
		}
		start := pos
		mode := filemode.FileMode(binary.BigEndian.Uint32(raw[pos+24:]))
		flags := binary.BigEndian.Uint16(raw[pos+60:])
		var ext uint16
		pos += fixed
		if flags&0x4000 != 0 {
			if version < 3 || pos+2 > end {
				return nil, false, nil
			}
			ext = binary.BigEndian.Uint16(raw[pos:])
			pos += 2
		}
		nul := bytes.IndexByte(raw[pos:end], 0)
		if nul < 0 {
			return nil, false, nil
		}
		name := string(raw[pos : pos+nul])
		pos = start + (pos-start+nul+8)&^7
		if pos > end || name < prev {
			return nil, false, nil
		}
		prev = name
		_, named := set[name]
		gone := named || displaced(name, set, folders)
		if gone && mode == filemode.Submodule && folders[name] {
			return nil, false, insideSubmodule(name)
		}
		if !gone {
			kept = append(kept, span{start, pos, name, racy.racy(binary.BigEndian.Uint32(raw[start+8:])) &&
				racy.smudge(rawEntry(raw[start:], name, flags, ext))})
		}
	}
	for pos+8 <= end { // the extensions: a split or sparse index goes to go-git
		if sig := string(raw[pos : pos+4]); sig == "link" || sig == "sdir" {
			return nil, false, nil
		}
		pos += 8 + int(binary.BigEndian.Uint32(raw[pos+4:]))
	}
	if pos != end {
		return nil, false, nil // extensions that do not fill the file: go-git says what is wrong
	}
	var added []*index.Entry
	for _, e := range set {
		if e != nil {
			added = append(added, e)
		}
	}
	sort.Slice(added, func(i, j int) bool { return added[i].Name < added[j].Name })
	out = make([]byte, 0, len(raw)+len(added)*(fixed+8+64))
	out = append(out, "DIRC"...)
	out = binary.BigEndian.AppendUint32(out, version)
	out = binary.BigEndian.AppendUint32(out, uint32(len(kept)+len(added)))
	i := 0
	for _, k := range kept {
		for ; i < len(added) && added[i].Name < k.name; i++ {
			if out, ok = appendEntry(out, added[i], version); !ok {
				return nil, false, nil
			}
		}
		out = append(out, raw[k.start:k.end]...)
		if k.smudge {
			clear(out[len(out)-(k.end-k.start)+36:][:4])
		}
	}
	for ; i < len(added); i++ {
		if out, ok = appendEntry(out, added[i], version); !ok {
			return nil, false, nil
		}
	}
	sum := sha1.Sum(out)
	return append(out, sum[:]...), true, nil
}

// rawEntry is what the racy check reads of the entry at the start of b, an index
// of version 2 or 3, whose name, flags and extended flags were read already.
func rawEntry(b []byte, name string, flags, ext uint16) *ientry {
	e := &ientry{name: name, mode: filemode.FileMode(binary.BigEndian.Uint32(b[24:])), size: binary.BigEndian.Uint32(b[36:]),
		mtimeS: binary.BigEndian.Uint32(b[8:]), mtimeN: binary.BigEndian.Uint32(b[12:]), ino: binary.BigEndian.Uint32(b[20:]),
		stage: uint8(flags>>12) & 3, intentToAdd: ext&0x2000 != 0, skipWorktree: ext&0x4000 != 0}
	e.ctimeS, e.ctimeN = binary.BigEndian.Uint32(b[0:]), binary.BigEndian.Uint32(b[4:])
	copy(e.hash[:], b[40:60])
	return e
}

// appendEntry encodes e as go-git's encoder does for index version 2 or 3; ok is
// false for what that encoder would refuse or write otherwise (a time before 1970,
// extended flags in version 2): go-git then writes the whole index.
func appendEntry(out []byte, e *index.Entry, version uint32) (_ []byte, ok bool) {
	start := len(out)
	for _, t := range [2]time.Time{e.CreatedAt, e.ModifiedAt} {
		var s, ns uint32
		if !t.IsZero() {
			if t.Unix() < 0 || t.UnixNano() < 0 {
				return nil, false
			}
			s, ns = uint32(t.Unix()), uint32(t.Nanosecond())
		}
		out = binary.BigEndian.AppendUint32(out, s)
		out = binary.BigEndian.AppendUint32(out, ns)
	}
	for _, v := range [...]uint32{e.Dev, e.Inode, uint32(e.Mode), e.UID, e.GID, e.Size} {
		out = binary.BigEndian.AppendUint32(out, v)
	}
	out = append(out, e.Hash[:]...)
	flags := uint16(e.Stage&0x3)<<12 | uint16(min(len(e.Name), 0xfff))
	if e.IntentToAdd || e.SkipWorktree {
		if version < 3 {
			return nil, false
		}
		var ext uint16
		if e.IntentToAdd {
			ext |= 1 << 13
		}
		if e.SkipWorktree {
			ext |= 1 << 14
		}
		out = binary.BigEndian.AppendUint16(out, flags|0x4000)
		out = binary.BigEndian.AppendUint16(out, ext)
	} else {
		out = binary.BigEndian.AppendUint16(out, flags)
	}
	out = append(out, e.Name...)
	return append(out, make([]byte, 8-(len(out)-start)%8)...), true
}
