package main

import (
	"bytes"
	"context"
	"strings"
	"time"

	"github.com/kingoal/kingoal/internal/cli"
)

// The CLI run inside the library, for what Python does through it (kingoal.arena, evaluate):
// the same run directories, Parquet files and leaderboards as the kingoal command, in a
// background job Python waits on in short steps, so that its Ctrl-C cancels the run (Go
// installs no signal handler here).

type cliJob struct {
	cancel      context.CancelFunc
	done        chan struct{}
	code        int
	out, errOut bytes.Buffer
}

func init() {
	calls["cli_start"] = cliStartCall
	calls["cli_wait"] = cliWaitCall
}

func cliStartCall(in []byte) (any, error) {
	var a struct {
		Args []string `json:"args"`
	}
	if err := decode(in, &a, "kingoal command"); err != nil {
		return nil, err
	}
	ctx, cancel := context.WithCancel(context.Background())
	job := &cliJob{cancel: cancel, done: make(chan struct{})}
	go func() {
		defer close(job.done)
		defer cancel()
		job.code = cli.ExecuteContext(ctx, cli.NewRootCmd, a.Args, strings.NewReader(""), &job.out, &job.errOut)
	}()
	return map[string]any{"job": uint64(register(job))}, nil
}

// cliWaitCall waits up to ms (cancelling first if asked): done, and then the exit code and
// both outputs.
func cliWaitCall(in []byte) (any, error) {
	var a struct {
		Job    uint64 `json:"job"`
		Ms     int    `json:"ms"`
		Cancel bool   `json:"cancel"`
	}
	if err := decode(in, &a, "kingoal command"); err != nil {
		return nil, err
	}
	job, err := lookup[*cliJob](a.Job, "command")
	if err != nil {
		return nil, err
	}
	if a.Cancel {
		job.cancel()
	}
	select {
	case <-job.done:
	case <-time.After(time.Duration(max(a.Ms, 0)) * time.Millisecond):
		return map[string]any{"done": false}, nil
	}
	return map[string]any{"done": true, "code": job.code, "stdout": job.out.String(), "stderr": job.errOut.String()}, nil
}
