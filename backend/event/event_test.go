package event

import (
	"testing"
	"time"
)

func TestBusDeliversToEverySubscriber(t *testing.T) {
	b := NewBus()
	a, cancelA := b.Subscribe(1)
	c, cancelC := b.Subscribe(1)
	defer cancelC()
	b.Publish(Event{Topic: VaultChanged, Data: VaultChange{Library: "x"}})
	for _, ch := range []<-chan Event{a, c} {
		select {
		case e := <-ch:
			if e.Topic != VaultChanged || e.Data.(VaultChange).Library != "x" {
				t.Fatalf("got %+v", e)
			}
		case <-time.After(30 * time.Second): // a last guard on a busy machine
			t.Fatal("event not delivered")
		}
	}
	cancelA()
	cancelA() // idempotent
	if _, ok := <-a; ok {
		t.Fatal("channel open after cancel")
	}
	b.Publish(Event{Topic: VaultChanged}) // must not panic on the closed subscriber
}

func TestPublishNeverBlocks(t *testing.T) {
	b := NewBus()
	_, cancel := b.Subscribe(1)
	defer cancel()
	done := make(chan struct{})
	go func() {
		for range 100 {
			b.Publish(Event{Topic: VaultChanged})
		}
		close(done)
	}()
	select {
	case <-done:
	case <-time.After(30 * time.Second): // a last guard on a busy machine
		t.Fatal("Publish blocked on a full subscriber")
	}
}
