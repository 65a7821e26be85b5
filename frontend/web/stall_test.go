package web

import (
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// TestStalledClientsAreCutOff: 40 clients ask for a 64 MiB answer and never read it; each
// write waits at most WriteStall, so every handler is done within a few stalls (before, each
// one waited for its client for good, holding its page). A client that reads gets it whole.
func TestStalledClientsAreCutOff(t *testing.T) {
	page := strings.Repeat("x", 64<<20) // more than a socket's buffers can hold (tcp_rmem + tcp_wmem: at most 36 MiB here)
	var finished, failed atomic.Int32
	s := &Server{WriteStall: 200 * time.Millisecond}
	srv := httptest.NewUnstartedServer(s.guard(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		defer finished.Add(1)
		for i := 0; i < len(page); i += 64 << 10 {
			if _, err := w.Write([]byte(page[i : i+64<<10])); err != nil {
				failed.Add(1)
				return
			}
		}
	})))
	srv.Start()
	defer srv.Close()
	const clients = 40
	for range clients {
		c, err := net.Dial("tcp", srv.Listener.Addr().String())
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		fmt.Fprintf(c, "GET / HTTP/1.1\r\nHost: localhost\r\n\r\n") // and never read
	}
	deadline := time.Now().Add(15 * time.Second)
	for finished.Load() < clients && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
	}
	if finished.Load() != clients || failed.Load() != clients {
		t.Fatalf("%d of %d stalled clients' handlers ended (%d cut off), want all", finished.Load(), clients, failed.Load())
	}
	resp, err := http.Get(srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if n, err := io.Copy(io.Discard, resp.Body); n != int64(len(page)) || err != nil {
		t.Errorf("a reading client got %d bytes of %d (%v)", n, len(page), err)
	}
}
