package gitrepo

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sort"

	git "github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/format/index"
	"github.com/go-git/go-git/v5/plumbing/object"

	"github.com/memotree/memotree/backend/internal/regular"
	"github.com/memotree/memotree/backend/vault"
	"github.com/memotree/memotree/backend/vpath"
)

// The outcomes of a pull.
const (
	PullUpToDate    = "up_to_date"   // nothing new on the remote
	PullFastForward = "fast_forward" // the branch moved to the remote's commit
	PullMerged      = "merged"       // a merge commit joins both histories
	PullConflict    = "conflict"     // both changed the same lines: resolve, then commit
)

// PullResult says what a pull did.
type PullResult struct {
	Remote  string `json:"remote"`
	Branch  string `json:"branch"`
	Outcome string `json:"outcome"`
	// Head is the branch's commit afterwards.
	Head string `json:"head"`
	// Updated are the working-tree files the pull wrote or removed.
	Updated []vpath.Path `json:"updated"`
	// Conflicts are the files where both sides changed the same lines: they hold both
	// versions between conflict markers (or, for a file deleted on one side and edited
	// on the other, the edited version), are unmerged in the index, and wait for the
	// person (Conflict, Resolve).
	Conflicts []vpath.Path `json:"conflicts"`
}

// Pull fetches the remote's copy of the checked-out branch and brings it in without
// losing anything on either side. Files the remote changed are merged, line by line
// (a note's front matter property by property), with the working tree (uncommitted
// edits included) and with the local commits: when the branch has no commits of its
// own it moves to the remote's commit (fast forward); otherwise a merge commit joins
// both histories. Where both sides changed the same lines, the file keeps both
// versions between conflict markers and the index holds its three sides as unmerged
// entries (base, this copy's version before the pull, the remote's), as git leaves a
// conflict, so that git and Resolve see the same thing; a file deleted on one side and
// changed on the other keeps the changed version. If that happens in committed
// content, the merge waits (PullConflict, MERGE_HEAD) and the next Commit, once every
// conflict is resolved, completes it. A pull is refused while conflicts wait
// (ErrMerging, ErrUnresolved), and when the remote's branch was rewritten
// (ErrRewritten). Working-tree writes go through the vault, atomically, as one batch.
func (r *Repo) Pull(ctx context.Context, o SyncOptions) (PullResult, error) {
	br, err := r.branch()
	if err != nil {
		return PullResult{}, fmt.Errorf("git pull: %w", err)
	}
	if err := r.pullWaits(); err != nil {
		return PullResult{}, fmt.Errorf("git pull: %w", err)
	}
	res := PullResult{Remote: o.remoteName(), Branch: br.Short(), Outcome: PullUpToDate, Updated: []vpath.Path{}, Conflicts: []vpath.Path{}}
	tracking := plumbing.NewRemoteReferenceName(res.Remote, res.Branch)
	before, _ := r.repo.Reference(tracking, true) // nil before the first fetch
	theirs, ok, err := r.fetch(ctx, o, br)
	if err != nil {
		return res, fmt.Errorf("git pull: %w", err)
	}
	head := plumbing.ZeroHash
	if ref, err := r.repo.Reference(br, true); err == nil {
		head = ref.Hash()
	}
	res.Head = head.String()
	if !ok || theirs == head {
		return res, nil
	}
	if err := r.checkRewritten(ctx, before, theirs, head, tracking); err != nil {
		return res, wrapPull(err)
	}
	p, err := r.plan(head, theirs)
	if err != nil || p.upToDate {
		return res, wrapPull(err)
	}
	if !p.fastForward { // a merge commit will be needed: refuse before writing a file
		if _, _, err := r.signatures(nil); err != nil {
			return res, wrapPull(err)
		}
	}
	label := res.Remote + "/" + res.Branch
	m, err := r.mergeFiles(ctx, p, label)
	if err != nil {
		return res, wrapPull(err)
	}
	res.Updated, res.Conflicts = m.updated, m.conflicts
	waits := m.indexConflict && !p.fastForward
	if err := r.apply(ctx, m, waits); err != nil {
		return res, wrapPull(err)
	}
	if waits {
		if err := r.startMerge(theirs, "Merge "+label); err != nil {
			return res, wrapPull(err)
		}
		res.Outcome = PullConflict
		return res, nil
	}
	if err := r.moveBranch(ctx, br, p.fastForward, head, theirs, label, m, &res); err != nil {
		return res, wrapPull(err)
	}
	return res, nil
}

// moveBranch ends a pull that needs no waiting: the branch moves to theirs (a fast
// forward, provided it still holds head) or to a merge commit of both, under the
// vault lock and as git moves it (updateRef); then the conflicts of uncommitted edits
// with the remote's changes are recorded, as a `git stash pop` that conflicts leaves
// them: unmerged entries over the new HEAD.
func (r *Repo) moveBranch(ctx context.Context, br plumbing.ReferenceName, fastForward bool, head, theirs plumbing.Hash, label string, m *merged, res *PullResult) error {
	unlock, err := r.w.Lock(ctx)
	if err != nil {
		return err
	}
	defer unlock()
	if fastForward {
		if err := r.updateRef(ctx, plumbing.NewHashReference(br, theirs), plumbing.NewHashReference(br, head)); err != nil {
			return err
		}
		res.Outcome, res.Head = PullFastForward, theirs.String()
	} else {
		h, err := r.commitMerge(head, theirs, "Merge "+label)
		if err != nil {
			return err
		}
		res.Outcome, res.Head = PullMerged, h.String()
	}
	if len(m.stages) > 0 {
		if err := r.setEntries(ctx, nil, m.stages); err != nil {
			return fmt.Errorf("record the conflicts in the index: %w", err)
		}
	}
	return nil
}

// pullWaits refuses a pull while a merge or conflicts wait for the person.
func (r *Repo) pullWaits() error {
	if r.merging() {
		return ErrMerging
	}
	u, err := r.unmerged()
	if err != nil {
		return err
	}
	if len(u) > 0 {
		return unresolvedErr(unmergedPaths(u), "still conflicted")
	}
	return nil
}

func wrapPull(err error) error {
	if err == nil {
		return nil
	}
	return fmt.Errorf("git pull: %w", err)
}

// pullPlan is the three trees of a pull and the paths the remote changed.
type pullPlan struct {
	upToDate, fastForward bool
	base, head, theirs    *treeReader
	paths                 []vpath.Path
}

// plan finds the merge base of head and theirs and what the remote changed since.
func (r *Repo) plan(head, theirs plumbing.Hash) (*pullPlan, error) {
	tc, err := r.repo.CommitObject(theirs)
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", theirs, err)
	}
	tt, err := tc.Tree()
	if err != nil {
		return nil, err
	}
	p := &pullPlan{base: &treeReader{}, head: &treeReader{}, theirs: &treeReader{tree: tt}, fastForward: true}
	if head != plumbing.ZeroHash {
		hc, err := r.repo.CommitObject(head)
		if err != nil {
			return nil, fmt.Errorf("read %s: %w", head, err)
		}
		if ahead, err := tc.IsAncestor(hc); err != nil || ahead {
			p.upToDate = true
			return p, err
		}
		if p.fastForward, err = hc.IsAncestor(tc); err != nil {
			return nil, err
		}
		if p.head.tree, err = hc.Tree(); err != nil {
			return nil, err
		}
		bases, err := hc.MergeBase(tc)
		if err != nil {
			return nil, err
		}
		if len(bases) > 0 {
			if p.base.tree, err = bases[0].Tree(); err != nil {
				return nil, err
			}
		}
	}
	changes, err := object.DiffTree(p.base.tree, tt)
	if err != nil {
		return nil, fmt.Errorf("compare with the remote: %w", err)
	}
	seen := map[string]bool{}
	for _, c := range changes {
		for _, name := range []string{c.From.Name, c.To.Name} {
			if name != "" && !seen[name] && content(name) {
				seen[name] = true
				p.paths = append(p.paths, vpath.Path(name))
			}
		}
	}
	sort.Slice(p.paths, func(i, j int) bool { return p.paths[i] < p.paths[j] })
	return p, nil
}

// version is a file's content on one side, or its absence; hash and mode, when
// known, are its blob's in a tree.
type version struct {
	data []byte
	ok   bool
	hash plumbing.Hash
	mode filemode.FileMode
}

func (a version) same(b version) bool { return a.ok == b.ok && bytes.Equal(a.data, b.data) }

// merge joins ours and theirs, both descended from base; clean is false for a
// conflict, whose result keeps both versions (text: markdown is a note, whose front
// matter merges property by property), or the side that still has the file (one
// deleted it, the other changed it, as git keeps it), or ours (binary).
func merge(markdown bool, base, ours, theirs version, oursLabel, theirsLabel string) (version, bool) {
	switch {
	case ours.same(theirs):
		return ours, true
	case base.same(ours):
		return theirs, true
	case base.same(theirs):
		return ours, true
	case !ours.ok:
		return theirs, false
	case !theirs.ok || isBinary(ours.data) || isBinary(theirs.data) || isBinary(base.data):
		return ours, false
	}
	m, clean := mergeText(markdown, string(base.data), string(ours.data), string(theirs.data), markers{ours: oursLabel, theirs: theirsLabel})
	return version{data: []byte(m), ok: true}, clean
}

// mergeLog merges an append-only log (journey.yaml) as the union of what each side
// appended to the base, ours first; anything else is merged as text.
func mergeLog(base, ours, theirs version, oursLabel, theirsLabel string) (version, bool) {
	if ours.ok && theirs.ok && bytes.HasPrefix(ours.data, base.data) && bytes.HasPrefix(theirs.data, base.data) {
		out := append([]byte{}, ours.data...)
		if len(out) > 0 && out[len(out)-1] != '\n' {
			out = append(out, '\n')
		}
		return version{data: append(out, theirs.data[len(base.data):]...), ok: true}, true
	}
	return merge(false, base, ours, theirs, oursLabel, theirsLabel)
}

// merged is what a pull writes: working-tree files and index entries.
type merged struct {
	work  []vault.Change
	index map[vpath.Path]version
	// stages are the unmerged index entries of the conflicts (see writeStages).
	stages        map[vpath.Path]stageSet
	updated       []vpath.Path
	conflicts     []vpath.Path
	indexConflict bool
	journey       []byte // entries to append to journey.yaml
}

// mergeFiles merges each path the remote changed: the working tree with the remote
// (base: the merge base), and the local commit with the remote for the index.
func (r *Repo) mergeFiles(ctx context.Context, p *pullPlan, label string) (*merged, error) {
	m := &merged{index: map[vpath.Path]version{}, stages: map[vpath.Path]stageSet{}}
	for _, path := range p.paths {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		var b, h, t, w version
		var err error
		for _, s := range []struct {
			tr *treeReader
			v  *version
		}{{p.base, &b}, {p.head, &h}, {p.theirs, &t}} {
			var bl blob
			if bl, s.v.ok, err = s.tr.file(path); err != nil {
				return nil, err
			}
			s.v.data, s.v.hash, s.v.mode = bl.data, bl.hash, bl.mode
		}
		if w.data, w.ok, err = r.readWork(path); err != nil {
			return nil, err
		}
		mergeFn := func(b, o, t version, ol, tl string) (version, bool) { return merge(path.IsNote(), b, o, t, ol, tl) }
		if path == vault.JourneyPath {
			mergeFn = mergeLog
		}
		work, wClean := mergeFn(b, w, t, "your version", label)
		idx, iClean := mergeFn(b, h, t, "your version", label)
		if !iClean {
			idx = h
			m.indexConflict = true
		}
		if !idx.same(h) {
			m.index[path] = idx
		}
		if !wClean || !iClean {
			m.conflicts = append(m.conflicts, path)
			if path != vault.JourneyPath { // the person resolves it from the three sides
				m.stages[path] = stageSet{b, w, t}
			}
		}
		if work.same(w) {
			continue
		}
		if path == vault.JourneyPath { // append-only: only what the remote appended goes in
			if !w.ok || !work.ok || !bytes.HasPrefix(work.data, w.data) {
				m.conflicts = append(m.conflicts, path)
				continue
			}
			m.journey = work.data[len(w.data):]
			m.updated = append(m.updated, path)
			continue
		}
		ch := vault.Change{Path: path, Data: work.data, Delete: !work.ok}
		if w.ok {
			ch.IfHash = vault.HashOf(w.data)
		} else {
			ch.CreateOnly = true
		}
		m.work = append(m.work, ch)
		m.updated = append(m.updated, path)
	}
	return m, nil
}

// apply writes the working tree through the vault, then the index: the merged
// entries, and with stages the conflicts' unmerged entries too.
func (r *Repo) apply(ctx context.Context, m *merged, stages bool) error {
	if len(m.work) > 0 {
		if _, err := r.w.Apply(ctx, m.work, vault.WriteOptions{Actor: "user", Op: "git_pull"}); err != nil {
			return err
		}
	}
	if len(m.journey) > 0 {
		if err := r.w.AppendJourneyEntries(ctx, m.journey); err != nil {
			return err
		}
	}
	var st map[vpath.Path]stageSet
	if stages {
		st = m.stages
	}
	if len(m.index) == 0 && len(st) == 0 {
		return nil
	}
	unlock, err := r.w.Lock(ctx)
	if err != nil {
		return err
	}
	defer unlock()
	return r.setEntries(ctx, m.index, st)
}

// setEntries points the index entries of paths at the given contents (removing the
// absent ones), and replaces those of the paths of stages by their unmerged entries,
// in one write of the index; the racily clean entries it keeps are smudged where
// their files differ (racy.go). Like a commit's, the write waits a moment for a git
// command's index.lock to go (`git status` takes it to refresh the index).
func (r *Repo) setEntries(ctx context.Context, set map[vpath.Path]version, stages map[vpath.Path]stageSet) error {
	racy := r.racyCheck(filepath.Join(r.gitDir(), "index"))
	idx, err := r.repo.Storer.Index()
	if err != nil {
		return fmt.Errorf("read index: %w", err)
	}
	kept := idx.Entries[:0]
	for _, e := range idx.Entries {
		_, named := set[vpath.Path(e.Name)]
		_, staged := stages[vpath.Path(e.Name)]
		if !named && !staged {
			kept = append(kept, e)
		}
	}
	idx.Entries = kept
	racy.smudgeEntries(kept)
	for p, v := range set {
		if _, staged := stages[p]; staged || !v.ok {
			continue
		}
		e, err := r.indexEntry(p, v, stageMerged)
		if err != nil {
			return err
		}
		idx.Entries = append(idx.Entries, e)
	}
	for p, s := range stages {
		es, err := r.stageEntries(p, s)
		if err != nil {
			return err
		}
		idx.Entries = append(idx.Entries, es...)
	}
	sort.SliceStable(idx.Entries, func(i, j int) bool {
		a, b := idx.Entries[i], idx.Entries[j]
		return a.Name < b.Name || a.Name == b.Name && a.Stage < b.Stage
	})
	idx.Cache, idx.ResolveUndo, idx.EndOfIndexEntry = nil, nil, nil
	return r.writeIndexWaiting(ctx, func() error { return r.writeIndex(idx) })
}

// indexEntry is the index entry of p holding v at stage; a stage-0 entry whose
// content the working tree holds gets the file's stat data, as git add gives it.
func (r *Repo) indexEntry(p vpath.Path, v version, stage index.Stage) (*index.Entry, error) {
	h := v.hash
	if h.IsZero() {
		var err error
		if h, err = r.writeBlob(v.data); err != nil {
			return nil, fmt.Errorf("store %s: %w", p, err)
		}
	}
	e := &index.Entry{Name: string(p), Hash: h, Mode: filemode.Regular, Size: uint32(len(v.data)), Stage: stage}
	if v.mode == filemode.Executable || v.mode == filemode.Symlink {
		e.Mode = v.mode
	}
	if stage != stageMerged {
		return e, nil
	}
	full := filepath.Join(r.dir, filepath.FromSlash(string(p)))
	if fi, err := os.Lstat(full); err == nil {
		if cur, ok, _ := r.readWork(p); ok && bytes.Equal(cur, v.data) {
			e.ModifiedAt = fi.ModTime()
			fillStat(e, fi)
		}
		if fi.Mode()&0o111 != 0 {
			e.Mode = filemode.Executable
		}
	}
	return e, nil
}

// commitMerge commits the index with both parents; the caller holds the vault lock.
func (r *Repo) commitMerge(head, theirs plumbing.Hash, msg string) (plumbing.Hash, error) {
	repo, err := r.underLock()
	if err != nil {
		return plumbing.ZeroHash, err
	}
	wt, err := repo.Worktree()
	if err != nil {
		return plumbing.ZeroHash, err
	}
	author, committer, err := r.signatures(nil)
	if err != nil {
		return plumbing.ZeroHash, err
	}
	return wt.Commit(msg+"\n", &git.CommitOptions{Author: author, Committer: committer, Parents: []plumbing.Hash{head, theirs}, AllowEmptyCommits: true})
}

// mergeHead is where git records the other parent of a merge that awaits its commit.
func (r *Repo) mergeHead() string { return filepath.Join(r.dir, ".git", "MERGE_HEAD") }

// merging reports whether a merge awaits its commit.
func (r *Repo) merging() bool {
	_, err := os.Stat(r.mergeHead())
	return err == nil
}

// startMerge records a merge with conflicts as git does (MERGE_HEAD, MERGE_MSG).
func (r *Repo) startMerge(theirs plumbing.Hash, msg string) error {
	if err := os.WriteFile(r.mergeHead(), []byte(theirs.String()+"\n"), 0o644); err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(r.dir, ".git", "MERGE_MSG"), []byte(msg+"\n"), 0o644)
}

// mergeParents returns HEAD and MERGE_HEAD when a merge awaits its commit, else nil.
func (r *Repo) mergeParents() []plumbing.Hash {
	b, err := regular.ReadPath(r.mergeHead())
	if err != nil {
		return nil
	}
	other := plumbing.NewHash(string(bytes.TrimSpace(b)))
	head, err := r.repo.Head()
	if err != nil || other.IsZero() {
		return nil
	}
	return []plumbing.Hash{head.Hash(), other}
}

// endMerge forgets a merge once it is committed.
func (r *Repo) endMerge() {
	for _, name := range []string{"MERGE_HEAD", "MERGE_MSG", "MERGE_MODE"} {
		_ = os.Remove(filepath.Join(r.dir, ".git", name)) // absent is fine
	}
}

// Merging reports whether a pull left a merge with conflicts that awaits its commit.
func (r *Repo) Merging() bool { return r.merging() }
