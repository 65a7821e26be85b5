package cli

import (
	"bytes"
	"image/gif"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/kingoal/kingoal/frame"
	"github.com/kingoal/kingoal/frontend/cli/command"
)

// TestWatchGIF: --gif writes one frame for the kick-off and one an event of the transcript,
// the same bytes for the same seed, and refuses to replace a file without --force.
func TestWatchGIF(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "match.gif")
	args := []string{"watch", "heuristic", "random", "--throws-per-half", "5", "--seed", "4", "--gif", path}
	code, out, stderr := run(t, args...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	first, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	g, err := gif.DecodeAll(bytes.NewReader(first))
	if err != nil {
		t.Fatal(err)
	}
	events := strings.Count(strings.Split(out, "\n\n")[1], "\n") + 1 // the transcript between the header and the result
	if len(g.Image) != events+1 || g.Config.Width != frame.Width || g.Config.Height != frame.Height || g.Delay[len(g.Delay)-1] <= g.Delay[0] {
		t.Errorf("%d frames of %dx%d for %d events; delays %v", len(g.Image), g.Config.Width, g.Config.Height, events, g.Delay)
	}
	if code, _, stderr := run(t, args...); code != command.ExitUsage || !strings.Contains(stderr, "--force") {
		t.Errorf("a second run over the GIF: exit %d %q", code, stderr)
	}
	if code, _, stderr := run(t, append(args, "--force")...); code != 0 {
		t.Fatalf("--force: %s", stderr)
	}
	if again, _ := os.ReadFile(path); !bytes.Equal(again, first) {
		t.Error("the same seed wrote another GIF")
	}
}
