package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"net"
	"net/http"
	"time"

	"github.com/memotree/memotree/backend/httpapi"
	"github.com/memotree/memotree/backend/uiapi"
	"github.com/memotree/memotree/backend/workspace"
)

func runServe(ctx context.Context, env Env, args []string) int {
	fs := flag.NewFlagSet("serve", flag.ContinueOnError)
	fs.Usage = func() {
		fmt.Fprint(fs.Output(), `Usage: memotree serve [--library NAME=PATH]... [--addr 127.0.0.1:PORT]
       memotree serve [FOLDER] [--addr 127.0.0.1:PORT]

With --library, serves exactly those libraries. Without it, serves the vaults that
were open last time (and FOLDER, when given), and the page opens and closes vaults;
with none, it shows the welcome.

`)
		fs.PrintDefaults()
	}
	specs := libraryFlags(fs)
	addr := fs.String("addr", "127.0.0.1:0", "listen `address`; must be a loopback address")
	folder, code, ok := parseFolderFlags(fs, env, args)
	if !ok {
		return code
	}
	if folder != "" && len(*specs) > 0 {
		fmt.Fprintln(env.Stderr, "memotree serve: give either --library NAME=PATH or a FOLDER, not both")
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
	ws, err := workspace.OpenFace(ctx, *specs, workspace.Face{Mode: workspace.Serving, AllowNone: len(*specs) == 0})
	if err != nil {
		return fail(env, "serve", err)
	}
	defer ws.Close()
	opts := uiapi.Options{WarmGraph: true}
	if len(*specs) == 0 {
		// The vault switcher: what was open last time, remembered again.
		vo, err := RememberedVaults(ctx, ws, folder)
		if err != nil {
			return fail(env, "serve", err)
		}
		opts.Vaults = vo
	}
	api := uiapi.NewAPI(ws, opts)
	// The page is a window: MCP clients on these vaults that cannot ask the person
	// put their destructive calls in its approval queue.
	if stop, err := uiapi.ServeApprovals(api); err != nil {
		fmt.Fprintf(env.Stderr, "memotree serve: no approval queue for MCP clients: %v\n", err)
	} else {
		defer stop()
	}
	// Vaults whose settings ask for it are backed up to their remotes.
	if stop, err := uiapi.ServeBackups(api, uiapi.BackupOptions{}); err != nil {
		fmt.Fprintf(env.Stderr, "memotree serve: no backups to the remotes: %v\n", err)
	} else {
		defer stop()
	}
	h := httpapi.Handler(httpapi.Deps{API: api, Bus: ws.Bus(), Assets: env.Assets, Token: token})
	srv := httpLimits.Server(h)
	fmt.Fprintf(env.Stdout, "http://%s/?token=%s\n", ln.Addr(), token)
	fmt.Fprintf(env.Stderr, "memotree serve: serving %d libraries; open the URL above (it carries the access token, which the page trades for a session of its tab and takes out of the address bar; the URL opens more tabs while this runs). Ctrl-C stops.\n", len(ws.Libraries()))
	if opts.Vaults != nil {
		for _, n := range opts.Vaults.Notices {
			fmt.Fprintln(env.Stderr, "memotree serve:", n)
		}
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
