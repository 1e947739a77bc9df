// Package uiapi is the API the window talks to, over Wails bindings in the desktop app
// and over HTTP (derived by reflection in package httpapi) in a browser.
package uiapi

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sort"

	"github.com/memotree/memotree/backend/event"
	"github.com/memotree/memotree/backend/graph"
	"github.com/memotree/memotree/backend/library"
	"github.com/memotree/memotree/backend/llm"
	"github.com/memotree/memotree/backend/note"
	"github.com/memotree/memotree/backend/vpath"
	"github.com/memotree/memotree/backend/workspace"
)

// API is the interface the window talks to. The desktop app binds it through Wails
// and `memotree serve` derives its HTTP routes from the same methods by reflection, so
// each method is written once. Methods are short delegations returning (T, error).
type API struct {
	ws *workspace.Workspace

	rendered  func(RenderReport) // nil unless a smoke test waits for a render
	welcome   func()             // nil unless a smoke test waits for the welcome
	reveal    func(path string) error
	chat      chat
	graphs    graphCache
	vaults    vaultSwitch
	approvals approvals
	backups   backups
}

// Options configure NewAPI.
type Options struct {
	// OnRendered, when set, is called by ReportRendered.
	OnRendered func(RenderReport)
	// Settings resolves the model endpoint settings, as the workspace's models do
	// (workspace.OpenFace); the zero Resolver reads the settings file in the user's
	// config directory and the environment.
	Settings llm.Resolver
	// WarmGraph starts building the default library's graph payload at once, in the
	// background, so that the window's first graph request (made once its scripts
	// have loaded) finds it ready. The desktop app and `memotree serve` set it.
	WarmGraph bool
	// OnWelcome, when set, is called by ReportWelcome.
	OnWelcome func()
	// Vaults, when set, lets the window open and close vaults while it runs and shows
	// the welcome when none is open (vaults.go).
	Vaults *VaultOptions
	// Reveal, when set, shows a file in the system's file manager (the desktop app);
	// without it the window shows the file's path instead.
	Reveal func(path string) error
}

// NewAPI returns the API over ws.
func NewAPI(ws *workspace.Workspace, o Options) *API {
	a := &API{ws: ws, rendered: o.OnRendered, welcome: o.OnWelcome, reveal: o.Reveal, chat: chat{settings: o.Settings}, vaults: vaultSwitch{o: o.Vaults}}
	if o.WarmGraph {
		a.warmGraph()
	}
	return a
}

// LibraryInfo describes a mounted library.
type LibraryInfo struct {
	Name      string `json:"name"`
	Path      string `json:"path"`
	Notes     int    `json:"notes"`
	IsDefault bool   `json:"is_default"`
}

// Libraries lists the mounted libraries, the default first (none before the person
// opens a vault). It never waits for a scan: the notes of a library still being read
// are counted in its folder.
func (a *API) Libraries() ([]LibraryInfo, error) { return a.libraryInfos(), nil }

// libraryInfos lists the mounted libraries.
func (a *API) libraryInfos() []LibraryInfo {
	out := []LibraryInfo{}
	for i, l := range a.ws.Libraries() {
		notes := 0
		if l.Scanned() {
			if g, err := graphOf(l); err == nil { // loaded: at once
				notes = len(g.Notes())
			}
		} else if files, err := l.Listing(context.Background()); err == nil {
			for _, f := range files {
				if !f.IsDir && !f.Path.Ignored() && f.Path.IsNote() {
					notes++
				}
			}
		}
		out = append(out, LibraryInfo{Name: l.Name(), Path: l.Vault().Dir(), Notes: notes, IsDefault: i == 0})
	}
	return out
}

// Tasks returns the long work in progress (a library's scan, its search index being
// built) and work that ended with an error: a window that opens while a large vault
// is scanned shows it at once, then follows the task:progress events. It never waits
// for a scan.
func (a *API) Tasks() ([]event.TaskProgressEvent, error) { return a.ws.Bus().Tasks(), nil }

// FileEntry is one file of a library's tree (see FileList.Entries).
type FileEntry struct {
	Path       string `json:"path"`
	IsNote     bool   `json:"is_note"`
	EntityType string `json:"entity_type,omitempty"`
}

// FileList is a library's files as the window's tree lists them, sorted by path: the
// window's first answer, about one file per note. Its fields are tables rather than
// one object per file: at 100k notes the objects took 6.2 MB, whose transfer and
// parsing were a third of the time to the tree's first paint. The name shown is the
// path's (the window derives it).
type FileList struct {
	// Paths holds every file's vault path.
	Paths []string `json:"paths"`
	// Attachments holds the indexes into Paths of the files that are not notes.
	Attachments []int `json:"attachments"`
	// Types is the table of the entity types the notes carry.
	Types []string `json:"types"`
	// Typed holds pairs, an index into Paths and one into Types, one per typed note
	// (none while the library's first scan runs).
	Typed []int `json:"typed"`
}

// fileListBuilder builds a FileList file by file, each entity type written once.
type fileListBuilder struct {
	list  FileList
	types map[string]int
}

// newFileList starts a list with room for n files.
func newFileList(n int) *fileListBuilder {
	return &fileListBuilder{list: FileList{Paths: make([]string, 0, n), Attachments: []int{}, Types: []string{}, Typed: []int{}}, types: map[string]int{}}
}

// add appends a file with its entity type ("" for none).
func (b *fileListBuilder) add(p vpath.Path, entityType string) {
	i := len(b.list.Paths)
	b.list.Paths = append(b.list.Paths, string(p))
	if !p.IsNote() {
		b.list.Attachments = append(b.list.Attachments, i)
	}
	if entityType == "" {
		return
	}
	t, ok := b.types[entityType]
	if !ok {
		t = len(b.list.Types)
		b.types[entityType] = t
		b.list.Types = append(b.list.Types, entityType)
	}
	b.list.Typed = append(b.list.Typed, i, t)
}

// Entries returns the list as one FileEntry per file, in its order.
func (l FileList) Entries() []FileEntry {
	out := make([]FileEntry, len(l.Paths))
	for i, p := range l.Paths {
		out[i] = FileEntry{Path: p, IsNote: true}
	}
	for _, i := range l.Attachments {
		out[i].IsNote = false
	}
	for k := 0; k+1 < len(l.Typed); k += 2 {
		out[l.Typed[k]].EntityType = l.Types[l.Typed[k+1]]
	}
	return out
}

// Files lists every file of a library, sorted by path. While the library's first
// scan runs, the files are listed from its folder without their entity types (the
// window shows the tree at once, and loads it again when the task:progress event
// says the scan ended).
func (a *API) Files(libraryName string) (FileList, error) {
	l, err := a.ws.Library(libraryName)
	if err != nil {
		return FileList{}, err
	}
	if !l.Scanned() {
		return listed(l)
	}
	g, err := graphOf(l) // loaded: at once
	if err != nil {
		return FileList{}, err
	}
	files := g.Files()
	b := newFileList(len(files))
	for _, p := range files {
		t := ""
		if n, ok := g.Note(p); ok {
			t = n.EntityType
		}
		b.add(p, t)
	}
	return b.list, nil
}

// LinkView is one outgoing link of a note, with where it resolves.
type LinkView struct {
	Kind     string `json:"kind"` // wiki, embed or markdown
	Target   string `json:"target"`
	Subpath  string `json:"subpath"`
	Display  string `json:"display"`
	Start    int    `json:"start"`
	End      int    `json:"end"`
	Line     int    `json:"line"`
	Resolved string `json:"resolved"` // vault path, or "" when unresolved
}

// BacklinkView is one link pointing at a note.
type BacklinkView struct {
	Path    string `json:"path"`
	Name    string `json:"name"`
	Line    int    `json:"line"`
	Context string `json:"context"`
}

// NoteView is everything the window shows of one note.
type NoteView struct {
	Library    string         `json:"library"`
	Path       string         `json:"path"`
	Name       string         `json:"name"`
	Content    string         `json:"content"`
	Hash       string         `json:"hash"`
	EntityType string         `json:"entity_type"`
	Aliases    []string       `json:"aliases"`
	Tags       []string       `json:"tags"`
	Summary    string         `json:"summary"`
	Properties map[string]any `json:"properties"`
	BodyStart  int            `json:"body_start"`
	Links      []LinkView     `json:"links"`
	Backlinks  []BacklinkView `json:"backlinks"`
	// BacklinksTotal counts every backlink; Backlinks holds at most MaxBacklinks.
	BacklinksTotal int            `json:"backlinks_total"`
	Headings       []note.Heading `json:"headings"`
	Warnings       []note.Warning `json:"warnings"`
	// Partial says the library's first scan is still running: the note is read, but
	// its links are not resolved (Links is empty) nor its backlinks known. The scan's
	// end is published (a final "scan" task): ask again then.
	Partial bool `json:"partial"`
}

// MaxViewBytes is the largest file the window is sent in one answer (Note, GitShow):
// more would freeze the editor and the bridge to it. Larger notes stay in the vault,
// listed, searchable by name, and open in another editor.
const MaxViewBytes = 16 << 20

// tooBig says a file is too large for the window, or returns nil.
func tooBig(p vpath.Path, size int64) error {
	if size <= MaxViewBytes {
		return nil
	}
	return fmt.Errorf("%s is %d MB, more than the %d MB the window opens; open it in another editor, or split it into smaller notes", p, size>>20, MaxViewBytes>>20)
}

// Note reads one note with its resolved links and backlinks. A note larger than
// MaxViewBytes is refused, unread.
func (a *API) Note(libraryName, path string) (NoteView, error) {
	l, p, err := a.resolvePath(libraryName, path)
	if err != nil {
		return NoteView{}, err
	}
	st, err := l.Vault().Stat(p)
	if err != nil {
		return NoteView{}, fmt.Errorf("read note %s: %w", p, err)
	}
	if err := tooBig(p, st.Size); err != nil {
		return NoteView{}, err
	}
	b, h, err := l.Vault().Read(p)
	if err == nil {
		err = tooBig(p, int64(len(b))) // it grew since the Stat
	}
	if err != nil {
		return NoteView{}, fmt.Errorf("read note %s: %w", p, err)
	}
	n := note.Parse(b)
	v := NoteView{
		Library: l.Name(), Path: string(p), Name: p.Name(), Content: string(b), Hash: string(h),
		EntityType: n.EntityType, Aliases: nonNil(n.Aliases), Summary: n.Summary, Properties: n.Properties,
		BodyStart: n.BodyStart, Headings: nonNil(n.Headings), Warnings: nonNil(n.Warnings),
		Tags: []string{}, Links: []LinkView{},
	}
	for _, t := range n.Tags {
		v.Tags = append(v.Tags, t.Name)
	}
	if !l.Scanned() {
		// A note opened while a big vault is read (seconds at 100k notes) shows at once,
		// its links resolved once the scan ends. A lazy library's scan starts now.
		v.Partial = true
		go func() { _, _ = l.Graph(context.Background()) }()
		return v, nil
	}
	g, err := graphOf(l)
	if err != nil {
		return NoteView{}, err
	}
	for _, k := range n.Links {
		lv := LinkView{Kind: kindName(k.Kind), Target: k.Target(), Subpath: k.Subpath(), Display: k.Display(), Start: int(k.Start), End: int(k.End), Line: int(k.Line)}
		if k.Target() == "" {
			lv.Resolved = string(p)
		} else if to, ok := g.Resolve(p, k.Target()); ok {
			lv.Resolved = string(to)
		}
		v.Links = append(v.Links, lv)
	}
	v.Backlinks, v.BacklinksTotal = a.backlinks(l, g, p)
	return v, nil
}

// MaxBacklinks bounds the backlinks a NoteView lists (a note of 100,000 links would
// otherwise send them all to the window); BacklinksTotal still counts them all.
const MaxBacklinks = 2000

// backlinks returns the first MaxBacklinks links to p with their line, and how many
// there are.
func (a *API) backlinks(l *library.Library, g *graph.Graph, p vpath.Path) ([]BacklinkView, int) {
	out := []BacklinkView{}
	lines := map[vpath.Path][][]byte{}
	total := 0
	for _, e := range g.Backlinks(p) {
		if e.From == p {
			continue
		}
		if total++; len(out) >= MaxBacklinks {
			continue
		}
		bv := BacklinkView{Path: string(e.From), Name: e.From.Name()}
		if e.Link != nil {
			bv.Line = int(e.Link.Line)
			src, ok := lines[e.From]
			if !ok {
				if b, err := l.Vault().ReadFile(e.From); err == nil {
					src = bytes.Split(b, []byte("\n"))
				}
				lines[e.From] = src
			}
			if bv.Line >= 1 && bv.Line <= len(src) {
				bv.Context = string(bytes.TrimSpace(src[bv.Line-1]))
			}
		}
		out = append(out, bv)
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Path < out[j].Path })
	return out, total
}

// RenderReport is what the window reports once it has rendered a library's tree.
type RenderReport struct {
	Library string `json:"library"`
	// Notes counts the notes the tree shows.
	Notes int `json:"notes"`
	// Layout describes the panels open ("sidebar graph side=git"), as remembered.
	Layout string `json:"layout"`
}

// ReportRendered is called by the window once it has rendered the file tree of a
// library; the desktop smoke test waits for it to prove that the window and the
// bridge work, and prints it.
func (a *API) ReportRendered(r RenderReport) error {
	if a.rendered != nil {
		a.rendered(r)
	}
	return nil
}

// ReportWelcome is called by the window when it shows the welcome (no vault open);
// the desktop smoke test waits for it.
func (a *API) ReportWelcome() error {
	if a.welcome != nil {
		a.welcome()
	}
	return nil
}

// RevealNote shows a note in the system's file manager: its folder opens with the
// note selected where the file manager can do that. Only the desktop app can; the
// window shows the note's path instead where VaultsView.CanReveal is false.
func (a *API) RevealNote(libraryName, path string) error {
	l, p, err := a.resolvePath(libraryName, path)
	if err != nil {
		return err
	}
	if a.reveal == nil {
		return fmt.Errorf("show %s in its folder: no file manager here; its path is %s", p, filepath.Join(l.Vault().Dir(), filepath.FromSlash(string(p))))
	}
	return a.reveal(filepath.Join(l.Vault().Dir(), filepath.FromSlash(string(p))))
}

func (a *API) resolvePath(libraryName, path string) (*library.Library, vpath.Path, error) {
	l, err := a.ws.Library(libraryName)
	if err != nil {
		return nil, "", err
	}
	p, err := vpath.Parse(path)
	if err != nil {
		return nil, "", err
	}
	if p.Ignored() {
		return nil, "", fmt.Errorf("%s: %w", p, vpath.ErrInvalid)
	}
	return l, p, nil
}

func kindName(k note.LinkKind) string {
	switch k {
	case note.Embed, note.MarkdownEmbed:
		return "embed"
	case note.MarkdownLink:
		return "markdown"
	}
	return "wiki"
}

func nonNil[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}

// isFolder reports whether path is a folder.
func isFolder(path string) bool {
	st, err := os.Stat(path)
	return err == nil && st.IsDir()
}

// listed lists the files of a library's folder, sorted by path, without reading them:
// while the library's scan runs, from the scan's own walk (library.Listing).
func listed(l *library.Library) (FileList, error) {
	files, err := l.Listing(context.Background())
	if err != nil {
		return FileList{}, fmt.Errorf("list %s: %w", l.Name(), err)
	}
	b := newFileList(len(files))
	for _, f := range files {
		if f.IsDir || f.Path.Ignored() {
			continue
		}
		b.add(f.Path, "")
	}
	return b.list, nil // in the listing's order: by path
}
