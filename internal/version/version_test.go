package version

import (
	"strings"
	"testing"
)

func TestStringNamesTheRelease(t *testing.T) {
	v := String()
	if !strings.HasPrefix(v, Release) || strings.Contains(v, "unknown") {
		t.Fatalf("version %q: want it to start with the release %q", v, Release)
	}
}

func TestReleaseIsNeverAPseudoVersion(t *testing.T) {
	for mv, want := range map[string]string{
		"":        Release,
		"(devel)": Release,
		"v0.0.0-20261201101959-d75d4f4b0417+dirty": Release,  // go build -buildvcs=true of a checkout
		"v0.9.1-0.20261201101959-d75d4f4b0417":     Release,  // a commit after a tag
		"v0.9.0":                                   "v0.9.0", // go install …@v0.9.0
	} {
		if got := releaseOf(mv); got != want {
			t.Errorf("main version %q: release %q, want %q", mv, got, want)
		}
	}
}
