package web

import (
	"errors"
	"testing"
)

// TestPublicMessageNamesPathsInsideTheRoots: an error page names a file by its path inside the
// served directory and a table by its name — never where the server keeps them — and leaves
// alone a path that only begins like a root (issue 64).
func TestPublicMessageNamesPathsInsideTheRoots(t *testing.T) {
	s := &Server{Roots: []string{"/srv/runs"}, Tables: []string{"/t/game.kgt"}}
	for in, want := range map[string]string{
		"arena: open /srv/runs/sym/matches.parquet: path escapes from parent": "arena: open sym/matches.parquet: path escapes from parent",
		"web: open /srv/runs: permission denied":                              "web: open runs: permission denied",
		"open /srv/runs2/a: no such file":                                     "open /srv/runs2/a: no such file",
		"read /t/game.kgt: truncated":                                         "read game.kgt: truncated",
	} {
		if got := s.publicMessage(errors.New(in)); got != want {
			t.Errorf("publicMessage(%q) = %q, want %q", in, got, want)
		}
	}
}
