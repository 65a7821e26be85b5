// Package shellquote writes a word so that a POSIX shell reads it back unchanged: the
// commands Kingoal prints for a user to paste (a run's --resume) name user paths, which may
// hold spaces, quotes or $(…).
package shellquote

import "strings"

// Quote returns s as one shell word: as it is when it holds only characters no shell
// treats specially, otherwise in single quotes (a single quote inside as '\”).
func Quote(s string) string {
	if s != "" && strings.Trim(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-+=./:,@%") == "" {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
