// Package policy solves one coach's side of Kingoal exactly, against an opponent whose
// behaviour is given: the optimal substitution policy of a Basic coach (SolveBasic: backward
// induction over break states, against a kept line-up, a policy or a mixed policy of the
// opponent's) and the optimal shift policy of a Dynamic coach (SolveDynamic), and the exact
// evaluation of any two stationary policies by enumerating the match's chance outcomes
// (Evaluate). BreakState is a break as one side sees it; BreakPolicy and MixedBreakPolicy
// are what an opponent answers there.
package policy
