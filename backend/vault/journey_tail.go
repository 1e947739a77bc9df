package vault

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
)

// JourneyTail reads the newest entries of journey.yaml: those in its last maxBytes
// bytes (the whole file when it is smaller), oldest first, with ParseJourney's
// warnings. An entry cut by the start of the window is left out. It reads the tail only,
// so it stays fast however long the journey has grown; a missing file is empty.
func (v *Vault) JourneyTail(maxBytes int64) ([]Entry, []string, error) {
	f, err := v.root.Open(osName(JourneyPath))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil, nil
	}
	if err != nil {
		return nil, nil, fmt.Errorf("read journey: %w", mapErr(err))
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, nil, fmt.Errorf("read journey: %w", err)
	}
	// One byte more than the window, so that an entry starting right at its edge is
	// recognised by the newline before it.
	start := max(st.Size()-maxBytes-1, 0)
	b := make([]byte, st.Size()-start)
	if _, err := f.ReadAt(b, start); err != nil && !errors.Is(err, io.EOF) {
		return nil, nil, fmt.Errorf("read journey: %w", err)
	}
	if start > 0 {
		b = fromItemStart(b)
	}
	es, warns := ParseJourney(b)
	return es, warns, nil
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
