package mcpserver

import (
	"container/list"
	"fmt"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// sessionCap keeps at most maxSessions sessions of the HTTP handler alive: it knows
// them from the least to the most recently used, and when a new one would pass the
// bound it closes the least recently used, first forgetting those the handler closed
// itself (idle, or ended by the client). A request of a session it closed gets a 404
// saying why, which tells a client of the streamable HTTP transport to initialize
// again. Concurrency: safe for concurrent use.
type sessionCap struct {
	server *mcp.Server
	mu     sync.Mutex
	order  *list.List               // of session ids, least recently used first
	live   map[string]*list.Element // id -> its place in order
	closed map[string]bool          // ids this closed, the last maxClosed of them
	fifo   []string                 // closed, oldest first
}

// maxClosed bounds how many closed session ids are remembered for their message.
const maxClosed = 4096

func newSessionCap(server *mcp.Server) *sessionCap {
	return &sessionCap{server: server, order: list.New(), live: map[string]*list.Element{}, closed: map[string]bool{}}
}

// use marks the session id as just used. It returns the message to answer with when
// the session was closed to make room for others, else "".
func (c *sessionCap) use(id string) string {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.closed[id] {
		return fmt.Sprintf("session %s was closed: this server keeps at most %d MCP sessions and this one "+
			"had gone unused the longest; initialize a new session (a client that initializes for every "+
			"request should keep its session id instead)", id, maxSessions)
	}
	if e, ok := c.live[id]; ok {
		c.order.MoveToBack(e)
	}
	return ""
}

// opened records a session just opened, closing the least recently used ones beyond
// maxSessions.
func (c *sessionCap) opened(id string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, ok := c.live[id]; ok {
		return
	}
	c.live[id] = c.order.PushBack(id)
	if c.order.Len() <= maxSessions {
		return
	}
	sessions := map[string]*mcp.ServerSession{}
	for ss := range c.server.Sessions() {
		sessions[ss.ID()] = ss
	}
	for e := c.order.Front(); e != nil; {
		next := e.Next()
		if id := e.Value.(string); sessions[id] == nil {
			c.order.Remove(e) // closed by the handler: idle, or deleted by its client
			delete(c.live, id)
		}
		e = next
	}
	for c.order.Len() > maxSessions {
		e := c.order.Front()
		old := e.Value.(string)
		c.order.Remove(e)
		delete(c.live, old)
		c.remember(old)
		if ss := sessions[old]; ss != nil {
			_ = ss.Close() // the handler forgets it; its GET stream ends
		}
	}
}

// remember notes a session closed here, forgetting the oldest beyond maxClosed.
func (c *sessionCap) remember(id string) {
	c.closed[id] = true
	c.fifo = append(c.fifo, id)
	if len(c.fifo) > maxClosed {
		delete(c.closed, c.fifo[0])
		c.fifo = c.fifo[1:]
	}
}
