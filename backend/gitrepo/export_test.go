package gitrepo

import "fmt"

// IndexTreeHash returns the hash of the tree the index would commit, computed in
// memory, for tests to compare with `git write-tree`.
func IndexTreeHash(r *Repo) (string, error) {
	entries, err := r.readIndexFile()
	if err != nil {
		return "", err
	}
	return hashIndexTrees(entries).root().String(), nil
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
