// Package version names the build of kingoal that made a result: the release in the
// source, the module version when installed with `go install …@version`, and the VCS
// revision when Go stamped one into the binary. It is printed by `kingoal --version` and
// recorded in every run.json, so a result always says which code made it.
package version
