package httpapi

import (
	"net/http"
	"time"
)

// Limits bound what one client connection of a local server may hold.
type Limits struct {
	// ReadHeader is how long a connection may take to send a request's headers,
	// counted from when it opened or from the end of the previous answer.
	ReadHeader time.Duration
	// Idle is how long a kept-alive connection may stay silent between requests.
	Idle time.Duration
	// MaxHeaderBytes bounds a request's headers.
	MaxHeaderBytes int
}

// DefaultLimits are the limits of `memotree serve` and `memotree mcp --http`. No
// whole-request or write timeout: the event stream and MCP's streamed answers stay
// open for as long as the page or the client listens.
var DefaultLimits = Limits{ReadHeader: 10 * time.Second, Idle: 60 * time.Second, MaxHeaderBytes: 64 << 10}

// Server returns an http.Server serving h within l.
func (l Limits) Server(h http.Handler) *http.Server {
	return &http.Server{Handler: h, ReadHeaderTimeout: l.ReadHeader, IdleTimeout: l.Idle, MaxHeaderBytes: l.MaxHeaderBytes}
}
