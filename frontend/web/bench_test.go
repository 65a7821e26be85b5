package web_test

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"testing"

	"github.com/kingoal/kingoal/arena"
	"github.com/kingoal/kingoal/env"
	"github.com/kingoal/kingoal/frontend/web"
)

func benchGet(b *testing.B, url string) {
	resp, err := http.Get(url)
	if err != nil {
		b.Fatal(err)
	}
	io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 {
		b.Fatalf("%s: %d", url, resp.StatusCode)
	}
}

// BenchmarkReplayPage: a replay page of a default-rules match between heuristic and random,
// each request a different match (no cached replay), and one frame of it.
func BenchmarkReplayPage(b *testing.B) {
	root := b.TempDir()
	c := arena.Config{Agents: []string{"heuristic", "random"}, Rules: env.Rules{}, Matches: 1000, Seed: 1}
	if _, err := arena.Play(context.Background(), c, filepath.Join(root, "run"), arena.Options{}); err != nil {
		b.Fatal(err)
	}
	srv := httptest.NewServer((&web.Server{Roots: []string{root}}).Handler())
	defer srv.Close()
	b.ResetTimer()
	for i := range b.N {
		benchGet(b, fmt.Sprintf("%s/run/0/run/match/%d/", srv.URL, i%1000))
		benchGet(b, fmt.Sprintf("%s/run/0/run/match/%d/frame/1.png", srv.URL, i%1000))
	}
}

// BenchmarkPlayPage: a play page at the second half's break of a default-rules match against
// heuristic, with hints (the whole match so far is played again for every request).
func BenchmarkPlayPage(b *testing.B) {
	srv := httptest.NewServer((&web.Server{}).Handler())
	defer srv.Close()
	url := srv.URL + "/play/?vs=heuristic&seed=3&choices=60"
	benchGet(b, url)
	b.ResetTimer()
	for range b.N {
		benchGet(b, url)
	}
}

// BenchmarkAnalysisPage: the analysis page of a default-rules match between heuristic and
// random, each request a different match, judged by the default rules' table in
// $KINGOAL_GAME_TABLE (read before the timer starts; skipped without it).
func BenchmarkAnalysisPage(b *testing.B) {
	table := os.Getenv("KINGOAL_GAME_TABLE")
	if table == "" {
		b.Skip("KINGOAL_GAME_TABLE: a table of the default rules (kingoal solve game --out FILE.kgt)")
	}
	root := b.TempDir()
	c := arena.Config{Agents: []string{"heuristic", "random"}, Rules: env.Rules{}, Matches: 1000, Seed: 1}
	if _, err := arena.Play(context.Background(), c, filepath.Join(root, "run"), arena.Options{}); err != nil {
		b.Fatal(err)
	}
	srv := httptest.NewServer((&web.Server{Roots: []string{root}, Tables: []string{table}}).Handler())
	defer srv.Close()
	benchGet(b, srv.URL+"/run/0/run/match/0/analysis/")
	b.ResetTimer()
	for i := range b.N {
		benchGet(b, fmt.Sprintf("%s/run/0/run/match/%d/analysis/", srv.URL, 1+i%999))
	}
}
