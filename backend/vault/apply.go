package vault

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"sort"
	"time"

	"gopkg.in/yaml.v3"

	"github.com/memotree/memotree/backend/vpath"
)

// Change is one file operation of a batch given to Apply.
type Change struct {
	Path vpath.Path
	// Data is the new content (ignored when Delete is set).
	Data []byte
	// Delete removes the file instead of writing it.
	Delete bool
	// CreateOnly fails the whole batch with ErrExists if the file exists.
	CreateOnly bool
	// IfHash fails the whole batch with ErrConflict unless the file's content has this
	// Hash ("" means no check; for Delete, the file must then merely exist or not).
	IfHash Hash
}

// intentName is the roll-forward log of a batch in progress, inside .memotree.
const intentName = "intent.json"

// intent is what survives a crash between the first and the last rename of a batch:
// once it is durable the batch is decided, and the next Open finishes it.
type intent struct {
	Steps []step `json:"steps"`
}

type step struct {
	Temp   vpath.Path `json:"temp,omitempty"` // the synced new content, or "" for a delete
	Target vpath.Path `json:"target"`
}

// Apply makes a batch of changes all or nothing. Under the vault lock it first checks
// every precondition (content paths, CreateOnly, IfHash) and writes nothing if one
// fails. It then writes each new content to a temporary file beside its target, makes
// them durable together, records the intent, and only then replaces and removes the
// targets; a crash after the intent is recorded is finished by the next Open (see
// Recover), a crash before leaves the vault as it was. With o.Actor set, one journey
// entry per changed file is appended in one write. It returns the new content hashes,
// "" for deletes.
func (v *Vault) Apply(ctx context.Context, changes []Change, o WriteOptions) ([]Hash, error) {
	unlock, err := v.Lock(ctx)
	if err != nil {
		return nil, fmt.Errorf("apply %d changes: %w", len(changes), err)
	}
	defer unlock()
	targets, err := v.checkBatch(changes)
	if err != nil {
		return nil, err
	}
	hashes, steps, err := v.stageBatch(changes, targets)
	if err != nil {
		return nil, err
	}
	if err := v.commitBatch(steps); err != nil {
		return nil, err
	}
	for i, c := range changes {
		v.own.record(c.Path, hashes[i])
		v.own.record(targets[i], hashes[i])
	}
	if err := v.journalBatch(changes, o); err != nil {
		return hashes, fmt.Errorf("apply %d changes: written, but %w", len(changes), err)
	}
	return hashes, nil
}

// checkBatch validates every change under the lock and returns the paths finally
// written (symbolic links followed).
func (v *Vault) checkBatch(changes []Change) ([]vpath.Path, error) {
	seen := map[vpath.Path]bool{}
	targets := make([]vpath.Path, len(changes))
	for i, c := range changes {
		if err := checkContent(c.Path); err != nil {
			return nil, pathErr(c.Path, err)
		}
		t, err := v.resolve(c.Path)
		if err != nil {
			return nil, pathErr(c.Path, err)
		}
		if seen[t] {
			return nil, pathErr(c.Path, errors.New("changed twice in one batch"))
		}
		seen[t], targets[i] = true, t
		st, err := v.root.Stat(osName(t))
		exists := err == nil
		switch {
		case err != nil && !errors.Is(err, fs.ErrNotExist):
			return nil, pathErr(c.Path, mapErr(err))
		case exists && st.IsDir():
			return nil, pathErr(c.Path, fmt.Errorf("%w: a folder has this name", ErrExists))
		case c.CreateOnly && exists:
			return nil, pathErr(c.Path, ErrExists)
		case c.IfHash != "":
			if err := v.checkHash(t, c.IfHash); err != nil {
				return nil, pathErr(c.Path, err)
			}
		}
	}
	return targets, nil
}

// stageBatch writes every new content to a temporary file and makes them all durable.
// On failure it removes what it wrote.
func (v *Vault) stageBatch(changes []Change, targets []vpath.Path) ([]Hash, []step, error) {
	hashes := make([]Hash, len(changes))
	steps := make([]step, 0, len(changes))
	ok := false
	defer func() {
		if !ok {
			for _, s := range steps {
				if s.Temp != "" {
					_ = v.root.Remove(osName(s.Temp))
				}
			}
		}
	}()
	for i, c := range changes {
		if c.Delete {
			steps = append(steps, step{Target: targets[i]})
			continue
		}
		tmp, err := v.writeTemp(targets[i], c.Data)
		if err != nil {
			return nil, nil, pathErr(c.Path, err)
		}
		steps = append(steps, step{Temp: tmp, Target: targets[i]})
		hashes[i] = HashOf(c.Data)
	}
	if err := syncAll(v, steps); err != nil {
		return nil, nil, fmt.Errorf("apply: %w", err)
	}
	ok = true
	return hashes, steps, nil
}

// writeTemp writes data, unsynced, to a new temporary file beside target, with the
// mode of the file it will replace.
func (v *Vault) writeTemp(target vpath.Path, data []byte) (vpath.Path, error) {
	dir := target.Dir()
	if err := v.root.MkdirAll(osName(dir), 0o755); err != nil {
		return "", fmt.Errorf("create folder %s: %w", dir, mapErr(err))
	}
	perm, exact := fs.FileMode(0o644), false
	if st, err := v.root.Stat(osName(target)); err == nil {
		perm, exact = st.Mode().Perm(), true
	}
	tmp := dir.Join(TempPrefix + rand.Text())
	f, err := v.root.OpenFile(osName(tmp), os.O_WRONLY|os.O_CREATE|os.O_EXCL, perm)
	if err != nil {
		return "", fmt.Errorf("create temporary file: %w", mapErr(err))
	}
	if exact {
		err = f.Chmod(perm)
	}
	if err == nil {
		_, err = f.Write(data)
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		_ = v.root.Remove(osName(tmp))
		return "", fmt.Errorf("write temporary file: %w", err)
	}
	return tmp, nil
}

// commitBatch records the intent durably, applies every step, and clears the intent.
func (v *Vault) commitBatch(steps []step) error {
	b, err := json.Marshal(intent{Steps: steps})
	if err != nil {
		return fmt.Errorf("apply: %w", err)
	}
	if err := v.WriteInternal(intentName, b); err != nil {
		return fmt.Errorf("apply: record intent: %w", err)
	}
	if err := v.finish(steps); err != nil {
		// The intent stays: the next Open finishes what is left.
		return fmt.Errorf("apply: %w (the next open of the vault finishes the batch)", err)
	}
	if err := v.RemoveInternal(intentName); err != nil {
		return fmt.Errorf("apply: clear intent: %w", err)
	}
	return nil
}

// finish performs the steps of a decided batch; it is idempotent, so that recovery
// can run it again after a crash in the middle.
func (v *Vault) finish(steps []step) error {
	dirs := map[vpath.Path]bool{}
	for _, s := range steps {
		dirs[s.Target.Dir()] = true
		if s.Temp == "" {
			if err := v.root.Remove(osName(s.Target)); err != nil && !errors.Is(err, fs.ErrNotExist) {
				return fmt.Errorf("remove %s: %w", s.Target, mapErr(err))
			}
			continue
		}
		err := v.root.Rename(osName(s.Temp), osName(s.Target))
		if errors.Is(err, fs.ErrNotExist) {
			continue // already moved before a crash
		}
		if err != nil {
			return fmt.Errorf("replace %s: %w", s.Target, mapErr(err))
		}
	}
	names := make([]string, 0, len(dirs))
	for d := range dirs {
		names = append(names, string(d))
	}
	sort.Strings(names)
	for _, d := range names {
		if err := v.syncDir(vpath.Path(d)); err != nil {
			return err
		}
	}
	return nil
}

// Recover finishes a batch that a crash interrupted after its intent was recorded, and
// reports whether there was one. Open calls it; it takes the vault lock.
func (v *Vault) Recover(ctx context.Context) (bool, error) {
	b, err := v.ReadInternal(intentName)
	if err != nil {
		if errors.Is(err, ErrNotFound) {
			return false, nil
		}
		return false, fmt.Errorf("recover: %w", err)
	}
	unlock, err := v.Lock(ctx)
	if err != nil {
		return false, fmt.Errorf("recover: %w", err)
	}
	defer unlock()
	b, err = v.ReadInternal(intentName) // another process may have finished it meanwhile
	if errors.Is(err, ErrNotFound) {
		return false, nil
	}
	var in intent
	if err != nil || json.Unmarshal(b, &in) != nil {
		// A torn intent was never durable, so its batch was never decided: drop it.
		return false, v.RemoveInternal(intentName)
	}
	for _, s := range in.Steps {
		if checkContent(s.Target) != nil || (s.Temp != "" && !isTemp(s.Temp)) {
			return false, fmt.Errorf("recover: the intent names %s, which is not content: left as is", s.Target)
		}
	}
	if err := v.finish(in.Steps); err != nil {
		return false, fmt.Errorf("recover: %w", err)
	}
	return true, v.RemoveInternal(intentName)
}

// pathErr names the file of a batch that failed; errors.As to *fs.PathError gives it.
func pathErr(p vpath.Path, err error) error {
	return &fs.PathError{Op: "apply", Path: string(p), Err: err}
}

func isTemp(p vpath.Path) bool { return bytes.HasPrefix([]byte(p.Base()), []byte(TempPrefix)) }

// journalBatch appends one entry per change, in one write.
func (v *Vault) journalBatch(changes []Change, o WriteOptions) error {
	if o.Actor == "" {
		return nil
	}
	now := time.Now().Round(0).Truncate(time.Millisecond)
	entries := make([]Entry, len(changes))
	for i, c := range changes {
		op := o.Op
		if op == "" {
			op = "write"
			if c.Delete {
				op = "delete"
			}
		}
		entries[i] = Entry{Time: now, Actor: o.Actor, Op: op, Entities: []string{string(c.Path)}, Outcome: "ok"}
	}
	var buf bytes.Buffer
	enc := yaml.NewEncoder(&buf)
	enc.SetIndent(2)
	if err := enc.Encode(entries); err != nil {
		return fmt.Errorf("append journey: %w", err)
	}
	if err := v.appendFile(buf.Bytes()); err != nil {
		return fmt.Errorf("append journey: %w", err)
	}
	return nil
}
