package uiapi

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"sync"
	"time"

	"github.com/memotree/memotree/backend/vaults"
	"github.com/memotree/memotree/backend/workspace"
)

// VaultOptions turn on the vault switcher: opening and closing vaults from the window
// while it runs, and the welcome shown when none is open.
type VaultOptions struct {
	// Store holds the remembered vaults (open ones, recent ones); nil remembers none.
	Store *vaults.Store
	// Remember records in Store the vaults opened and closed. Off in a session given
	// its libraries on the command line, which stays out of the person's list.
	Remember bool
	// ObsidianFiles are the obsidian.json files read for the vaults Obsidian knows
	// (vaults.ObsidianConfigs by default).
	ObsidianFiles []string
	// PickFolder, when set, shows the system's folder chooser and returns the folder
	// chosen, "" when the person cancelled (the desktop app; a browser has none).
	PickFolder func() (string, error)
	// Notices are problems met before the window opened (a remembered vault that is
	// gone, a folder named on the command line that cannot be opened); the welcome
	// shows them.
	Notices []string
	// Demo returns the demo vault's spec (workspace.DemoSpec by default).
	Demo func() (workspace.Spec, error)
}

// vaultSwitch is the API's part that opens and closes vaults.
type vaultSwitch struct {
	o  *VaultOptions // nil: the switcher is off
	mu sync.Mutex    // one open or close at a time, so names stay unique
}

// KnownVault is a vault the welcome offers: a recent one or one Obsidian knows.
type KnownVault struct {
	Name string `json:"name"`
	Path string `json:"path"`
	// Opened is when it was last opened (RFC 3339), "" when unknown.
	Opened string `json:"opened"`
	// Exists says the folder is there now.
	Exists bool `json:"exists"`
	// Library names the open library that is this folder, "" when it is not open.
	Library string `json:"library"`
}

// VaultsView is what the welcome and the vault switcher show.
type VaultsView struct {
	// Open lists the open libraries, the default first.
	Open []LibraryInfo `json:"open"`
	// Recent lists the vaults opened recently, the latest first (none when nothing is
	// remembered).
	Recent []KnownVault `json:"recent"`
	// Obsidian lists the vaults Obsidian knows on this machine.
	Obsidian []KnownVault `json:"obsidian"`
	// CanOpen says vaults may be opened and closed here (off for `memotree serve
	// --library`, which serves just those).
	CanOpen bool `json:"can_open"`
	// CanPickFolder says the system's folder chooser is there (the desktop app).
	CanPickFolder bool `json:"can_pick_folder"`
	// CanReveal says RevealNote can show a file in the system's file manager.
	CanReveal bool `json:"can_reveal"`
	// Notices are problems met before the window opened.
	Notices []string `json:"notices"`
}

// errFixed refuses to open or close a vault in a session that serves a fixed set.
var errFixed = errors.New("this session serves the libraries given on its command line; start it without --library to open and close vaults from the window")

// Vaults returns what the welcome and the vault switcher show.
func (a *API) Vaults() (VaultsView, error) {
	v := VaultsView{Open: a.libraryInfos(), Recent: []KnownVault{}, Obsidian: []KnownVault{}, Notices: []string{}, CanReveal: a.reveal != nil}
	o := a.vaults.o
	if o == nil {
		return v, nil
	}
	v.CanOpen, v.CanPickFolder = true, o.PickFolder != nil
	v.Notices = append(v.Notices, o.Notices...)
	open := map[string]string{} // folder → library name
	for _, l := range a.ws.Libraries() {
		open[canonicalDir(l.Vault().Dir())] = l.Name()
	}
	if o.Store != nil {
		for _, r := range o.Store.State().Recent {
			v.Recent = append(v.Recent, known(vaults.Found{Path: r.Path, Name: filepath.Base(r.Path), Opened: r.Opened, Exists: isFolder(r.Path)}, open))
		}
	}
	files := o.ObsidianFiles
	if files == nil {
		files = vaults.ObsidianConfigs()
	}
	found, problems := vaults.Obsidian(files)
	for _, f := range found {
		v.Obsidian = append(v.Obsidian, known(f, open))
	}
	for _, p := range problems {
		v.Notices = append(v.Notices, p.Error())
	}
	return v, nil
}

func known(f vaults.Found, open map[string]string) KnownVault {
	k := KnownVault{Name: f.Name, Path: f.Path, Exists: f.Exists, Library: open[canonicalDir(f.Path)]}
	if !f.Opened.IsZero() {
		k.Opened = f.Opened.Format(time.RFC3339)
	}
	return k
}

// OpenVault opens the folder at path as a vault (a folder of Markdown is one; nothing
// is written in it by opening) and remembers it. A folder open already is not opened
// twice: its library is returned. A path that is missing, a file, unreadable, or
// overlaps an open vault is refused with what to do instead.
func (a *API) OpenVault(path string) (LibraryInfo, error) {
	o := a.vaults.o
	if o == nil {
		return LibraryInfo{}, errFixed
	}
	a.vaults.mu.Lock()
	defer a.vaults.mu.Unlock()
	var mounted []vaults.Mounted
	var names []string
	for _, l := range a.ws.Libraries() {
		mounted = append(mounted, vaults.Mounted{Name: l.Name(), Path: l.Vault().Dir()})
		names = append(names, l.Name())
	}
	c, err := vaults.Check(path, mounted)
	if err != nil {
		return LibraryInfo{}, err
	}
	if c.OpenAs == "" {
		spec := workspace.Spec{Name: vaults.UniqueName(c.Path, names), Path: c.Path}
		if _, err := a.ws.Mount(context.Background(), spec); err != nil {
			return LibraryInfo{}, err
		}
		c.OpenAs = spec.Name
	}
	if o.Remember && o.Store != nil {
		if err := o.Store.Opened(c.Path, time.Now()); err != nil {
			return a.libraryInfo(c.OpenAs), fmt.Errorf("opened %s, but could not remember it for the next start: %w", c.Path, err)
		}
	}
	return a.libraryInfo(c.OpenAs), nil
}

// OpenDemoVault opens the demo vault, copying it into the user's data folder first
// if this is its first use.
func (a *API) OpenDemoVault() (LibraryInfo, error) {
	if a.vaults.o == nil {
		return LibraryInfo{}, errFixed
	}
	demo := a.vaults.o.Demo
	if demo == nil {
		demo = workspace.DemoSpec
	}
	spec, err := demo()
	if err != nil {
		return LibraryInfo{}, err
	}
	return a.OpenVault(spec.Path)
}

// PickFolder shows the system's folder chooser and returns the folder chosen, or ""
// when the person cancelled. Only the desktop app has one.
func (a *API) PickFolder() (string, error) {
	if a.vaults.o == nil || a.vaults.o.PickFolder == nil {
		return "", errors.New("no folder chooser here: type the folder's path instead")
	}
	return a.vaults.o.PickFolder()
}

// CloseVault closes the library named name: its watchers stop and the window forgets
// its tree. The vault stays among the recent ones.
func (a *API) CloseVault(name string) error {
	o := a.vaults.o
	if o == nil {
		return errFixed
	}
	a.vaults.mu.Lock()
	defer a.vaults.mu.Unlock()
	l, err := a.ws.Library(name)
	if err != nil || name == "" {
		return fmt.Errorf("close vault %q: no such vault is open", name)
	}
	dir := l.Vault().Dir()
	if err := a.ws.Unmount(l.Name()); err != nil {
		return err
	}
	if o.Remember && o.Store != nil {
		return o.Store.Closed(dir)
	}
	return nil
}

// ActivateVault remembers that the window shows the library named name, so that it
// opens first at the next start.
func (a *API) ActivateVault(name string) error {
	o := a.vaults.o
	if o == nil || !o.Remember || o.Store == nil {
		return nil
	}
	l, err := a.ws.Library(name)
	if err != nil {
		return err
	}
	return o.Store.SetActive(l.Vault().Dir())
}

// ForgetVault removes a folder from the recent vaults.
func (a *API) ForgetVault(path string) error {
	o := a.vaults.o
	if o == nil || o.Store == nil || !o.Remember {
		return nil
	}
	return o.Store.Forget(path)
}

// libraryInfo describes the open library named name.
func (a *API) libraryInfo(name string) LibraryInfo {
	for _, li := range a.libraryInfos() {
		if li.Name == name {
			return li
		}
	}
	return LibraryInfo{Name: name}
}

// canonicalDir resolves symbolic links in dir where it can.
func canonicalDir(dir string) string {
	if real, err := filepath.EvalSymlinks(dir); err == nil {
		return real
	}
	return filepath.Clean(dir)
}

// MountRemembered mounts, into ws, the vaults that were open when the app last ran
// (the one shown last first, so it is the default) and then folder, when one was
// named on the command line (made the default and remembered). What cannot be opened
// (a folder deleted since, one that overlaps another) is skipped and described in
// the notices the welcome shows; a remembered vault that is gone is no longer
// remembered as open.
func MountRemembered(ctx context.Context, ws *workspace.Workspace, store *vaults.Store, folder string) (notices []string) {
	st := store.State()
	order := st.Open
	if i := slices.Index(order, st.Active); i > 0 {
		order = append([]string{st.Active}, slices.Delete(slices.Clone(order), i, i+1)...)
	}
	mounted := func() (m []vaults.Mounted, names []string) {
		for _, l := range ws.Libraries() {
			m = append(m, vaults.Mounted{Name: l.Name(), Path: l.Vault().Dir()})
			names = append(names, l.Name())
		}
		return m, names
	}
	if folder != "" { // mounted first: it is the default
		m, names := mounted()
		c, err := vaults.Check(folder, m)
		if err == nil && c.OpenAs == "" {
			spec := workspace.Spec{Name: vaults.UniqueName(c.Path, names), Path: c.Path}
			_, err = ws.Mount(ctx, spec)
		}
		if err == nil {
			err = store.Opened(c.Path, time.Now())
		}
		if err != nil {
			notices = append(notices, err.Error())
		}
		order = slices.DeleteFunc(order, func(p string) bool { return canonicalDir(p) == c.Path })
	}
	for _, p := range order {
		m, names := mounted()
		c, err := vaults.Check(p, m)
		if err == nil && c.OpenAs == "" {
			_, err = ws.Mount(ctx, workspace.Spec{Name: vaults.UniqueName(c.Path, names), Path: c.Path})
		}
		if err != nil {
			notices = append(notices, fmt.Sprintf("The vault %s was open last time and is not open now: %v", p, err))
			if errors.Is(err, vaults.ErrMissing) || errors.Is(err, vaults.ErrNotFolder) {
				_ = store.Closed(p)
			}
		}
	}
	return notices
}
