// Package match plays one match from a seed: two registry agents (kingoal watch, its GIF) or
// a person against an agent (kingoal play, the web app's play page) — one piece, so that the
// same seed and the same moves play the same match wherever it is played.
package match
