package version

import (
	"regexp"
	"runtime/debug"
	"strings"
)

// Release is the release this source tree belongs to; "-dev" marks work after it.
const Release = "0.9.0-dev"

// String is Release, or the module version of an installed release, followed by the VCS
// revision when the binary carries one ("+dirty" for uncommitted changes). Never empty and
// never "unknown": a `go run` or a -buildvcs=false build still names its release.
func String() string {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return Release
	}
	v := releaseOf(bi.Main.Version)
	rev, dirty := "", ""
	for _, s := range bi.Settings {
		switch {
		case s.Key == "vcs.revision":
			rev = s.Value
		case s.Key == "vcs.modified" && s.Value == "true":
			dirty = "+dirty"
		}
	}
	if rev != "" {
		v += " (" + rev + dirty + ")"
	}
	return v
}

// pseudo matches a Go pseudo-version's timestamp and revision ("v0.0.0-20261201101959-d75d4f4b0417").
var pseudo = regexp.MustCompile(`\d{14}-[0-9a-f]{12}`)

// releaseOf is the release a binary names: the module version of an installed release tag,
// else Release. A VCS-stamped build of a checkout carries a pseudo-version (Go 1.24 on),
// which names no release: the release is the source's, and the revision follows it.
func releaseOf(mainVersion string) string {
	if mainVersion == "" || mainVersion == "(devel)" || pseudo.MatchString(mainVersion) || strings.HasSuffix(mainVersion, "+dirty") {
		return Release
	}
	return mainVersion
}
