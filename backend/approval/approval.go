// Package approval is the window's queue of calls that wait for the person, shared
// between processes through a vault's runtime files (vault.WriteCache: its .memotree
// folder, or, for a folder nobody wrote in through MemoTree yet, a folder of the
// user's cache that every process of the user finds by the vault's path, so that a
// window on a folder writes nothing in it). A process that cannot ask the
// person itself — `memotree mcp`, serving a client without MCP elicitation — puts a
// request there (Ask) and waits; a MemoTree window open on that vault (the desktop
// app, or `memotree serve` in a browser) hosts the queue (Serve), shows the request,
// and writes the person's answer.
//
// A window announces itself by holding a lock on a file of its own in the queue's
// folder (the system lets it go when the window's process dies); Ask asks only when
// such a lock is held, and otherwise answers ErrNoWindow at once.
//
// Concurrency: Ask and a Host are safe for concurrent use, within a process and
// across processes.
package approval

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/memotree/memotree/backend/vault"
)

// dir is the queue's folder among the vault's runtime files.
const dir = "approvals"

// The files of the queue: a window's presence lock, a request, its answer.
const (
	hostPrefix    = "host-"
	hostSuffix    = ".lock"
	requestSuffix = ".request.json"
	answerSuffix  = ".answer.json"
)

// ErrNoWindow means no MemoTree window is open on the vault to ask the person.
var ErrNoWindow = errors.New("no MemoTree window is open on this vault")

// ErrTooLong means a call's arguments are longer than MaxArgs, more than a person can
// be shown to approve.
var ErrTooLong = errors.New("the call's arguments are too long to show the person")

// Request is one call waiting for the person.
type Request struct {
	// ID names the request (random, file-name safe).
	ID string `json:"id"`
	// From says who asks, as the journey names actors ("mcp:Claude Desktop").
	From string `json:"from"`
	// Library, Tool and Args say what would run (Args as JSON, whole: at most MaxArgs).
	Library string `json:"library"`
	Tool    string `json:"tool"`
	Args    string `json:"args"`
	// Created is when the request was made.
	Created time.Time `json:"created"`
}

// answer is what the window writes.
type answer struct {
	Approve bool `json:"approve"`
}

// poll is how often Ask looks for the answer and a Host for requests: the files are a
// handful, so a look costs one small directory read.
var poll = 200 * time.Millisecond

// MaxArgs bounds the arguments of a call put to the person, in bytes: they are shown
// whole (the person approves only what they saw), so a longer call is refused
// (ErrTooLong) rather than shown cut.
const MaxArgs = 64 << 10

// newID returns a random request id.
func newID() (string, error) {
	b := make([]byte, 12)
	if _, err := rand.Read(b); err != nil {
		return "", fmt.Errorf("approval id: %w", err)
	}
	return hex.EncodeToString(b), nil
}

// validID reports whether s is an id newID could have made (it names files).
func validID(s string) bool {
	if len(s) != 24 {
		return false
	}
	for _, c := range s {
		if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f') {
			return false
		}
	}
	return true
}

// windowOpen reports whether a window holds its presence lock in v's queue. A lock
// file no one holds is left by a window that was killed; it is left alone (removing
// it could race with a window that just created it and is about to lock it).
func windowOpen(v vault.State) (bool, error) {
	names, err := v.ListCache(dir)
	if err != nil {
		return false, err
	}
	for _, n := range names {
		if !strings.HasPrefix(n, hostPrefix) || !strings.HasSuffix(n, hostSuffix) {
			continue
		}
		release, ok, err := v.HoldCache(dir + "/" + n)
		if err != nil {
			continue
		}
		if !ok {
			return true, nil
		}
		release()
	}
	return false, nil
}

// Ask puts req (its ID and Created are set here) in the queue of vault v and waits
// until the person answers in a window, the window withdraws it, or ctx ends. It
// returns the answer; ErrTooLong at once for arguments over MaxArgs; ErrNoWindow at
// once when no window is open on the vault, and as soon as the last one closes while
// the request waits; and ctx's error when it ended first. The request is gone from
// the queue when Ask returns.
func Ask(ctx context.Context, v vault.State, req Request) (bool, error) {
	if len(req.Args) > MaxArgs {
		return false, fmt.Errorf("%w: %d bytes, the most is %d", ErrTooLong, len(req.Args), MaxArgs)
	}
	open, err := windowOpen(v)
	if err != nil {
		return false, fmt.Errorf("ask the window: %w", err)
	}
	if !open {
		return false, ErrNoWindow
	}
	if req.ID, err = newID(); err != nil {
		return false, err
	}
	req.Created = time.Now().UTC()
	b, err := json.Marshal(req)
	if err != nil {
		return false, fmt.Errorf("ask the window: %w", err)
	}
	reqName, ansName := dir+"/"+req.ID+requestSuffix, dir+"/"+req.ID+answerSuffix
	if err := v.WriteCache(reqName, b); err != nil {
		return false, fmt.Errorf("ask the window: %w", err)
	}
	defer func() {
		_ = v.RemoveCache(reqName)
		_ = v.RemoveCache(ansName)
	}()
	t := time.NewTicker(poll)
	defer t.Stop()
	for {
		if b, err := v.ReadCache(ansName); err == nil {
			var a answer
			if err := json.Unmarshal(b, &a); err != nil {
				return false, fmt.Errorf("the window's answer to %s: %w", req.ID, err)
			}
			return a.Approve, nil
		}
		if _, err := v.ReadCache(reqName); err != nil {
			return false, errors.New("the window withdrew the request")
		}
		if open, err := windowOpen(v); err == nil && !open {
			return false, fmt.Errorf("%w: the window closed before the person answered", ErrNoWindow)
		}
		select {
		case <-ctx.Done():
			return false, context.Cause(ctx)
		case <-t.C:
		}
	}
}
