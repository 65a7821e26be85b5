package web

import (
	"context"
	"fmt"
	"os"
	"strings"

	"github.com/kingoal/kingoal/arena"
)

// finishedBoard is the leaderboard of a finished run as read, kept while the run's files
// are as they were then: reading matches.parquet and refitting the ratings is most of a
// leaderboard page (a 120,000-match run: ~200 ms), and a finished run does not change.
type finishedBoard struct {
	stamp string
	lb    *arena.Leaderboard
	err   error
}

// boardsKept bounds the finished leaderboards kept.
const boardsKept = 32

// finishedLeaderboard is the leaderboard of the finished run in dir, read again only when
// one of the run's files has changed (a run played again with --force, an exploitability
// column measured since) or its last read failed.
func (s *Server) finishedLeaderboard(ctx context.Context, run servedRun) (*arena.Leaderboard, error) {
	stamp, ok := filesStamp(run.dir)
	if b, kept := s.boards.get(run.key); ok && kept && b.stamp == stamp {
		return b.lb, b.err
	}
	b, err := s.coldBoards.do(ctx, run.key+"\x00"+stamp, func(ctx context.Context) (finishedBoard, error) {
		lb, err := run.Leaderboard(ctx)
		// An error is not kept: it may be passing (a file swapped while it was read, then put
		// back as it was, stamp and all), and a page kept on it would show it for good.
		if ok && err == nil && ctx.Err() == nil {
			s.boards.put(run.key, finishedBoard{stamp, lb, err}, 1)
		}
		return finishedBoard{stamp, lb, err}, ctx.Err()
	})
	if err != nil {
		return nil, err
	}
	return b.lb, b.err
}

// filesStamp names the files at the top of dir with their sizes and times; false if it
// cannot be read.
func filesStamp(dir *os.Root) (string, bool) {
	d, err := dir.Open(".")
	if err != nil {
		return "", false
	}
	entries, err := d.ReadDir(-1)
	d.Close()
	if err != nil {
		return "", false
	}
	var b strings.Builder
	for _, e := range entries {
		info, err := e.Info()
		if err != nil {
			return "", false
		}
		fmt.Fprintf(&b, "%s:%d:%d/", e.Name(), info.Size(), info.ModTime().UnixNano())
	}
	return b.String(), true
}
