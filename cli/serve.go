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
	specs := libraryFlags(fs)
	addr := fs.String("addr", "127.0.0.1:0", "listen `address`; must be a loopback address")
	if code, ok := parseFlags(fs, env, args); !ok {
		return code
	}
	if !requireLibraries(env, "serve", *specs) {
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
	ws, err := workspace.OpenFace(ctx, *specs, workspace.Face{Mode: workspace.Serving})
	if err != nil {
		return fail(env, "serve", err)
	}
	defer ws.Close()
	api := uiapi.NewAPI(ws, uiapi.Options{WarmGraph: true})
	// The page is a window: MCP clients on these vaults that cannot ask the person
	// put their destructive calls in its approval queue.
	if stop, err := uiapi.ServeApprovals(api); err != nil {
		fmt.Fprintf(env.Stderr, "memotree serve: no approval queue for MCP clients: %v\n", err)
	} else {
		defer stop()
	}
	h := httpapi.Handler(httpapi.Deps{API: api, Bus: ws.Bus(), Assets: env.Assets, Token: token})
	srv := httpLimits.Server(h)
	fmt.Fprintf(env.Stdout, "http://%s/?token=%s\n", ln.Addr(), token)
	fmt.Fprintf(env.Stderr, "memotree serve: serving %d libraries; open the URL above (it carries the access token, which the page trades for a session of its tab and takes out of the address bar; the URL opens more tabs while this runs). Ctrl-C stops.\n", len(ws.Libraries()))
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
