package uiapi

import (
	"context"
	"errors"
	"strings"
	"sync"
	"time"

	"github.com/memotree/memotree/backend/agent"
	"github.com/memotree/memotree/backend/event"
	"github.com/memotree/memotree/backend/tool"
)

// deltaEvery is how long streamed text gathers before it is published: a fast
// server sends hundreds of pieces a second, more than the bus should carry.
const deltaEvery = 40 * time.Millisecond

// maxResultShown bounds the tool result an event carries.
const maxResultShown = 16 << 10

// chatOut publishes one turn's progress on the bus, in order: gathered text before
// each tool event and before the end.
type chatOut struct {
	bus           *event.Bus
	session, turn string

	mu  sync.Mutex
	buf strings.Builder
	// thinking says buf holds the model's reasoning, not its answer.
	thinking bool
	seq      int
	timer    *time.Timer
	closed   bool
	// log is what was published so far, for a window that attaches mid-turn (a
	// reload): consecutive deltas merged into one, approvals kept until answered.
	log []event.Event
}

// publishLocked publishes e and records it in the log.
func (o *chatOut) publishLocked(e event.Event) {
	o.bus.Publish(e)
	if d, ok := e.Data.(event.ChatDeltaEvent); ok && len(o.log) > 0 {
		if prev, ok := o.log[len(o.log)-1].Data.(event.ChatDeltaEvent); ok && prev.Reasoning == d.Reasoning {
			prev.Text += d.Text
			prev.Seq = d.Seq
			o.log[len(o.log)-1].Data = prev
			return
		}
	}
	o.log = append(o.log, e)
}

// approval publishes a request for the person's approval.
func (o *chatOut) approval(e event.ChatApprovalEvent) {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.flushLocked()
	o.publishLocked(event.Event{Topic: event.ChatApproval, Data: e})
}

// answered drops the approval request id from the log.
func (o *chatOut) answered(id string) {
	o.mu.Lock()
	defer o.mu.Unlock()
	for i, e := range o.log {
		if a, ok := e.Data.(event.ChatApprovalEvent); ok && a.ID == id {
			o.log = append(o.log[:i], o.log[i+1:]...)
			return
		}
	}
}

// snapshot returns the events published so far, text gathered but not yet
// published included.
func (o *chatOut) snapshot() []event.Event {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.flushLocked()
	return append([]event.Event(nil), o.log...)
}

func newChatOut(bus *event.Bus, session, turn string) *chatOut {
	return &chatOut{bus: bus, session: session, turn: turn}
}

// delta gathers streamed answer text and schedules its publication.
func (o *chatOut) delta(text string) { o.gather(text, false) }

// reasoning gathers the model's streamed reasoning, published apart from the answer.
func (o *chatOut) reasoning(text string) { o.gather(text, true) }

// gather adds streamed text of one kind; text of the other kind gathered so far is
// published first, so that the order is kept.
func (o *chatOut) gather(text string, thinking bool) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.closed {
		return
	}
	if o.buf.Len() > 0 && o.thinking != thinking {
		o.flushLocked()
	}
	o.thinking = thinking
	o.buf.WriteString(text)
	if o.timer == nil {
		o.timer = time.AfterFunc(deltaEvery, o.flush)
	}
}

// flush publishes the gathered text.
func (o *chatOut) flush() {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.flushLocked()
}

func (o *chatOut) flushLocked() {
	if o.timer != nil {
		o.timer.Stop()
		o.timer = nil
	}
	if o.buf.Len() == 0 {
		return
	}
	o.seq++
	o.publishLocked(event.Event{Topic: event.ChatDelta, Data: event.ChatDeltaEvent{Session: o.session, Turn: o.turn, Seq: o.seq, Text: o.buf.String(), Reasoning: o.thinking}})
	o.buf.Reset()
}

// call publishes a tool call's start or end (approvals go out through the approver).
func (o *chatOut) call(e agent.CallEvent) {
	if e.Phase == agent.PhaseApproval {
		o.flush()
		return
	}
	o.mu.Lock()
	defer o.mu.Unlock()
	o.flushLocked()
	ev := event.ChatToolEvent{Session: o.session, Turn: o.turn, ID: e.ID, Name: e.Name, Args: e.Args, Phase: e.Phase}
	if e.Result != nil {
		ev.Status, ev.Message = string(e.Result.Status), e.Result.Message
		ev.Result, _ = tool.Clip(e.Result.YAML(), maxResultShown)
	}
	o.publishLocked(event.Event{Topic: event.ChatTool, Data: ev})
}

// done publishes the end of the turn with a message a person can act on.
func (o *chatOut) done(answer string, err error, stopped bool) {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.flushLocked()
	o.closed = true
	ev := event.ChatDoneEvent{Session: o.session, Turn: o.turn, Answer: answer}
	switch {
	case stopped || errors.Is(err, context.Canceled):
		ev.Stopped = true
		ev.Error = "Stopped. Calls that had not run were not run, and the reply in progress was dropped; the conversation is saved as it is."
	case err != nil:
		ev.Error = err.Error()
	}
	o.bus.Publish(event.Event{Topic: event.ChatDone, Data: ev})
}
