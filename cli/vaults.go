package cli

import (
	"context"
	"flag"
	"fmt"
	"path/filepath"

	"github.com/memotree/memotree/backend/uiapi"
	"github.com/memotree/memotree/backend/vaults"
	"github.com/memotree/memotree/backend/workspace"
)

// RememberedVaults mounts into ws the vaults that were open when the app last ran,
// and folder when one is named (see uiapi.MountRemembered), and returns the vault
// switcher's options that remember what the person opens and closes from now on.
// The window and `memotree serve` without --library start this way.
func RememberedVaults(ctx context.Context, ws *workspace.Workspace, folder string) (*uiapi.VaultOptions, error) {
	path, err := vaults.DefaultPath()
	if err != nil {
		return nil, err
	}
	store, err := vaults.Load(path)
	var notices []string
	if err != nil { // damaged: start with nothing remembered, say so
		notices = append(notices, err.Error())
	}
	notices = append(notices, uiapi.MountRemembered(ctx, ws, store, folder)...)
	return &uiapi.VaultOptions{Store: store, Remember: true, Notices: notices}, nil
}

// parseFolderFlags parses args that may hold one FOLDER among the flags (memotree
// serve ~/Notes --addr ...), returning it made absolute ("" when none); ok is false
// on a usage error (or -h, with code 0).
func parseFolderFlags(fs *flag.FlagSet, env Env, args []string) (folder string, code int, ok bool) {
	fs.SetOutput(env.Stderr)
	if err := fs.Parse(args); err != nil {
		if err == flag.ErrHelp {
			return "", 0, false
		}
		return "", 2, false
	}
	if fs.NArg() > 0 {
		folder = fs.Arg(0)
		if err := fs.Parse(fs.Args()[1:]); err != nil {
			return "", 2, false
		}
		if fs.NArg() > 0 {
			fmt.Fprintf(env.Stderr, "memotree %s: unexpected argument %q (one folder at most)\n", fs.Name(), fs.Arg(0))
			return "", 2, false
		}
		abs, err := filepath.Abs(folder)
		if err != nil {
			fmt.Fprintf(env.Stderr, "memotree %s: folder %q: %v\n", fs.Name(), folder, err)
			return "", 2, false
		}
		folder = abs
	}
	return folder, 0, true
}
