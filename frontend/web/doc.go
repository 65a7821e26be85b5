// Package web is kingoal serve: a small local web app — the runs under the given
// directories, each run's leaderboard (the numbers of kingoal leaderboard), a replay of any
// match (played again from its seeds and checked against matches.parquet), a match against
// any registry agent played by clicking (the match kingoal play plays with the same seed and
// choices), and solved policies as heatmaps — served with net/http and html/template, every
// asset embedded, nothing fetched at run time. The pitch is frame.Draw's picture, as in the
// Gymnasium environment and kingoal watch --gif.
//
// It serves nothing outside the directories it is given: a run or file is named by the
// index of its directory and one path element, symlinks are refused, a run still being
// played is refused (409), and a bad request gets a 4xx with a short message; a corrupt run
// or file is one message on its page.
package web
