package catalog

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/memotree/memotree/backend/library"
	"github.com/memotree/memotree/backend/note"
	"github.com/memotree/memotree/backend/tool"
	"github.com/memotree/memotree/backend/vault"
	"github.com/memotree/memotree/backend/vpath"
)

// Summarizer writes a one-line summary of a note: seed 000's AutoGenerateSummary.
// The LLM gateway's client and its SettingsSummarizer satisfy it.
type Summarizer interface {
	Summarize(ctx context.Context, name, content string) (string, error)
}

// ConfiguredSummarizer is a Summarizer that can say whether a model is configured now
// (the LLM gateway's SettingsSummarizer follows the person's settings): when none is,
// no summary is asked for.
type ConfiguredSummarizer interface {
	Summarizer
	Configured() bool
}

// summarizerReady reports whether s can write a summary now.
func summarizerReady(s Summarizer) bool {
	if s == nil {
		return false
	}
	c, ok := s.(ConfiguredSummarizer)
	return !ok || c.Configured()
}

// summaryWhen says when a write asks the model for a note's summary (seed 000's
// AutoGenerateSummary and RegenerateSummary).
type summaryWhen int

const (
	// summaryBySetting: when the library's canvas settings turn auto_summary on and
	// the note has no summary (the default).
	summaryBySetting summaryWhen = iota
	// summaryIfMissing: the call asked for one (auto_generate_summary: true): when the
	// note has no summary, whatever the setting.
	summaryIfMissing
	// summaryAlways: the call asked for a new one (regenerate_summary): even when the
	// note has a summary.
	summaryAlways
	// summaryNever: the call asked for none (auto_generate_summary: false).
	summaryNever
)

// summaryFor turns a call's auto_generate_summary into when to summarise.
func summaryFor(auto *bool) summaryWhen {
	switch {
	case auto == nil:
		return summaryBySetting
	case *auto:
		return summaryIfMissing
	}
	return summaryNever
}

// autoSummary gives the note at p a `summary` property written by the model, as when
// says: by default when a model is configured, the library's canvas settings turn it
// on and the note has none. r is the result of the write that created or changed the
// note, and w its output; the summary's own outcome is added to them (the summary and
// the new hash to w, a failure as a warning: the note itself was written).
func (e *env) autoSummary(ctx context.Context, call *tool.Call, l *library.Library, p vpath.Path, r tool.Result, w *writeOut, when summaryWhen) tool.Result {
	switch {
	case r.IsError() || when == summaryNever:
		return r
	case when == summaryBySetting && (!summarizerReady(e.summarizer) || !e.canvasOf(l).Settings().AutoSummary):
		return r
	case !summarizerReady(e.summarizer):
		return r.WithWarning("no summary was written: no model is configured to write one (the person sets the endpoint and model in the chat settings); pass summary yourself")
	}
	data, h, err := l.Vault().Read(p)
	if err != nil {
		return r.WithWarning("no summary was written: %v", err)
	}
	n := note.Parse(data)
	if when != summaryAlways && strings.TrimSpace(n.Summary) != "" {
		return r
	}
	if _, has := n.Properties["summary"]; has && when == summaryBySetting {
		return r // an empty summary the person wrote on purpose
	}
	s, err := e.summarizer.Summarize(ctx, p.Name(), string(data))
	if err != nil {
		return r.WithWarning("no summary was written: the model failed: %v", err)
	}
	out, err := note.SetProperties(data, []note.Property{{Key: "summary", Value: s}}, nil)
	if err != nil {
		return r.WithWarning("no summary was written: %v", err)
	}
	o := writeOpts(call, "auto_summary")
	o.IfHash = h
	nh, err := l.Write(ctx, p, out, o)
	switch {
	case errors.Is(err, vault.ErrConflict):
		return r.WithWarning("no summary was written: %s changed meanwhile", p.Name())
	case err != nil:
		return r.WithWarning("no summary was written: %v", err)
	}
	w.Hash, w.Summary = string(nh), s
	r.Message += fmt.Sprintf("; summary written by the model: %q", s)
	return r
}
