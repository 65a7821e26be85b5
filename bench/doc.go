// Package bench is Kingoal-Bench: declared suites of learners × rule sizes × seeds, each
// learner's policy measured exactly (its exploitability by both best responses, no sampling)
// as it learns, beside the truth — the exact solver's verified equilibrium at the same rules.
//
// Run plays a Suite into rows of one Parquet table (bench-curve/2), keeping each finished
// entry's rows in a part file so that an interrupted run resumes where it stopped; Report
// writes the table, the charts of exact NashConv against wall-clock, against full-width
// passes and against samples, and a Markdown summary for the README. The same suite gives the
// same figures but the seconds: full-width learners are deterministic and Q-learning's
// episodes come from its seed.
package bench
