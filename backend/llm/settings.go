package llm

import (
	"net/url"
	"strings"

	"github.com/memotree/memotree/backend/userfile"
)

// Settings are the endpoint settings a person saves: where the model is, which one,
// and the key. The file holding them is the person's alone (0600).
type Settings struct {
	BaseURL string `toml:"base_url" json:"base_url"`
	Model   string `toml:"model" json:"model"`
	APIKey  string `toml:"api_key" json:"-"`
	// EmbeddingModel is the model of semantic search's vectors (e.g. nomic-embed-text
	// on Ollama); empty leaves semantic and hybrid search off.
	EmbeddingModel string `toml:"embedding_model,omitempty" json:"embedding_model"`
}

// SettingsFile is the person's settings file in MemoTree's config folder: the
// endpoint's keys at its top level (these Settings), and other owners' tables beside
// them (the look's, backend/settings).
const SettingsFile = "settings.toml"

// SettingsPath returns the settings file in the user's config directory
// (~/.config/memotree/settings.toml on Linux).
func SettingsPath() (string, error) {
	return userfile.Path(SettingsFile)
}

// LoadSettings reads the settings file at path; a missing file is empty settings.
func LoadSettings(path string) (Settings, error) {
	var s Settings
	err := userfile.Load(path, &s)
	return s, err
}

// SaveSettings writes s to path atomically, readable by the user alone (0600, in a
// 0700 folder), so the key stays private. The file's other keys (the look's table)
// are kept.
func SaveSettings(path string, s Settings) error {
	s.BaseURL = strings.TrimSpace(s.BaseURL)
	s.Model = strings.TrimSpace(s.Model)
	s.APIKey = strings.TrimSpace(s.APIKey)
	s.EmbeddingModel = strings.TrimSpace(s.EmbeddingModel)
	return userfile.Update(path, SettingsHeader, s)
}

// SettingsHeader is the comment at the top of the settings file.
const SettingsHeader = "# MemoTree's settings: the model endpoint and the window's look. Written by the app; private to you (mode 0600).\n"

// Merge returns s with every empty field taken from under: the first argument wins.
// Faces merge flags, then the environment, then the file. The key is not a field
// like the others: it goes with the endpoint it was given for (KeyFor), so the
// result's key is the first layer's whose endpoint is the result's, or none.
func (s Settings) Merge(under Settings) Settings {
	out := s
	if out.BaseURL == "" {
		out.BaseURL = under.BaseURL
	}
	if out.Model == "" {
		out.Model = under.Model
	}
	if out.EmbeddingModel == "" {
		out.EmbeddingModel = under.EmbeddingModel
	}
	out.APIKey = KeyFor(out.BaseURL, s, under)
	return out
}

// KeyFor returns the key, among layers, that may go to the endpoint base: the first
// layer's key whose own endpoint is base (the endpoint it was saved with, or, in the
// environment, OPENAI_BASE_URL beside OPENAI_API_KEY; OpenAI's when a layer names
// none). A key never follows a base URL given elsewhere: a new endpoint needs its own
// key, or goes without.
func KeyFor(base string, layers ...Settings) string {
	for _, l := range layers {
		if l.APIKey != "" && SameEndpoint(l.BaseURL, base) {
			return l.APIKey
		}
	}
	return ""
}

// SameEndpoint reports whether two base URLs name the same endpoint: the same scheme,
// host and port (the scheme's default when absent) and path, in any case for the
// scheme and host and with or without a trailing slash; "" is OpenAI's.
func SameEndpoint(a, b string) bool { return endpointKey(a) == endpointKey(b) }

// endpointKey is a base URL in the form SameEndpoint compares.
func endpointKey(base string) string {
	base = strings.TrimSpace(base)
	if base == "" {
		base = DefaultBaseURL
	}
	u, err := url.Parse(base)
	if err != nil || u.Host == "" {
		return base
	}
	scheme, host, port := strings.ToLower(u.Scheme), strings.ToLower(u.Hostname()), u.Port()
	if port == "" || scheme == "https" && port == "443" || scheme == "http" && port == "80" {
		port = ""
	}
	return scheme + "://" + host + ":" + port + strings.TrimRight(u.EscapedPath(), "/") + "?" + u.RawQuery
}

// FromEnv returns the settings of the environment: OPENAI_BASE_URL, OPENAI_API_KEY,
// MEMOTREE_MODEL, MEMOTREE_EMBEDDING_MODEL.
func FromEnv(getenv func(string) string) Settings {
	return Settings{BaseURL: getenv("OPENAI_BASE_URL"), Model: getenv("MEMOTREE_MODEL"), APIKey: getenv("OPENAI_API_KEY"),
		EmbeddingModel: getenv("MEMOTREE_EMBEDDING_MODEL")}
}

// Empty reports whether no endpoint and no model are set.
func (s Settings) Empty() bool { return s.BaseURL == "" && s.Model == "" }

// Config returns the client configuration of s.
func (s Settings) Config() Config {
	return Config{BaseURL: s.BaseURL, Model: s.Model, APIKey: s.APIKey}
}

// MaskKey shows a key the way a window may: its last four characters, or nothing.
func MaskKey(key string) string {
	if key == "" {
		return ""
	}
	if len(key) < 12 {
		return "…"
	}
	return "…" + key[len(key)-4:]
}
