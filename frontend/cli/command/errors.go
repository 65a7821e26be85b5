// Errors and exit codes: what a failure prints (one line) and the code it exits with.

package command

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strings"
)

// Exit codes.
const (
	ExitOK          = 0
	ExitFailure     = 1
	ExitUsage       = 2   // bad flags, arguments or values
	ExitInterrupted = 130 // Ctrl-C
)

// UsageError marks bad input from the user: exit code 2.
type UsageError struct{ err error }

func (u UsageError) Error() string { return u.err.Error() }

func (u UsageError) Unwrap() error { return u.err }

// Usage marks err as a usage error (exit 2).
func Usage(err error) error { return UsageError{err} }

// Usagef is a usage error (exit 2) with a formatted message; kingoal-beam's own flags use it
// too.
func Usagef(format string, a ...any) error { return UsageError{fmt.Errorf(format, a...)} }

// Message is err's one line for the user after the program's name: what it concerns, then
// what is wrong. It starts with the command that ran (what: "solve game", "leaderboard"), a
// package's prefix that the user never typed ("arena: ", "bench: ") dropped: a command's
// errors read as its own wherever they come from (issue 64: leaderboard and analyse said
// "arena: "). An interruption says so in words rather than Go's "context canceled", in the
// command that was interrupted ("eval: interrupted", "solve game: interrupted").
func Message(err error, prefix, what string) string {
	msg := strings.TrimPrefix(err.Error(), prefix)
	if errors.Is(err, context.Canceled) {
		msg = strings.TrimSuffix(strings.TrimSuffix(msg, "context canceled"), ": ")
		if msg = strings.TrimPrefix(msg, what+": "); msg == what {
			msg = ""
		}
		if !strings.Contains(msg, "interrupted") && !strings.Contains(msg, "stopped") {
			msg = strings.TrimSuffix("interrupted in "+msg, " in ")
		}
	}
	if what == "" || what == strings.TrimSuffix(prefix, ": ") || msg == what || strings.HasPrefix(msg, what+": ") || strings.HasPrefix(msg, what+" ") {
		return msg
	}
	return what + ": " + withoutPackage(msg)
}

// foreignPrefixes are the packages whose prefix a command's message drops: the user named a
// command, not them. "agents: " stays, since its messages name the spec the user wrote.
var foreignPrefixes = []string{"analysis", "arena", "bench", "datasets", "env", "exploit", "frame", "game", "dyngame", "safefile",
	"live", "match", "rank", "solver", "train", "web", "catalogue", "lineup", "odds", "policy"}

func withoutPackage(msg string) string {
	if pkg, rest, found := strings.Cut(msg, ": "); found && slices.Contains(foreignPrefixes, pkg) {
		return rest
	}
	return msg
}

// IsCobraUsage recognises the errors cobra raises itself for unknown commands.
func IsCobraUsage(err error) bool {
	msg := err.Error()
	return strings.HasPrefix(msg, "unknown command") || strings.HasPrefix(msg, "unknown flag") ||
		strings.HasPrefix(msg, "unknown shorthand flag")
}

// FlagError is a usage error naming the flag, its message without the package prefix of err
// ("--format: format "x": …" rather than "--format: arena: format …"), err still in its chain.
func FlagError(flag string, err error) error {
	return UsageError{fmt.Errorf("%s: %w", flag, Prefixless{err})}
}

// Prefixless is err whose message drops its leading package name ("env: ", "solver: "): for
// one-line messages that already say where they come from. errors.Is and As see err.
type Prefixless struct{ err error }

// NoPrefix is err printed without the command's name before it.
func NoPrefix(err error) error { return Prefixless{err} }

func (p Prefixless) Error() string {
	msg := p.err.Error()
	if pkg, rest, found := strings.Cut(msg, ": "); found && pkg != "" && strings.Trim(pkg, "abcdefghijklmnopqrstuvwxyz") == "" {
		return rest
	}
	return msg
}

func (p Prefixless) Unwrap() error { return p.err }

// flagValueError rewrites pflag's "invalid argument "x" for "-n, --matches" flag:
// strconv.ParseInt: parsing "x": invalid syntax" in the user's words.
var flagValueError = regexp.MustCompile(`^invalid argument "(.*)" for "(?:-\w, )?(--[\w-]+)" flag: strconv\.Parse(Int|Uint|Float|Bool): .*?(value out of range|invalid syntax)$`)

// flagWantError is pflag's wording of a refusal by one of our flag values (enumValue,
// knobValue), which say what they want.
var flagWantError = regexp.MustCompile(`^invalid argument "(.*)" for "(?:-\w, )?(--[\w-]+)" flag: (?:".*": )?(want .*)$`)

func FlagMessage(err error) error {
	if m := flagWantError.FindStringSubmatch(err.Error()); m != nil {
		return Usagef("%s %q: %s", m[2], m[1], m[3])
	}
	m := flagValueError.FindStringSubmatch(err.Error())
	if m == nil {
		return UsageError{err}
	}
	want := map[string]string{"Int": "a whole number", "Uint": "a whole number ≥ 0", "Float": "a number", "Bool": "true or false"}[m[3]]
	if m[4] == "value out of range" {
		want += " in range"
	}
	return Usagef("%s %s: want %s", m[2], m[1], want)
}
