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
