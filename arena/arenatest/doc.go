// Package arenatest holds helpers for tests of code that runs arenas (the arena package's
// own, kingoal-beam's), as net/http/httptest does for handlers.
package arenatest
