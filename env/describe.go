package env

import (
	"fmt"
	"strings"
)

// DescribeChance says in one line what a chance outcome did: before and after are the
// states around it, r the dice (the zero Roll when the sampler rolled none). Transcripts,
// logs and the CLI use it.
//
//	H1 44 ball 3: 2 dice v 2 → away wins, ball 2
//	H1 41 ball 5: [6 3] v [4 4 1] → home wins: GOAL 1-0
//
// The dice thrown, where the sampler rolled them (their count is the list's length), or
// else how many each side threw ("2 dice v 3": counts, not values).
func DescribeChance(before, after State, o Outcome, r Roll) string {
	var b strings.Builder
	switch before.phase {
	case phaseThrow:
		hd, ad := before.Dice()
		fmt.Fprintf(&b, "%s %d ball %d: ", periodCode(before.period), before.throwsLeft, before.ball)
		if r.HomeCount == 0 {
			fmt.Fprintf(&b, "%s v %d", Plural(hd, "die"), ad)
		} else {
			fmt.Fprintf(&b, "%v v %v", r.Home[:r.HomeCount], r.Away[:r.AwayCount])
			if r.Rethrows > 0 {
				fmt.Fprintf(&b, " (after %d tied)", r.Rethrows)
			}
		}
		fmt.Fprintf(&b, " → %s", o)
		if after.score != before.score {
			fmt.Fprintf(&b, ": GOAL %d-%d", after.score[Home], after.score[Away])
		} else if o != Tie {
			fmt.Fprintf(&b, ", ball %d", after.ball)
		}
	case phaseCoin:
		fmt.Fprintf(&b, "penalties: %s", o)
	case phaseKick:
		k := before.NextKicker()
		fmt.Fprintf(&b, "penalty by %s", k)
		if r.HomeCount > 0 {
			taker, keeper := r.Home[0], r.Away[0]
			if k == Away {
				taker, keeper = keeper, taker
			}
			fmt.Fprintf(&b, ", taker %d v keeper %d", taker, keeper)
		}
		fmt.Fprintf(&b, " → %s, %d-%d", o, after.penScored[Home], after.penScored[Away])
	}
	describePeriodEnd(&b, before, after)
	return b.String()
}

// describeJump says in one line what a GoalSampler's jump through throws throws did.
func describeJump(before, after State, throws int) string {
	var b strings.Builder
	last := int(before.throwsLeft) - throws + 1
	fmt.Fprintf(&b, "%s %d–%d: %s", periodCode(before.period), before.throwsLeft, last, Plural(throws, "throw"))
	if after.score != before.score {
		scorer := Home
		if after.score[Away] != before.score[Away] {
			scorer = Away
		}
		fmt.Fprintf(&b, " → %s scores: GOAL %d-%d", scorer, after.score[Home], after.score[Away])
	} else {
		fmt.Fprintf(&b, ", no goal, ball %d", after.ball)
	}
	describePeriodEnd(&b, before, after)
	return b.String()
}

// describePeriodEnd adds the period that began, or the result, where a chance event ended one.
func describePeriodEnd(b *strings.Builder, before, after State) {
	if after.period != before.period {
		fmt.Fprintf(b, "; %s", after.period)
		if after.phase == phaseOver {
			fmt.Fprintf(b, " %d-%d", after.score[Home], after.score[Away])
			if w, ok := after.Winner(); ok {
				fmt.Fprintf(b, ", %s wins", w)
			} else {
				b.WriteString(", draw")
			}
		}
	}
}

// DescribeDecision says in one line what a decision changed (see ExampleDescribeDecision).
func DescribeDecision(before, after State) string {
	var parts []string
	for p := Home; p <= Away; p++ {
		if !before.Acting(p) {
			continue
		}
		from, to := before.lineups[p], after.lineups[p]
		switch {
		case before.phase == phaseLineups:
			parts = append(parts, fmt.Sprintf("%s %s (%s)", p, to, before.rules.modes[p]))
		case from == to:
			parts = append(parts, fmt.Sprintf("%s keeps %s", p, to))
		case before.phase == phaseBreak:
			parts = append(parts, fmt.Sprintf("%s %s → %s (%d moved, %d left)", p, from, to, from.Moves(to), after.MovesLeft(p)))
		default:
			parts = append(parts, fmt.Sprintf("%s %s → %s", p, from, to))
		}
	}
	return before.Decision().String() + ": " + strings.Join(parts, "; ")
}

// Code is the period's short name in transcripts: PM, H1, H2, E1, E2, P, FT.
func (p Period) Code() string { return periodCode(p) }

func periodCode(p Period) string {
	return nameOf([]string{"PM", "H1", "H2", "E1", "E2", "P", "FT"}, uint8(p), "P")
}

// DescribeChange says which counters a change of line-up moves (see ExampleDescribeChange).
func DescribeChange(from, to Lineup) string {
	if from == to {
		return "keep " + from.String()
	}
	moved := MovedCounters(from, to)
	parts := make([]string, len(moved))
	for i, m := range moved {
		parts[i] = "sector " + strings.ReplaceAll(m, "→", " → ")
	}
	noun := "counter"
	if len(moved) > 1 {
		noun = "counters"
	}
	return fmt.Sprintf("move %d %s (%s): %s → %s", len(moved), noun, strings.Join(parts, ", "), from, to)
}

// MovedCounters lists the counters a change moves as "2→5" (from sector 2 to sector 5), or
// "keep" when there is no change.
func MovedCounters(from, to Lineup) []string {
	if from == to {
		return []string{"keep"}
	}
	f, t := from.Counts(), to.Counts()
	var out, in []int // one entry per counter leaving / arriving
	for k := range f {
		for d := f[k] - t[k]; d > 0; d-- {
			out = append(out, k+1)
		}
		for d := t[k] - f[k]; d > 0; d-- {
			in = append(in, k+1)
		}
	}
	moved := make([]string, len(out))
	for i := range out {
		moved[i] = fmt.Sprintf("%d→%d", out[i], in[i])
	}
	return moved
}
