// Package settings keeps MemoTree's settings in their two scopes, each with one source
// of defaults, and says where every setting lives:
//
//   - The person's, in MemoTree's folder of the user's config folder
//     (userfile.Dir, ~/.config/memotree on Linux), TOML written 0600 in a 0700
//     folder: settings.toml holds the model endpoint at its top level (llm.Settings:
//     the key never leaves the backend, the window sees its last four characters)
//     and the window's look in its [look] table (Person, here); git.toml holds the
//     access tokens, one per host (backend/uiapi's git settings, shown by host and
//     last four characters); vaults.toml remembers the open and recent vaults and
//     the window's place (backend/vaults). Each owner writes only its own keys of a
//     shared file (userfile.Update).
//   - A vault's, in its .memotree folder, one JSON file per Section: graph.json (how
//     the graph is shown, backend/uiapi), canvas.json (the canvas's budget and
//     auto-summary, backend/canvas) and sync.json (backups, backend/autosync). A
//     missing file is the section's defaults; a damaged one is its defaults and a
//     warning naming the file, never an error, so a bad file never keeps a vault
//     from opening. The files keep the shapes earlier versions wrote, so nothing is
//     migrated: an upgrade reads them as before.
//
// What belongs to one window only (its panels' sizes, which are open) is not a setting:
// the window keeps it in the browser (frontend/src/lib/windowState.ts).
//
// Concurrency: the functions hold no state. Two writers of one file both succeed and
// the last rename wins, whole.
package settings
