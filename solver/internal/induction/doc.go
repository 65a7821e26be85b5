// Package induction is the backward recursion over throws that the one-sided policies and
// the substitution games share (Layers: values bottom-up in the throws left, for every goal
// difference at once, with the ball's sector in the state; what happens at a break is the
// caller's step), and the move search over the line-ups a budget of substitutions reaches
// (EntryLayout, ReachLists).
package induction
