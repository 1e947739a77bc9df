//go:build desktop || bindings

package app

import (
	"fmt"
	"path/filepath"
	goruntime "runtime"

	"github.com/wailsapp/wails/v2/pkg/menu"
	"github.com/wailsapp/wails/v2/pkg/menu/keys"

	"github.com/memotree/memotree/backend/event"
)

// readmeURL is the README online, for Help.
const readmeURL = "https://github.com/memotree/memotree#readme"

// menuCommand is an item of the native menu that runs one of the window's own
// commands (its id in frontend/src/lib/appCommands.ts) with that command's shortcut;
// a test checks that the two lists agree.
type menuCommand struct {
	label   string
	command string
	accel   *keys.Accelerator
}

var (
	shift = keys.ShiftKey
	mod   = keys.CmdOrCtrlKey
)

// viewCommands are the View menu: the panels, and the ways to find a note.
var viewCommands = []menuCommand{
	{"Command Palette…", "palette.open", keys.Combo("p", mod, shift)},
	{"Quick Switcher…", "switcher.open", keys.CmdOrCtrl("o")},
	{"Search…", "search.open", keys.Combo("f", mod, shift)},
	{"", "", nil},
	{"Toggle Sidebar", "view.toggleSidebar", keys.CmdOrCtrl("b")},
	{"Toggle Graph", "view.toggleGraph", keys.CmdOrCtrl("g")},
	{"Changes", "panel.changes", keys.Combo("g", mod, shift)},
	{"Chat", "panel.chat", keys.Combo("l", mod, shift)},
	{"Canvas", "panel.canvas", nil},
	{"Reset Panel Sizes", "view.resetLayout", nil},
}

// editCommands are the Edit menu beyond the clipboard.
var editCommands = []menuCommand{
	{"New Note", "note.new", keys.CmdOrCtrl("n")},
	{"Settings…", "settings.open", keys.CmdOrCtrl(",")},
}

// buildMenu returns the window's native menu. Its items act through the shell: a
// window command for what the window does (the panels, closing the vault shown), the
// shell itself for what needs the system (the folder chooser, quitting, the browser).
// Wails on Linux cannot change a menu once the window is up, so the recent vaults are
// those of the launch; File › Vaults… lists them all, current.
func (s *shell) buildMenu(recent []string) *menu.Menu {
	m := menu.NewMenu()
	if goruntime.GOOS == "darwin" {
		m.Append(menu.AppMenu())
	}
	file := m.AddSubmenu("File")
	file.AddText("Open Folder as Vault…", keys.Combo("o", mod, shift), func(*menu.CallbackData) { go s.pickAndOpen() })
	file.AddText("Vaults…", nil, func(*menu.CallbackData) { s.command("vault.open") })
	if len(recent) > 0 {
		sub := file.AddSubmenu("Recent Vaults")
		for _, p := range recent {
			sub.AddText(fmt.Sprintf("%s — %s", filepath.Base(p), filepath.Dir(p)), nil, func(*menu.CallbackData) { go s.openFolder(p) })
		}
	}
	file.AddText("Close Vault", nil, func(*menu.CallbackData) { s.command("vault.close") })
	file.AddSeparator()
	file.AddText("Quit", keys.CmdOrCtrl("q"), func(*menu.CallbackData) { s.quit() })

	if goruntime.GOOS == "darwin" {
		m.Append(menu.EditMenu())
	} else {
		// The clipboard keys stay the web view's own (a menu accelerator would take
		// them from the editor), so these items carry none.
		edit := m.AddSubmenu("Edit")
		for _, c := range []struct{ label, cmd string }{{"Undo", "undo"}, {"Redo", "redo"}, {"Cut", "cut"}, {"Copy", "copy"}, {"Paste", "paste"}, {"Select All", "selectAll"}} {
			edit.AddText(c.label, nil, func(*menu.CallbackData) { s.command("edit." + c.cmd) })
		}
		edit.AddSeparator()
		addCommands(s, edit, editCommands)
	}
	addCommands(s, m.AddSubmenu("View"), viewCommands)

	help := m.AddSubmenu("Help")
	help.AddText("About MemoTree", nil, func(*menu.CallbackData) { s.about() })
	help.AddText("README Online", nil, func(*menu.CallbackData) { openURL(s.context(), readmeURL) })
	return m
}

func addCommands(s *shell, m *menu.Menu, cmds []menuCommand) {
	for _, c := range cmds {
		if c.command == "" {
			m.AddSeparator()
			continue
		}
		m.AddText(c.label, c.accel, func(*menu.CallbackData) { s.command(c.command) })
	}
}

// command asks the window to run one of its commands.
func (s *shell) command(id string) {
	s.ws.Bus().Publish(event.Event{Topic: event.WindowCommand, Data: event.WindowCommandEvent{Command: id}})
}

// notice asks the window to show a message.
func (s *shell) notice(msg string) {
	s.ws.Bus().Publish(event.Event{Topic: event.WindowCommand, Data: event.WindowCommandEvent{Command: "notice", Message: msg}})
}

// about shows the version and where the app keeps its files.
func (s *shell) about() {
	msg := "MemoTree: a Markdown vault you share with an LLM agent, kept in git.\n\n" +
		"The vaults you open are remembered in " + s.statePath + "."
	aboutBox(s.context(), "About MemoTree", msg)
}
