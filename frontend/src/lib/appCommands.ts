// The window's commands: what each does is given by App (the actions), what they are
// called and which keys run them is declared here, once, for the shortcuts and the
// command palette alike.
import type { Command } from './commands'

/** What the commands act on, supplied by App. */
export interface AppActions {
  palette: () => void
  quickSwitcher: () => void
  search: () => void
  toggleGraph: () => void
  fitGraph: () => void
  toggleGraphMain: () => void
  toggleSidebar: () => void
  side: (which: 'git' | 'chat' | 'canvas') => void
  commit: () => void
  /** Whether the library shown is a git repository (commit, push and pull need one). */
  hasRepo: () => boolean
  push: () => void
  pull: () => void
  canSync: () => boolean
  toggleEdit: () => void
  hasNote: () => boolean
  save: () => void
  canSave: () => boolean
  newNote: () => void
  reload: () => void
  resetLayout: () => void
  focusTree: () => void
  settings: () => void
  openVault: () => void
  closeVault: () => void
  /** Whether a vault is shown that may be closed from the window. */
  hasVault: () => boolean
}

/** appCommands lists the window's commands in the order the palette shows them. */
export function appCommands(a: AppActions): Command[] {
  return [
    { id: 'palette.open', title: 'cmd.palette', category: 'cmd.cat.view', keys: ['Mod+Shift+P', 'Mod+P'], run: a.palette },
    { id: 'switcher.open', title: 'cmd.quickSwitcher', category: 'cmd.cat.go', keys: ['Mod+O'], run: a.quickSwitcher },
    { id: 'search.open', title: 'cmd.search', category: 'cmd.cat.go', keys: ['Mod+Shift+F'], run: a.search },
    { id: 'tree.focus', title: 'cmd.focusTree', category: 'cmd.cat.go', keys: ['Mod+Shift+E'], run: a.focusTree },
    { id: 'view.toggleGraph', title: 'cmd.toggleGraph', category: 'cmd.cat.view', keys: ['Mod+G'], run: a.toggleGraph },
    { id: 'graph.fit', title: 'cmd.fitGraph', category: 'cmd.cat.view', keys: ['Mod+Shift+H'], run: a.fitGraph },
    { id: 'graph.main', title: 'cmd.graphMain', category: 'cmd.cat.view', keys: ['Mod+Shift+M'], run: a.toggleGraphMain },
    { id: 'view.toggleSidebar', title: 'cmd.toggleSidebar', category: 'cmd.cat.view', keys: ['Mod+B'], run: a.toggleSidebar },
    { id: 'panel.changes', title: 'cmd.changes', category: 'cmd.cat.view', keys: ['Mod+Shift+G'], run: () => a.side('git') },
    { id: 'panel.chat', title: 'cmd.chat', category: 'cmd.cat.view', keys: ['Mod+Shift+L'], run: () => a.side('chat') },
    { id: 'panel.canvas', title: 'cmd.canvas', category: 'cmd.cat.view', run: () => a.side('canvas') },
    { id: 'view.resetLayout', title: 'cmd.resetLayout', category: 'cmd.cat.view', run: a.resetLayout },
    { id: 'note.new', title: 'cmd.newNote', category: 'cmd.cat.note', keys: ['Mod+N'], run: a.newNote },
    { id: 'note.edit', title: 'cmd.toggleEdit', category: 'cmd.cat.note', keys: ['Mod+E'], enabled: a.hasNote, run: a.toggleEdit },
    { id: 'note.save', title: 'cmd.save', category: 'cmd.cat.note', keys: ['Mod+S'], enabled: a.canSave, run: a.save },
    { id: 'git.commit', title: 'cmd.commit', category: 'cmd.cat.git', enabled: a.hasRepo, run: a.commit },
    { id: 'git.push', title: 'cmd.push', category: 'cmd.cat.git', enabled: a.canSync, run: a.push },
    { id: 'git.pull', title: 'cmd.pull', category: 'cmd.cat.git', enabled: a.canSync, run: a.pull },
    { id: 'library.reload', title: 'cmd.reload', category: 'cmd.cat.library', run: a.reload },
    { id: 'vault.open', title: 'cmd.openVault', category: 'cmd.cat.library', run: a.openVault },
    { id: 'vault.close', title: 'cmd.closeVault', category: 'cmd.cat.library', enabled: a.hasVault, run: a.closeVault },
    { id: 'settings.open', title: 'cmd.settings', category: 'cmd.cat.view', keys: ['Mod+,'], run: a.settings },
  ]
}
