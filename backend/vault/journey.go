package vault

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"time"

	"gopkg.in/yaml.v3"

	"github.com/memotree/memotree/backend/internal/fsfault"
)

// Entry is one operation in the journey.
type Entry struct {
	Time     time.Time `yaml:"time"`
	Actor    string    `yaml:"actor"` // "user", "agent", "mcp:<client>", "external"
	Op       string    `yaml:"op"`    // the tool or operation
	Entities []string  `yaml:"entities,omitempty"`
	// From is, for a move or rename, the path the file was moved from; Entities then
	// name its new path and From.
	From    string `yaml:"from,omitempty"`
	Args    string `yaml:"args,omitempty"` // the arguments, in short
	Outcome string `yaml:"outcome"`        // "ok" or the error
	Turn    string `yaml:"turn,omitempty"` // the agent turn id: one turn is one change set
	// Session is the chat session (or MCP connection) the turn belongs to.
	Session string `yaml:"session,omitempty"`
}

// AppendJourney appends e to journey.yaml, creating the file if missing, and syncs it.
// It takes the vault lock (see Lock for ctx). A zero e.Time means now, an empty
// e.Outcome means "ok"; e.Actor and e.Op are required. The file is only ever appended
// to: one write per entry, never rewritten.
func (v *Vault) AppendJourney(ctx context.Context, e Entry) error {
	if v.stage != nil {
		return v.stage.appendJourney(e)
	}
	unlock, err := v.Lock(ctx)
	if err != nil {
		return fmt.Errorf("append journey: %w", err)
	}
	defer unlock()
	return v.appendLocked(e)
}

// journal records an operation of Write, Remove or Rename when o.Actor is set. An
// operation the disk refused is not recorded: that record would change the vault
// the failure left as it was, on a disk with no room for it.
func (v *Vault) journal(o WriteOptions, op string, ents []string, args string, opErr error) error {
	return v.journalEntry(o, Entry{Op: op, Entities: ents, Args: args}, opErr)
}

// journalEntry records e (its op, entities, arguments and move) under o's actor, turn
// and session when o.Actor is set, unless the disk refused the operation (see journal).
func (v *Vault) journalEntry(o WriteOptions, e Entry, opErr error) error {
	if o.Actor == "" || fsfault.Is(opErr) {
		return nil
	}
	e.Actor, e.Outcome, e.Turn, e.Session = o.Actor, "ok", o.Turn, o.Session
	if opErr != nil {
		e.Outcome = opErr.Error()
	}
	return v.appendLocked(e)
}

// complete checks an entry given to AppendJourney and fills what it may leave out: a
// zero time is now, an empty outcome "ok".
func (e Entry) complete() (Entry, error) {
	if e.Actor == "" || e.Op == "" {
		return e, errors.New("append journey: actor and op are required")
	}
	if e.Time.IsZero() {
		e.Time = time.Now()
	}
	e.Time = e.Time.Round(0).Truncate(time.Millisecond)
	if e.Outcome == "" {
		e.Outcome = "ok"
	}
	return e, nil
}

// appendLocked appends e; the caller holds the vault lock.
func (v *Vault) appendLocked(e Entry) error {
	e, err := e.complete()
	if err != nil {
		return err
	}
	b, err := encodeEntries([]Entry{e})
	if err != nil {
		return fmt.Errorf("append journey: %w", err)
	}
	if err := v.appendFile(b); err != nil {
		return fmt.Errorf("append journey: %w", err)
	}
	return nil
}

// encodeEntries writes entries as a YAML list, the way journey.yaml holds them.
func encodeEntries(entries []Entry) ([]byte, error) {
	if b, ok := formatEntries(entries); ok {
		return b, nil
	}
	var buf bytes.Buffer
	enc := yaml.NewEncoder(&buf)
	enc.SetIndent(2)
	if err := enc.Encode(entries); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// appendFile appends b to the journey with one write and syncs it. If the file does not
// end with a newline (a torn entry after a crash), a newline goes first so that the
// torn entry cannot swallow this one. A journey that is a symbolic link, or a file of
// several names (a hard link), is not appended to: it would change another file.
func (v *Vault) appendFile(b []byte) error {
	dirs := v.newBatchDirs()
	defer dirs.close()
	_, serr := dirs.lstat(JourneyPath)
	fresh := errors.Is(serr, fs.ErrNotExist)
	if fresh {
		if err := fsfault.Check("create", string(JourneyPath)); err != nil {
			return err
		}
	}
	f, st, err := dirs.openFile(JourneyPath, os.O_RDWR|os.O_APPEND|os.O_CREATE, 0o644)
	if err != nil {
		return mapErr(err)
	}
	defer f.Close()
	if hardLinked(st) {
		return fmt.Errorf("%w: %s has other names (hard links): appending to it would change them too", ErrOutside, JourneyPath)
	}
	if n := st.Size(); n > 0 {
		var last [1]byte
		if _, err := f.ReadAt(last[:], n-1); err != nil {
			return err
		}
		if last[0] != '\n' {
			b = append([]byte{'\n'}, b...)
		}
	}
	err = fsfault.Check("write", string(JourneyPath))
	if err == nil {
		_, err = f.Write(b)
	}
	if err == nil {
		if err = fsfault.Check("sync", string(JourneyPath)); err == nil {
			err = f.Sync()
		}
	}
	if err != nil {
		// A full disk may have taken part of the entry: cut it off again, so that the
		// journey is as it was.
		_ = f.Truncate(st.Size())
		if fresh && st.Size() == 0 {
			_ = dirs.remove(JourneyPath)
		}
		return err
	}
	if fresh {
		// The entry is written and synced; whether the new file's name survives a
		// power cut is all this sync adds, and its failure changes nothing else.
		_ = v.syncDir("")
	}
	return nil
}

// Journey reads and parses journey.yaml; a missing file is an empty journey.
func (v *Vault) Journey() ([]Entry, []string, error) {
	b, err := readRegular(v.root, osName(JourneyPath))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil, nil
	}
	if err != nil {
		return nil, nil, fmt.Errorf("read journey: %w", mapErr(err))
	}
	es, warns := ParseJourney(b)
	return es, warns, nil
}

// ParseJourney parses the content of journey.yaml. It never fails: an entry that does
// not parse or lacks its time, actor, op or outcome (typically the last one, torn by a
// crash) is dropped with a warning naming its line.
func ParseJourney(b []byte) ([]Entry, []string) {
	var all []Entry
	err := yaml.Unmarshal(b, &all)
	if err == nil && allValid(all) {
		return all, nil
	}
	var (
		out   []Entry
		warns []string
	)
	items := splitItems(b)
	if len(items) == 0 && err != nil {
		return nil, []string{fmt.Sprintf("journey.yaml is not a list of entries: %v", err)}
	}
	for _, c := range items {
		var one []Entry
		err := yaml.Unmarshal(c.text, &one)
		switch {
		case err != nil:
			warns = append(warns, fmt.Sprintf("journey.yaml line %d: dropped an entry that does not parse: %v", c.line, err))
		case len(one) == 1 && !valid(one[0]):
			warns = append(warns, fmt.Sprintf("journey.yaml line %d: dropped an incomplete entry", c.line))
		default:
			out = append(out, one...)
		}
	}
	return out, warns
}

func allValid(es []Entry) bool {
	for _, e := range es {
		if !valid(e) {
			return false
		}
	}
	return true
}

func valid(e Entry) bool {
	return !e.Time.IsZero() && e.Actor != "" && e.Op != "" && e.Outcome != ""
}

type chunk struct {
	line int // 1-based line of the chunk's first line
	text []byte
}

// splitItems cuts a YAML sequence into its top-level items: each starts at a line
// beginning with "-" in the first column. Text before the first item (comments) is
// not returned.
func splitItems(b []byte) []chunk {
	var (
		out   []chunk
		start = -1
		first int
	)
	line := 1
	for i := 0; i < len(b); {
		end := bytes.IndexByte(b[i:], '\n')
		if end < 0 {
			end = len(b)
		} else {
			end += i + 1
		}
		if isItemStart(b[i:end]) {
			if start >= 0 {
				out = append(out, chunk{line: first, text: b[start:i]})
			}
			start, first = i, line
		}
		i = end
		line++
	}
	if start >= 0 {
		out = append(out, chunk{line: first, text: b[start:]})
	}
	return out
}

func isItemStart(l []byte) bool {
	return len(l) > 0 && l[0] == '-' && (len(l) == 1 || l[1] == ' ' || l[1] == '\n' || l[1] == '\r')
}
