// Package charts draws the PNG charts Kingoal writes beside its results — heat maps with a
// colour bar (Heatmap), line charts and panels of series (LineChart, PanelChart), estimates
// with their intervals (IntervalChart) — with gonum/plot, each file written atomically, the
// same bytes for the same data. The CLI, the arena's leaderboard files and training use it.
package charts
