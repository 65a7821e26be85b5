package version

import "runtime/debug"

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
	v := Release
	if mv := bi.Main.Version; mv != "" && mv != "(devel)" {
		v = mv
	}
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
