// Package catalogue solves every rule set of the rule sheets — a league and a knockout match,
// two Basic coaches or a Dynamic one on either side or both, under either trigger — keeps each
// equilibrium as a game table, reads it back and lists what each took (Make, Markdown): the
// solved games people can play (nash:table=), probe and cite instead of solving again.
package catalogue
