// Package safefile opens the files a user, a spec or a request names. Open takes regular
// files only — a FIFO, a device or a directory is refused before it can block a thread or
// stream without end — and at most a stated number of bytes; Root confines names to a
// directory (os.Root) and follows no symbolic link, for what a server reads on a URL's say.
//
// It also writes them safely: WriteAtomic and AtomicFile write beside the target and rename
// onto it only when complete, and Lock holds an output (a run directory, a model, a table)
// for one process at a time, dying with it. It is the ground floor of file safety: the
// solvers, the agents and the Parquet package all write through it, and it imports nothing of
// the toolkit.
package safefile
