package web_test

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"

	"github.com/kingoal/kingoal/arena"
	"github.com/kingoal/kingoal/env"
	"github.com/kingoal/kingoal/frontend/web"
)

// A run played into a directory, served: the runs page lists it and its leaderboard page
// answers.
func ExampleServer() {
	root, err := os.MkdirTemp("", "kingoal-example")
	if err != nil {
		fmt.Println(err)
		return
	}
	defer os.RemoveAll(root)
	c := arena.Config{Agents: []string{"heuristic", "random"}, Rules: env.Rules{ThrowsPerHalf: 5}, Matches: 4, Seed: 1}
	if _, err := arena.Play(context.Background(), c, filepath.Join(root, "demo"), arena.Options{}); err != nil {
		fmt.Println(err)
		return
	}
	srv := httptest.NewServer((&web.Server{Roots: []string{root}}).Handler())
	defer srv.Close()
	for _, path := range []string{"/", "/run/0/demo"} {
		res, err := http.Get(srv.URL + path)
		if err != nil {
			fmt.Println(err)
			return
		}
		page, _ := io.ReadAll(res.Body)
		res.Body.Close()
		fmt.Printf("%s: %d, names demo: %v, names heuristic: %v\n", path, res.StatusCode, strings.Contains(string(page), "demo"), strings.Contains(string(page), "heuristic"))
	}
	// Output:
	// /: 200, names demo: true, names heuristic: true
	// /run/0/demo: 200, names demo: true, names heuristic: true
}
