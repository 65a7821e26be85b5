package cli

import (
	"strings"

	"github.com/spf13/pflag"

	"github.com/kingoal/kingoal/env"
)

// ruleFlags are the rule knobs (rules §9) shared by every command that plays or solves.
type ruleFlags struct {
	knockout, tiesCount         bool
	throwsPerHalf, extra, moves int
	homeMode, awayMode, trigger string
	points                      string
}

func (f *ruleFlags) register(fs *pflag.FlagSet) {
	fs.BoolVar(&f.knockout, "knockout", false, "knockout match: a draw goes to extra time, then penalties")
	fs.BoolVar(&f.tiesCount, "ties-count", false, "a tied throw consumes a throw and leaves the ball (default: ties are thrown again)")
	fs.IntVar(&f.throwsPerHalf, "throws-per-half", 45, "throws in each regular half")
	fs.IntVar(&f.extra, "extra-throws", 15, "throws in each extra-time half (0: a level knockout goes straight to penalties)")
	fs.IntVar(&f.moves, "moves", 3, "Basic-mode moves per match (0: none)")
	fs.StringVar(&f.homeMode, "home-mode", "basic", "home's mode: basic or dynamic")
	fs.StringVar(&f.awayMode, "away-mode", "basic", "away's mode: basic or dynamic")
	fs.StringVar(&f.trigger, "dynamic-trigger", "win", "which won throws earn a Dynamic shift: win or turnover")
	fs.StringVar(&f.points, "points", "3,1,0", "league points for win,draw,loss")
}

// rules turns the flags into env.Rules; every problem is a usage error.
func (f *ruleFlags) rules() (env.Rules, error) {
	r := env.Rules{Knockout: f.knockout, TiesCount: f.tiesCount}
	if f.throwsPerHalf < 1 || f.throwsPerHalf > env.MaxThrowsPerHalf {
		return r, usagef("--throws-per-half %d: want 1..%d", f.throwsPerHalf, env.MaxThrowsPerHalf)
	}
	r.ThrowsPerHalf = f.throwsPerHalf
	var err error
	if r.ExtraThrowsPerHalf, err = optionalCount("--extra-throws", f.extra, env.MaxThrowsPerHalf, env.NoExtraTime); err != nil {
		return r, err
	}
	if r.Moves, err = optionalCount("--moves", f.moves, env.MaxMoves, env.NoMoves); err != nil {
		return r, err
	}
	for _, m := range []struct {
		flag, val string
		dst       *env.Mode
	}{{"--home-mode", f.homeMode, &r.Modes[env.Home]}, {"--away-mode", f.awayMode, &r.Modes[env.Away]}} {
		if *m.dst, err = env.ParseMode(m.val); err != nil {
			return r, flagError(m.flag, err)
		}
	}
	if r.DynamicTrigger, err = env.ParseTrigger(f.trigger); err != nil {
		return r, flagError("--dynamic-trigger", err)
	}
	if r.Points, err = env.ParsePoints(f.points); err != nil {
		return r, flagError("--points", err)
	}
	if err := r.Validate(); err != nil {
		return r, usageError{err}
	}
	return r, nil
}

// flagError names the flag and drops the package prefix of err: "--points: points "x": …".
func flagError(flag string, err error) error {
	return usagef("%s: %s", flag, strings.TrimPrefix(err.Error(), "env: "))
}

// optionalCount maps a count flag on which 0 means "none" to its Rules field, where the
// zero value means the default and none is a sentinel.
func optionalCount(flag string, v, limit, none int) (int, error) {
	switch {
	case v < 0 || v > limit:
		return 0, usagef("%s %d: want 0..%d", flag, v, limit)
	case v == 0:
		return none, nil
	}
	return v, nil
}
