package mcpproxy

import (
	"net/http"
	"testing"
	"time"
)

// TestIdleSessionsClock: the door's clock of a session ends it (a DELETE
// to the go-sdk's handler) only once no request of it has been open for
// the timeout; a request open when the clock would run out stops it; a
// request that arrives while the session is being ended waits and is
// told the session is unknown (then answered as one that has ended),
// never served by a session cut off under it.
func TestIdleSessionsClock(t *testing.T) {
	deleted := make(chan string, 4)
	unblock := make(chan struct{})
	next := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodDelete {
			deleted <- r.Header.Get("Mcp-Session-Id")
			<-unblock
		}
	})
	const timeout = 50 * time.Millisecond
	s := newIdleSessions(timeout, next)
	s.started("a") // the initialize, open
	if !s.acquire("a") {
		t.Fatal("a started session is unknown")
	}
	s.release("a") // one request still open: no clock
	select {
	case id := <-deleted:
		t.Fatalf("session %s ended with a request open", id)
	case <-time.After(4 * timeout):
	}
	s.release("a") // the last one: the clock runs
	if s.acquire("nope") {
		t.Error("an unknown session is known")
	}
	select {
	case id := <-deleted:
		if id != "a" {
			t.Fatalf("ended %q", id)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("an unused session was not ended")
	}
	// Being ended (the DELETE blocks): a request of it waits, then is
	// told it is unknown.
	got := make(chan bool)
	go func() { got <- s.acquire("a") }()
	select {
	case ok := <-got:
		t.Fatalf("acquire returned %v while the session was being ended", ok)
	case <-time.After(2 * timeout):
	}
	close(unblock)
	if <-got {
		t.Error("a request of an ended session was let through")
	}
	if s.acquire("a") {
		t.Error("an ended session is still known")
	}
}
