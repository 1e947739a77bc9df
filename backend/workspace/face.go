package workspace

import (
	"context"

	"github.com/memotree/memotree/backend/llm"
	"github.com/memotree/memotree/backend/tool"
)

// Mode says how a face reads its libraries.
type Mode int

// The modes of the faces.
const (
	// Serving faces (the window, `memotree serve`, `memotree mcp`) watch every
	// library and scan it in the background, so that they are up before a large
	// vault is read.
	Serving Mode = iota
	// OneShot faces (`memotree call`, `memotree chat`) scan a library only when
	// something first needs its graph, and do not watch.
	OneShot
	// Indexing (`memotree index`) scans every library before Open returns.
	Indexing
)

// Face is what a face says of itself to OpenFace; everything else comes from the
// person's settings.
type Face struct {
	// Mode is how the face reads its libraries.
	Mode Mode
	// Settings resolves the endpoint settings: the settings file and the environment,
	// and the face's own flags (memotree chat's --model) in its Flags.
	Settings llm.Resolver
	// BeforeRead, when set, is told how many notes a full scan is about to read
	// (memotree index prepares its heap for them).
	BeforeRead func(notes int)
	// AllowNone opens a workspace with no library, into which vaults are mounted
	// later (the window's welcome, `memotree serve` without --library).
	AllowNone bool
	// Permissions are the permissions the person gave by library name (the
	// --permission flag): see Options.Permissions.
	Permissions map[string]tool.Permission
}

// OpenFace opens the workspace of a face: every face (the window, serve, mcp, call,
// chat, index) builds its workspace here, through the assembly of the faces
// (backend/workspace/face, the one caller outside tests), so that each has the same
// models, chosen by the person. The embeddings model of semantic search and the model
// that writes the summaries of notes (when a library's canvas settings turn
// auto_summary on) both follow f.Settings at each use, as the window's settings change
// them; the specs and f.Permissions carry the permissions.
func OpenFace(ctx context.Context, specs []Spec, f Face) (*Workspace, error) {
	o := Options{
		Embedder:    llm.NewSettingsEmbedder(f.Settings),
		Summarizer:  llm.NewSettingsSummarizer(f.Settings),
		BeforeRead:  f.BeforeRead,
		AllowNone:   f.AllowNone,
		Permissions: f.Permissions,
	}
	switch f.Mode {
	case Serving:
		// A folder a serving face opens gets nothing written in it until someone
		// writes: its caches wait in the user's cache folder (Options.OutsideCaches).
		o.Watch, o.Background, o.OutsideCaches = true, true, true
	case OneShot:
		// A one-shot command (memotree call, chat) writes nothing in a folder it only
		// read either, a dry run of a script included.
		o.Lazy, o.OutsideCaches = true, true
	case Indexing:
		o.Once = true
	}
	return Open(ctx, specs, o)
}
