// Package safefile opens the files a user, a spec or a request names. Open takes regular
// files only — a FIFO, a device or a directory is refused before it can block a thread or
// stream without end — and at most a stated number of bytes; Root confines names to a
// directory (os.Root) and follows no symbolic link, for what a server reads on a URL's say.
package safefile
