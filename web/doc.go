// Package web is kingoal serve: a small local web app over arena run directories — the
// runs, each run's leaderboard (the numbers of kingoal leaderboard) — served with net/http
// and html/template, every asset embedded, nothing fetched at run time. It serves nothing
// outside the run directories it is given: a run is named by the index of its directory and
// one path element, symlinks out of a directory are refused, and a bad request gets a 4xx
// with a short message; a corrupt run is one message on its page.
//
// Work in progress (issue 28): replay, play and policy pages are not built yet.
package web
