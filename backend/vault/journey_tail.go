package vault

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"runtime/debug"
	"slices"

	"gopkg.in/yaml.v3"
)

// JourneyTail reads the newest entries of journey.yaml: those in its last maxBytes
// bytes (the whole file when it is smaller), oldest first, with ParseJourney's
// warnings. An entry cut by the start of the window is left out. It reads the tail only,
// so it stays fast however long the journey has grown; a missing file is empty.
func (v *Vault) JourneyTail(maxBytes int64) ([]Entry, []string, error) {
	b, err := v.journeyTail(maxBytes)
	if err != nil || len(b) == 0 {
		return nil, nil, err
	}
	es, warns := ParseJourney(b)
	return es, warns, nil
}

// journeyTail reads the whole entries in the last maxBytes bytes of journey.yaml.
func (v *Vault) journeyTail(maxBytes int64) ([]byte, error) {
	b, release, err := v.journeyTailMapped(maxBytes, false)
	release()
	return b, err
}

// journeyTailMapped is journeyTail, with the bytes mapped rather than read when
// mapped is set and the platform allows it; the bytes are valid until release,
// which is never nil. A mapped journey cut short by another program while it is
// read faults: callers read it under debug.SetPanicOnFault (see JourneyLatest).
func (v *Vault) journeyTailMapped(maxBytes int64, mapped bool) (b []byte, release func(), err error) {
	release = func() {}
	f, st, err := openRegular(v.root, osName(JourneyPath))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, release, nil
	}
	if err != nil {
		return nil, release, fmt.Errorf("read journey: %w", mapErr(err))
	}
	defer f.Close()
	// One byte more than the window, so that an entry starting right at its edge is
	// recognised by the newline before it.
	start := max(st.Size()-maxBytes-1, 0)
	ok := false
	if mapped {
		var unmap func()
		if b, unmap, ok = mapTail(f, start, st.Size()); ok {
			release = unmap
		}
	}
	if !ok {
		b = make([]byte, st.Size()-start)
		if _, err := f.ReadAt(b, start); err != nil && !errors.Is(err, io.EOF) {
			return nil, release, fmt.Errorf("read journey: %w", err)
		}
	}
	if start > 0 {
		b = fromItemStart(b)
	}
	return b, release, nil
}

// fromItemStart drops the bytes before the first line that starts a list item, the
// rest of an entry cut by a read that began in its middle.
func fromItemStart(b []byte) []byte {
	for i := 0; i < len(b); {
		nl := bytes.IndexByte(b[i:], '\n')
		if nl < 0 {
			return nil
		}
		i += nl + 1
		if isItemStart(b[i:]) {
			return b[i:]
		}
	}
	return nil
}

// AppendJourneyEntries appends entries given as journey.yaml text (what another copy
// of the vault appended, brought in by a git pull) to journey.yaml. The text must
// parse whole, as ParseJourney reads it, with at least one entry. It takes the vault
// lock (see Lock for ctx); the journey stays append-only.
func (v *Vault) AppendJourneyEntries(ctx context.Context, text []byte) error {
	if v.stage != nil {
		return v.stage.appendJourneyText(text)
	}
	es, warns := ParseJourney(text)
	if len(es) == 0 || len(warns) > 0 {
		return fmt.Errorf("append journey: not whole journey entries: %v", warns)
	}
	unlock, err := v.Lock(ctx)
	if err != nil {
		return fmt.Errorf("append journey: %w", err)
	}
	defer unlock()
	if err := v.appendFile(text); err != nil {
		return fmt.Errorf("append journey: %w", err)
	}
	return nil
}

// OpUndoHunks is the journey operation of a write that puts some hunks of a pending
// change back as committed (gitrepo.UndoHunks): the rest of the change is still the
// work of whoever wrote it, so JourneyLatest looks past it.
const OpUndoHunks = "git_undo_hunks"

// JourneyLatest returns, for each of names, the newest successful entry (outcome ok)
// in the journey's last maxBytes bytes that lists it among its entities, oldest first;
// one entry may stand for several names, and a name never journaled has none. When
// that entry is an external edit (which may be the echo of another MemoTree process's
// write), the newest entry of another actor before it is returned too; when it is an
// undo of hunks (OpUndoHunks), so is the newest entry before it. It reads entries
// newest first, stops once every name is found, and parses only the entries that name
// one, so it stays fast on a long journey.
func (v *Vault) JourneyLatest(maxBytes int64, names []string) (out []Entry, err error) {
	b, release, err := v.journeyTailMapped(maxBytes, true)
	defer release()
	if err != nil || len(b) == 0 {
		return nil, err
	}
	// A journey truncated by another program while mapped faults on the lost pages:
	// that is a panic here, answered by reading it the ordinary way.
	defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
	defer func() {
		if r := recover(); r != nil {
			if _, fault := r.(interface{ Addr() uintptr }); !fault {
				panic(r)
			}
			read, rerr := v.journeyTail(maxBytes)
			if rerr != nil {
				out, err = nil, rerr
				return
			}
			out, err = journeyLatest(read, names)
		}
	}()
	if v.afterJourneyMapped != nil {
		v.afterJourneyMapped()
	}
	return journeyLatest(b, names)
}

// journeyLatest is JourneyLatest over the journey's tail b.
func journeyLatest(b []byte, names []string) ([]Entry, error) {
	// A name written plainly (plainName) in no entry need not be looked for, and a
	// long journey need not be split at all when no name is in it. A journey with
	// escapes might spell a plain name otherwise, so it is read in full.
	escapes := bytes.IndexByte(b, '\\') >= 0
	want := make(map[string]bool, len(names))
	for _, n := range names {
		if !escapes && plainName(n) && !bytes.Contains(b, []byte(n)) {
			continue
		}
		want[n] = true
	}
	if len(want) == 0 {
		return nil, nil
	}
	items := splitItems(b)
	sawExternal, sawUndo := map[string]bool{}, map[string]bool{}
	var out []Entry
	for i := len(items) - 1; i >= 0 && len(want) > 0; i-- {
		if hit, ok := itemNames(items[i].text, want); ok && !hit {
			continue
		}
		var one []Entry
		if yaml.Unmarshal(items[i].text, &one) != nil || len(one) != 1 || !valid(one[0]) || one[0].Outcome != "ok" {
			continue
		}
		hit := false
		external, undo := one[0].Actor == "external", one[0].Op == OpUndoHunks
		for _, e := range one[0].Entities {
			switch {
			case !want[e]:
			case undo && !sawUndo[e]:
				sawUndo[e] = true
				hit = true
			case undo:
			case external && !sawExternal[e]:
				sawExternal[e] = true
				hit = true
			case !external:
				delete(want, e)
				hit = true
			}
		}
		if hit {
			out = append(out, one[0])
		}
	}
	slices.Reverse(out)
	return out, nil
}

// plainName reports whether any YAML writer puts name into the journey byte for byte:
// printable ASCII without quotes or backslashes (nothing to escape), short enough not
// to be folded across lines by a writer that wraps at 80 columns.
func plainName(name string) bool {
	if name == "" || len(name) > 60 {
		return false
	}
	for i := 0; i < len(name); i++ {
		if c := name[i]; c < ' ' || c > '~' || c == '"' || c == '\'' || c == '\\' {
			return false
		}
	}
	return true
}

// itemNames reports whether one journey entry, written in the usual block style, lists
// a wanted name among its entities, without a YAML parser; ok is false when the entry
// is written otherwise (the caller parses it then).
func itemNames(item []byte, want map[string]bool) (hit, ok bool) {
	const key = "\n  entities:\n"
	i := bytes.Index(item, []byte(key))
	if i < 0 {
		return false, !bytes.Contains(item, []byte("entities")) // flow style or unusual
	}
	rest := item[i+len(key):]
	for len(rest) > 0 {
		line := rest
		if nl := bytes.IndexByte(rest, '\n'); nl >= 0 {
			line, rest = rest[:nl], rest[nl+1:]
		} else {
			rest = nil
		}
		v, found := bytes.CutPrefix(line, []byte("    - "))
		if !found {
			break
		}
		if len(v) == 0 || v[0] == '"' || v[0] == '\'' || bytes.ContainsAny(v, "#:") {
			return false, false // quoted or unusual: let YAML read it
		}
		if want[string(v)] {
			return true, true
		}
	}
	return false, true
}
