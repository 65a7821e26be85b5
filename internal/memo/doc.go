// Package memo is a cache of computed values shared by concurrent callers: each key's value
// computed once, no lock held through a computation, failures not kept, and a bound on the
// entries kept. The agents keep their solved games and tables in it, and exploit its best
// responses.
package memo
