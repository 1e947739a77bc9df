package gitrepo

import "strings"

// workRules are the settings by which git reads the working tree, from its
// configuration: whether it trusts the executable bit (core.fileMode, false where the
// file system cannot keep it: exFAT, a Windows drive under WSL, Windows; git then
// ignores the bit in status and keeps the index's mode when it stages a file), and
// whether it makes symbolic links (core.symlinks, false where it cannot: a link is then
// checked out as a plain file holding its target, which status takes for the link and
// a commit stages as a link), and how it stores line endings (core.autocrlf and the
// attributes, see eol.go).
type workRules struct {
	execBit  bool
	symlinks bool
	autocrlf string // "true", "input" or "false"
	attrs    *attrSource
}

// workRules reads the rules from git's configuration.
func (r *Repo) workRules() (*workRules, error) {
	cfg, err := r.config()
	if err != nil {
		return nil, err
	}
	crlf, set := cfg["core.autocrlf"]
	return &workRules{
		execBit:  configBool(cfg, "core.filemode", true),
		symlinks: configBool(cfg, "core.symlinks", true),
		autocrlf: autoCRLF(crlf, set),
		attrs:    newAttrSource(r.dir, r.gitDir(), cfg["core.attributesfile"]),
	}, nil
}

// configBool reads a boolean of git's configuration (true, yes, on, 1; false, no,
// off, 0, or empty), def when unset.
func configBool(cfg map[string]string, key string, def bool) bool {
	v, ok := cfg[key]
	if !ok {
		return def
	}
	switch strings.ToLower(strings.TrimSpace(v)) {
	case "false", "no", "off", "0", "":
		return false
	}
	return true
}
