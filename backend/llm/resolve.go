package llm

import (
	"os"
)

// Resolver is the one place that says which endpoint settings are in effect: the
// face's flags (memotree chat's --model, say) over the environment (OPENAI_BASE_URL,
// OPENAI_API_KEY, MEMOTREE_MODEL, MEMOTREE_EMBEDDING_MODEL) over the settings file the
// window writes. It reads the file and the environment at each call, so that a model
// chosen in the window's settings is used without a restart. The zero Resolver reads
// the person's settings file and the process's environment.
type Resolver struct {
	// Path is the settings file; "" means SettingsPath (none when the user has no
	// config directory: the environment and flags alone).
	Path string
	// Getenv reads the environment; nil means os.Getenv.
	Getenv func(string) string
	// Flags are settings given on the command line; they win over everything.
	Flags Settings
}

// SettingsFile returns the settings file the resolver reads, or "" when there is none.
func (r Resolver) SettingsFile() string {
	if r.Path != "" {
		return r.Path
	}
	p, err := SettingsPath()
	if err != nil {
		return ""
	}
	return p
}

// Env returns the environment variable k as the resolver sees it.
func (r Resolver) Env(k string) string {
	if r.Getenv != nil {
		return r.Getenv(k)
	}
	return os.Getenv(k)
}

// Resolve returns the settings in effect: the flags, then the environment, then the
// settings file. A settings file that does not parse is an error (the window's
// settings form says what is wrong with it); a missing one is empty settings.
func (r Resolver) Resolve() (Settings, error) {
	var saved Settings
	if p := r.SettingsFile(); p != "" {
		var err error
		if saved, err = LoadSettings(p); err != nil {
			return Settings{}, err
		}
	}
	return r.Flags.Merge(FromEnv(r.Env)).Merge(saved), nil
}

// InEffect is Resolve for background work (embeddings, summaries): a settings file
// that does not read counts as empty, since the window's settings form is where that
// is shown and fixed.
func (r Resolver) InEffect() Settings {
	s, err := r.Resolve()
	if err != nil {
		return r.Flags.Merge(FromEnv(r.Env))
	}
	return s
}
