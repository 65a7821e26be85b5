package web_test

import (
	"bytes"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/kingoal/kingoal/arena/arenatest"
	"github.com/kingoal/kingoal/datasets"
	"github.com/kingoal/kingoal/env"
	"github.com/kingoal/kingoal/frontend/web"
)

// TestSwappedRunNeverReadOutside: while one goroutine swaps a served run's directory for a
// symbolic link to a run outside the roots (and back), then its matches.parquet for a link to
// the outside run's, then a policy file for a link to one outside, every page of the run is requested again and again; no
// response shows anything of the outside run. (Before every reader went through the run's
// directory opened once, a few responses in a run of this test showed it: 2 and 3 of 2,400;
// arena's TestRunFilesKeepTheirDirectory shows the same without timing.)
func TestSwappedRunNeverReadOutside(t *testing.T) {
	sw := arenatest.PlaySwappable(t)
	root, run, away, outside := sw.Root, sw.Run, sw.Outside, filepath.Dir(sw.Outside)
	for dir, lineup := range map[string]string{root: "2-2-2-2-2", outside: "1-1-4-2-2"} {
		rows := []datasets.PolicyRow{{Kind: "basic", Period: env.SecondHalf.String(), ThrowsLeft: 1, Lineup: lineup, Action: lineup, Value: 0.5}}
		if err := datasets.WriteParquet(filepath.Join(dir, "pol.parquet"), datasets.PolicySchema, rows); err != nil {
			t.Fatal(err)
		}
	}
	chart, err := os.ReadFile(filepath.Join(away, "ratings.png"))
	if err != nil {
		t.Fatal(err)
	}
	// What only the outside run can show: its agent, its match count, its chart.
	leaked := func(body []byte) bool {
		return bytes.Contains(body, []byte("1-1-4-2-2")) || bytes.Contains(body, []byte(`"total_matches":3`)) || bytes.Equal(body, chart)
	}
	srv := httptest.NewServer((&web.Server{Roots: []string{root}}).Handler())
	defer srv.Close()

	var stop atomic.Bool
	swapped := make(chan struct{})
	// swap puts a link to target where real was, takes it away, and puts real back.
	swap := func(real, moved, target string) {
		if err := os.Rename(real, moved); err != nil {
			t.Errorf("moving %s: %v", real, err)
			return
		}
		_ = os.Symlink(target, real)
		time.Sleep(time.Millisecond)
		_ = os.Remove(real)
		if err := os.Rename(moved, real); err != nil {
			t.Errorf("putting %s back: %v", real, err)
		}
		time.Sleep(200 * time.Microsecond)
	}
	go func() {
		defer close(swapped)
		for !stop.Load() {
			swap(run, filepath.Join(root, ".r-moved"), away)
			swap(filepath.Join(run, "matches.parquet"), filepath.Join(run, ".m-moved"), filepath.Join(away, "matches.parquet"))
			swap(filepath.Join(root, "pol.parquet"), filepath.Join(root, ".p-moved"), filepath.Join(outside, "pol.parquet"))
		}
	}()

	paths := []string{"/", "/run/0/r/", "/run/0/r/progress.json", "/run/0/r/matches/", "/run/0/r/chart/ratings.png",
		"/run/0/r/match/1/", "/run/0/r/match/1/frame/3.png", "/policy/0/pol.parquet"}
	var requests, outsideReads, served atomic.Int64
	var clients sync.WaitGroup
	each := 1200
	if testing.Short() { // the race stage: the detector makes each request ~10× slower; go test ./... sends all
		each = 400
	}
	for c := range 2 {
		clients.Add(1)
		go func() {
			defer clients.Done()
			for i := range each {
				resp, err := http.Get(srv.URL + paths[(i+c)%len(paths)])
				if err != nil {
					t.Error(err)
					return
				}
				body, _ := io.ReadAll(resp.Body)
				resp.Body.Close()
				requests.Add(1)
				if resp.StatusCode == http.StatusOK {
					served.Add(1)
				}
				if leaked(body) {
					outsideReads.Add(1)
				}
			}
		}()
	}
	clients.Wait()
	stop.Store(true)
	<-swapped
	t.Logf("%d requests, %d answered 200, %d showed the outside run", requests.Load(), served.Load(), outsideReads.Load())
	if n := outsideReads.Load(); n != 0 {
		t.Errorf("%d of %d responses showed the run outside the roots", n, requests.Load())
	}
	if served.Load() == 0 {
		t.Error("no request was answered: the test proves nothing")
	}
	// Once the swapping stops, the run is served whole.
	if code, body := get(t, srv, "/run/0/r/"); code != 200 || !strings.Contains(body, "2-2-2-2-2") {
		t.Errorf("after the swaps: %d\n%s", code, body)
	}
}

// TestAFailedReadIsNotKept: a leaderboard read that failed is read again next time, even
// when the run's files are back exactly as they were (name, size and time), as after a swap
// in TestSwappedRunNeverReadOutside; a kept error showed the page broken for good.
func TestAFailedReadIsNotKept(t *testing.T) {
	sw := arenatest.PlaySwappable(t)
	srv := httptest.NewServer((&web.Server{Roots: []string{sw.Root}}).Handler())
	defer srv.Close()
	path := filepath.Join(sw.Run, "matches.parquet")
	good, err := os.ReadFile(path)
	info, err2 := os.Stat(path)
	if err != nil || err2 != nil {
		t.Fatal(err, err2)
	}
	// put writes b where the matches were, with their time: the run's stamp does not change.
	put := func(b []byte) {
		if err := os.WriteFile(path, b, 0o644); err != nil || os.Chtimes(path, info.ModTime(), info.ModTime()) != nil {
			t.Fatal(err)
		}
	}
	put(bytes.Repeat([]byte{'x'}, len(good)))
	if code, body := get(t, srv, "/run/0/r/"); code == 200 && !strings.Contains(body, `class="err"`) {
		t.Fatalf("damaged matches served as a leaderboard: %d\n%s", code, body)
	}
	put(good)
	if code, body := get(t, srv, "/run/0/r/"); code != 200 || !strings.Contains(body, "2-2-2-2-2") || strings.Contains(body, `class="err"`) {
		t.Errorf("the run put back: %d\n%s", code, body)
	}
}
