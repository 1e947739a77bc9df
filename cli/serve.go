package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"net"
	"net/http"
	"path/filepath"
	"time"

	"github.com/memotree/memotree/backend/httpapi"
	"github.com/memotree/memotree/backend/workspace/face"
)

func runServe(ctx context.Context, env Env, args []string) int {
	fs := flag.NewFlagSet("serve", flag.ContinueOnError)
	fs.Usage = func() {
		fmt.Fprint(fs.Output(), `Usage: memotree serve [--library NAME=PATH]... [--permission NAME=LEVEL]... [--addr 127.0.0.1:PORT]
       memotree serve [FOLDER] [--addr 127.0.0.1:PORT]

With --library, serves exactly those libraries. Without it, serves the vaults that
were open last time (and FOLDER, when given), and the page opens and closes vaults;
with none, it shows the welcome.

`)
		fs.PrintDefaults()
	}
	var ff face.Flags
	ff.Register(fs, "")
	addr := fs.String("addr", "127.0.0.1:0", "listen `address`; must be a loopback address")
	folder, code, ok := parseFolderFlags(fs, env, args)
	if !ok {
		return code
	}
	if folder != "" && len(ff.Libraries) > 0 {
		fmt.Fprintln(env.Stderr, "memotree serve: give either --library NAME=PATH or a FOLDER, not both")
		return 2
	}
	if !checkFaceFlags(env, "serve", ff) {
		return 2
	}
	ln, err := listenLoopback(*addr)
	if err != nil {
		return fail(env, "serve", err)
	}
	defer ln.Close()
	token, err := httpapi.NewToken()
	if err != nil {
		return fail(env, "serve", err)
	}
	// The page is a window: without --library, the vaults open last time (and
	// FOLDER), remembered again; it hosts the approval queue of MCP clients that
	// cannot ask the person, and the backups.
	win, err := face.OpenWindow(ctx, ff, face.WindowOptions{Folder: folder})
	if err != nil {
		return fail(env, "serve", err)
	}
	defer win.Close()
	srv := httpLimits.Server(win.Handler(env.Assets, token))
	fmt.Fprintf(env.Stdout, "http://%s/?token=%s\n", ln.Addr(), token)
	fmt.Fprintf(env.Stderr, "memotree serve: serving %d libraries; open the URL above (it carries the access token, which the page trades for a session of its tab and takes out of the address bar; the URL opens more tabs while this runs). Ctrl-C stops.\n", len(win.Workspace.Libraries()))
	for _, n := range win.Notices {
		fmt.Fprintln(env.Stderr, "memotree serve:", n)
	}
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	select {
	case <-ctx.Done():
		sctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
		defer cancel()
		_ = srv.Shutdown(sctx)
		return 0
	case err := <-errc:
		if errors.Is(err, http.ErrServerClosed) {
			return 0
		}
		return fail(env, "serve", err)
	}
}

// httpLimits bound what a client of `serve` and `mcp --http` may hold: a connection
// must send its request's headers within ReadHeader and its next request within Idle
// of the last answer, or it is closed (tests shorten them).
var httpLimits = httpapi.DefaultLimits

// listenLoopback listens on addr, refusing any address that is not loopback.
func listenLoopback(addr string) (net.Listener, error) {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return nil, fmt.Errorf("address %q: %w", addr, err)
	}
	ip := net.ParseIP(host)
	if host != "localhost" && (ip == nil || !ip.IsLoopback()) {
		return nil, fmt.Errorf("address %q is not a loopback address: MemoTree serves only 127.0.0.1 or ::1", addr)
	}
	return net.Listen("tcp", addr)
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
