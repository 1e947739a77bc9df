package autosync

import (
	"fmt"
	"strconv"
	"strings"
	"time"
)

// Settings are a vault's backup settings (kept in its .memotree/sync.json by the
// window). The zero value backs nothing up.
type Settings struct {
	// PullOnOpen pulls when the vault opens.
	PullOnOpen bool `json:"pull_on_open"`
	// PushOnCommit pushes after each commit (the branch ahead of its remote copy).
	PushOnCommit bool `json:"push_on_commit"`
	// IntervalMinutes, when above 0, syncs (pull, then push) that often, once the
	// person has been idle for a while (Options.IdleAfter).
	IntervalMinutes int `json:"interval_minutes"`
	// CommitOwn commits the person's own edits (theirs in the window, and those made
	// outside MemoTree, in Obsidian say) before a timed sync, with a message made from
	// MessageTemplate. An agent's or another program's change is never committed: it
	// waits for the person's review.
	CommitOwn bool `json:"commit_own"`
	// MessageTemplate makes the message of such a commit: {{date}} is the date and
	// time, {{count}} the number of files, {{notes}} their names.
	MessageTemplate string `json:"message_template"`
}

// DefaultTemplate is the commit message template when none is set.
const DefaultTemplate = "vault backup: {{date}}"

// MaxIntervalMinutes bounds the interval: a day.
const MaxIntervalMinutes = 24 * 60

// Normal returns s with its interval within 0 and a day and a template (the
// default when empty or blank).
func (s Settings) Normal() Settings {
	s.IntervalMinutes = min(max(s.IntervalMinutes, 0), MaxIntervalMinutes)
	if strings.TrimSpace(s.MessageTemplate) == "" {
		s.MessageTemplate = DefaultTemplate
	}
	return s
}

// Any reports whether s backs anything up.
func (s Settings) Any() bool {
	return s.PullOnOpen || s.PushOnCommit || s.IntervalMinutes > 0
}

// maxNamed is how many names {{notes}} lists before "and N more".
const maxNamed = 10

// Message makes a commit message from the template: {{date}} becomes now (local
// time, "2006-01-02 15:04"), {{count}} the number of names, {{notes}} the names
// (the first ten, then how many more). An empty result falls back to DefaultTemplate.
func Message(template string, now time.Time, names []string) string {
	shown := names[:min(len(names), maxNamed)]
	list := strings.Join(shown, ", ")
	if len(names) > maxNamed {
		list += fmt.Sprintf(" and %d more", len(names)-maxNamed)
	}
	r := strings.NewReplacer("{{date}}", now.Format("2006-01-02 15:04"), "{{count}}", strconv.Itoa(len(names)), "{{notes}}", list)
	msg := strings.TrimSpace(r.Replace(template))
	if msg == "" {
		msg = r.Replace(DefaultTemplate)
	}
	return msg
}
