package gitrepo

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/go-git/go-git/v5/plumbing"

	"github.com/memotree/memotree/backend/vpath"
)

// Blame: who last changed each line of a file, from `git blame --porcelain -M -w`
// (lines moved within the file keep their commit, whitespace-only changes do not
// count, renames are followed), with each commit's provenance trailers read, and the
// lines of a pending change named by its change set.

// The trailers MemoTree writes into its commits (see Trailers).
const (
	TrailerActor = "MemoTree-Actor"
	TrailerTurn  = "MemoTree-Turn"
)

// uncommittedHash is the commit git blame gives lines not committed yet.
const uncommittedHash = "0000000000000000000000000000000000000000"

// BlameOptions say which file to blame and what its pending change is.
type BlameOptions struct {
	// Path is the file in the working tree (in HEAD when it was deleted).
	Path vpath.Path
	// From is the path in HEAD of a pending rename of Path, or "".
	From vpath.Path
	// ChangeSet is the ID of the change set of Path's pending change (see
	// GroupChanges): the actor of its uncommitted lines. "" names outside edits.
	ChangeSet string
}

// BlameLine is one line of a file and the commit that last changed it.
type BlameLine struct {
	Line int    `json:"line"`
	Text string `json:"text"` // without its line break
	// Commit is the full hash of the commit, "" for a line of the pending change.
	Commit string `json:"commit"`
}

// BlameCommit describes a commit that lines are blamed on, or the pending change.
type BlameCommit struct {
	Hash    string    `json:"hash"` // "" for the pending change
	Date    time.Time `json:"date"` // the author's date; for the pending change, the file's modification time
	Author  string    `json:"author"`
	Email   string    `json:"email,omitempty"`
	Summary string    `json:"summary,omitempty"`
	// Actor is who made the lines: the MemoTree-Actor trailer of a commit MemoTree
	// made ("agent", "user", "mcp:<client>"... comma-separated when the commit holds
	// several change sets), else its author's name; for the pending change, its change
	// set's ID.
	Actor string `json:"actor"`
	// Turn is the MemoTree-Turn trailer (the agent turns or MCP sessions), or "".
	Turn string `json:"turn,omitempty"`
	// Path and PreviousPath are the file's path in this commit and in its parent (they
	// differ where the commit renamed it; PreviousPath is "" for a commit that added
	// the file): what the commit's diff of the file compares.
	Path         vpath.Path `json:"path,omitempty"`
	Previous     string     `json:"previous,omitempty"` // the parent commit
	PreviousPath vpath.Path `json:"previous_path,omitempty"`
}

// Blame is the blame of one file.
type Blame struct {
	Path  vpath.Path  `json:"path"`
	Lines []BlameLine `json:"lines"`
	// Commits describe the commits of Lines, by hash; the pending change's lines are
	// described by Pending.
	Commits map[string]BlameCommit `json:"commits"`
	Pending *BlameCommit           `json:"pending,omitempty"`
	// Binary and TooLarge say why a file has no lines.
	Binary   bool `json:"binary,omitempty"`
	TooLarge bool `json:"too_large,omitempty"`
}

// Blame says who last changed each line of a file, as `git blame --porcelain -M -w`
// does, with each commit's actor read from its trailers; the lines of a pending change
// are blamed on its change set. A file not in HEAD is all pending; a deleted file is
// blamed as it is in HEAD. It runs the git command (ErrNoGit without it).
func (r *Repo) Blame(ctx context.Context, o BlameOptions) (Blame, error) {
	fail := func(err error) (Blame, error) { return Blame{}, fmt.Errorf("git blame %s: %w", o.Path, err) }
	from := o.Path
	if o.From != "" {
		from = o.From
	}
	if err := checkPaths([]vpath.Path{from, o.Path}); err != nil {
		return fail(err)
	}
	_, head, err := r.headTree()
	if err != nil {
		return fail(err)
	}
	old, inHead, err := head.file(from)
	if err != nil {
		return fail(err)
	}
	work, onDisk, err := r.readWork(o.Path)
	if err != nil {
		return fail(err)
	}
	out := Blame{Path: o.Path, Lines: []BlameLine{}, Commits: map[string]BlameCommit{}}
	data := work
	if !onDisk {
		data = old.data
	}
	switch {
	case !onDisk && !inHead:
		return fail(fmt.Errorf("%w: no such file", ErrInvalidPath))
	case isBinary(data):
		out.Binary = true
		return out, nil
	case len(data) > MaxDiffBytes:
		out.TooLarge = true
		return out, nil
	case !inHead: // new: every line is the pending change's
		for i, l := range rawLines(string(data)) {
			out.Lines = append(out.Lines, BlameLine{Line: i + 1, Text: lineText(l)})
		}
		out.Pending = r.pendingCommit(o)
		return out, nil
	}
	args := []string{"--porcelain", "-M", "-w", "--no-textconv"}
	switch {
	case !onDisk:
		args = append(args, "HEAD")
	case o.From != "":
		args = append(args, "--contents", filepath.Join(r.dir, filepath.FromSlash(string(o.Path))))
	}
	raw, err := r.runGitBlame(ctx, append(args, "--", string(from))...)
	if err != nil {
		return fail(err)
	}
	if err := r.parseBlame(raw, &out); err != nil {
		return fail(err)
	}
	for _, l := range out.Lines {
		if l.Commit == "" {
			out.Pending = r.pendingCommit(o)
			break
		}
	}
	return out, nil
}

// pendingCommit describes the lines of o's pending change.
func (r *Repo) pendingCommit(o BlameOptions) *BlameCommit {
	c := &BlameCommit{Author: "Not Committed Yet", Actor: o.ChangeSet, Path: o.Path, PreviousPath: o.From}
	if c.Actor == "" {
		c.Actor = OutsideID
	}
	if at, ok := r.Stamp(o.Path); ok {
		c.Date = at
	}
	return c
}

// lineText is a line without its line break (LF or CRLF).
func lineText(raw string) string {
	raw = strings.TrimSuffix(raw, "\n")
	return strings.TrimSuffix(raw, "\r")
}

// parseBlame reads git blame's porcelain output into out: a header line per line
// ("<hash> <orig> <final> [<count>]"), the commit's fields the first time it appears,
// and the line itself after a tab.
func (r *Repo) parseBlame(raw []byte, out *Blame) error {
	sc := bufio.NewScanner(bytes.NewReader(raw))
	sc.Buffer(make([]byte, 64<<10), MaxDiffBytes+1024)
	var cur *BlameCommit
	var hash string
	for sc.Scan() {
		line := sc.Text()
		if strings.HasPrefix(line, "\t") {
			if hash == "" {
				return errors.New("unexpected line in git blame's output")
			}
			commit := hash
			if hash == uncommittedHash {
				commit = ""
			}
			out.Lines = append(out.Lines, BlameLine{Line: len(out.Lines) + 1, Text: strings.TrimSuffix(line[1:], "\r"), Commit: commit})
			continue
		}
		key, val, _ := strings.Cut(line, " ")
		if len(key) == 40 && plumbing.IsHash(key) {
			hash = key
			if hash == uncommittedHash {
				cur = nil
				continue
			}
			if c, ok := out.Commits[hash]; ok {
				cur = &c
			} else {
				cur = &BlameCommit{Hash: hash}
				out.Commits[hash] = *cur
			}
			continue
		}
		if cur == nil {
			continue
		}
		switch key {
		case "author":
			cur.Author = val
		case "author-mail":
			cur.Email = strings.TrimSuffix(strings.TrimPrefix(val, "<"), ">")
		case "author-time":
			if s, err := strconv.ParseInt(val, 10, 64); err == nil {
				cur.Date = time.Unix(s, 0).UTC()
			}
		case "author-tz":
			cur.Date = cur.Date.In(tzOf(val))
		case "summary":
			cur.Summary = val
		case "previous":
			prev, p, _ := strings.Cut(val, " ")
			cur.Previous, cur.PreviousPath = prev, vpath.Path(unquoteC(p))
		case "filename":
			cur.Path = vpath.Path(unquoteC(val))
		}
		out.Commits[cur.Hash] = *cur
	}
	if err := sc.Err(); err != nil {
		return fmt.Errorf("read git blame's output: %w", err)
	}
	for h, c := range out.Commits {
		obj, err := r.repo.CommitObject(plumbing.NewHash(h))
		if err != nil {
			return fmt.Errorf("read commit %s: %w", h, err)
		}
		tr := commitOf(obj, nil).Trailers
		c.Actor, c.Turn = tr[TrailerActor], tr[TrailerTurn]
		if c.Actor == "" {
			c.Actor = c.Author
		}
		out.Commits[h] = c
	}
	return nil
}

// tzOf reads a time zone such as "+0200" or "-0530".
func tzOf(s string) *time.Location {
	if len(s) != 5 {
		return time.UTC
	}
	h, err1 := strconv.Atoi(s[1:3])
	m, err2 := strconv.Atoi(s[3:5])
	if err1 != nil || err2 != nil {
		return time.UTC
	}
	off := (h*60 + m) * 60
	if s[0] == '-' {
		off = -off
	}
	return time.FixedZone(s, off)
}

// unquoteC undoes git's quoting of a path with special characters ("a\"b", octal
// escapes for bytes above 0x7f unless core.quotePath is off).
func unquoteC(s string) string {
	if len(s) < 2 || s[0] != '"' || s[len(s)-1] != '"' {
		return s
	}
	s = s[1 : len(s)-1]
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c != '\\' || i+1 >= len(s) {
			b.WriteByte(c)
			continue
		}
		i++
		switch e := s[i]; e {
		case 'n':
			b.WriteByte('\n')
		case 't':
			b.WriteByte('\t')
		case 'a', 'b', 'f', 'r', 'v':
			b.WriteByte(map[byte]byte{'a': 7, 'b': 8, 'f': 12, 'r': 13, 'v': 11}[e])
		case '0', '1', '2', '3':
			if i+2 < len(s) {
				if v, err := strconv.ParseUint(s[i:i+3], 8, 8); err == nil {
					b.WriteByte(byte(v))
					i += 2
					continue
				}
			}
			b.WriteByte(e)
		default:
			b.WriteByte(e)
		}
	}
	return b.String()
}

// CommitFileDiff is the change a commit made to one file: the file at path in the
// commit rev against previousPath (path when "") in its first parent, in hunks
// numbered as FileDiff numbers them (none can be undone). A file the parent lacks, or
// a commit without a parent, compares with nothing.
func (r *Repo) CommitFileDiff(ctx context.Context, rev string, path, previousPath vpath.Path) (FileDiff, error) {
	fail := func(err error) (FileDiff, error) {
		return FileDiff{}, fmt.Errorf("git show %s -- %s: %w", rev, path, err)
	}
	if previousPath == "" {
		previousPath = path
	}
	if err := checkPaths([]vpath.Path{path, previousPath}); err != nil {
		return fail(err)
	}
	if err := checkRevision(rev); err != nil {
		return fail(err)
	}
	h, err := r.repo.ResolveRevision(plumbing.Revision(rev))
	if err != nil {
		return fail(fmt.Errorf("%w: %s", ErrNoRevision, rev))
	}
	c, err := r.repo.CommitObject(*h)
	if err != nil {
		return fail(fmt.Errorf("%w: %s is not a commit", ErrNoRevision, rev))
	}
	cur, _, err := r.fileAt(ctx, path, h.String())
	if err != nil {
		return fail(err)
	}
	var old []byte
	if c.NumParents() > 0 {
		if old, _, err = r.fileAt(ctx, previousPath, c.ParentHashes[0].String()); err != nil {
			return fail(err)
		}
	}
	out := FileDiff{Path: path, Hunks: []Hunk{}}
	if previousPath != path {
		out.From = previousPath
	}
	switch {
	case isBinary(old) || isBinary(cur):
		out.Binary = true
	case len(old) > MaxDiffBytes || len(cur) > MaxDiffBytes:
		out.TooLarge = true
	default:
		out.Hunks = DiffText(string(old), string(cur), 3)
		out.Added, out.Deleted = LineStat(string(old), string(cur))
		if path.IsNote() {
			frontMatterHunks(out.Hunks, old, cur)
		}
	}
	return out, nil
}
