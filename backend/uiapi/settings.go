package uiapi

import (
	"errors"

	"github.com/memotree/memotree/backend/autosync"
	"github.com/memotree/memotree/backend/canvas"
	"github.com/memotree/memotree/backend/settings"
)

// VaultSettings are every setting of a vault, one field per file in its .memotree
// folder (package settings). A setting is added as a field of a section's type, with
// its default where the section is declared; a section is added here, in
// vaultSettingsOf and in SaveVaultSettings.
type VaultSettings struct {
	// Graph is how the graph is shown (graph.json).
	Graph GraphView `json:"graph"`
	// Canvas is the canvas's budget and whether the model writes missing summaries
	// (canvas.json).
	Canvas canvas.Settings `json:"canvas"`
	// Backup is what is backed up to the remote, and when (sync.json).
	Backup autosync.Settings `json:"backup"`
}

// VaultSettingsView is what the window gets of a vault's settings: each whole, the
// defaults filled in, so that the window holds no default of its own.
type VaultSettingsView struct {
	Library  string        `json:"library"`
	Settings VaultSettings `json:"settings"`
	// Defaults are the settings of a vault that has none of its own.
	Defaults VaultSettings `json:"defaults"`
	// GraphSaved is true when MemoTree has graph settings of its own for this vault;
	// until then the graph is shown as Obsidian's .obsidian/graph.json says.
	GraphSaved bool `json:"graph_saved"`
	// Obsidian is what .obsidian/graph.json says (read, never written), its missing
	// or unusable fields the defaults; nil when the vault has none.
	Obsidian *GraphView `json:"obsidian"`
	// Warnings name what could not be read, and why; each is ignored, never fatal.
	Warnings []string `json:"warnings"`
}

// VaultSettingsPatch names the sections to save: each one set is written whole, the
// others are left as they are on disk (another window may have changed them).
type VaultSettingsPatch struct {
	Graph  *GraphView         `json:"graph,omitempty"`
	Canvas *canvas.Settings   `json:"canvas,omitempty"`
	Backup *autosync.Settings `json:"backup,omitempty"`
}

// defaultVaultSettings are the settings of a vault that has none, from each section's
// declaration.
func defaultVaultSettings() VaultSettings {
	return VaultSettings{Graph: graphSection.Default(), Canvas: canvas.SettingsSection.Default(), Backup: backupSection.Default()}
}

// VaultSettings returns a library's settings.
func (a *API) VaultSettings(libraryName string) (VaultSettingsView, error) {
	l, err := a.ws.Library(libraryName)
	if err != nil {
		return VaultSettingsView{}, err
	}
	v := l.State()
	out := VaultSettingsView{Library: l.Name(), Defaults: defaultVaultSettings()}
	out.Settings.Graph, out.Obsidian, out.GraphSaved, out.Warnings = graphView(v)
	var canvasLoaded, backupLoaded settings.Loaded
	out.Settings.Canvas, canvasLoaded = canvas.SettingsSection.Load(v)
	out.Settings.Backup, backupLoaded = backupSection.Load(v)
	out.Warnings = append(append(append([]string{}, out.Warnings...), canvasLoaded.Warnings...), backupLoaded.Warnings...)
	return out, nil
}

// SaveVaultSettings saves the sections p sets, applies them (a backup's new settings
// at once) and returns the library's settings. A section refused (a budget under
// canvas.MinBudget) is not written, and neither are the ones after it.
func (a *API) SaveVaultSettings(libraryName string, p VaultSettingsPatch) (VaultSettingsView, error) {
	l, err := a.ws.Library(libraryName)
	if err != nil {
		return VaultSettingsView{}, err
	}
	if p.Graph == nil && p.Canvas == nil && p.Backup == nil {
		return VaultSettingsView{}, errors.New("save vault settings: no section to save")
	}
	if p.Graph != nil {
		if _, err := graphSection.Save(l.State(), *p.Graph); err != nil {
			return VaultSettingsView{}, err
		}
	}
	if p.Canvas != nil {
		if _, err := canvas.SettingsSection.Save(l.State(), *p.Canvas); err != nil {
			return VaultSettingsView{}, err
		}
	}
	if p.Backup != nil {
		if err := a.saveBackup(l, *p.Backup); err != nil {
			return VaultSettingsView{}, err
		}
	}
	return a.VaultSettings(l.Name())
}

// PersonSettingsView is what the window gets of the person's own settings: those that
// hold no secret, whole (the endpoint and the git tokens have views of their own,
// ChatSettings and GitSettings, that never show a key).
type PersonSettingsView struct {
	Settings settings.Person `json:"settings"`
	Defaults settings.Person `json:"defaults"`
	// Path is the file they are kept in (settings.toml, beside the endpoint's keys).
	Path string `json:"path"`
}

// PersonSettings returns the person's settings.
func (a *API) PersonSettings() (PersonSettingsView, error) {
	out := PersonSettingsView{Settings: settings.DefaultPerson(), Defaults: settings.DefaultPerson(), Path: a.chat.path()}
	if out.Path == "" {
		return out, nil // no config folder: the defaults, and nothing to save them in
	}
	p, err := settings.LoadPerson(out.Path)
	if err != nil {
		return PersonSettingsView{}, err
	}
	out.Settings = p
	return out, nil
}

// SavePersonSettings saves the person's settings, keeping the endpoint's keys beside
// them, and returns them.
func (a *API) SavePersonSettings(p settings.Person) (PersonSettingsView, error) {
	path := a.chat.path()
	if path == "" {
		return PersonSettingsView{}, errors.New("save settings: no config directory for this user (set $XDG_CONFIG_HOME or $HOME)")
	}
	if err := settings.SavePerson(path, p); err != nil {
		return PersonSettingsView{}, err
	}
	return a.PersonSettings()
}
