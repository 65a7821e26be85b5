package agents

import "errors"

// buildLive is the live agent of Setup.Live: the registry only names it, the program that
// answers it builds it (package live).
func buildLive(p params, s Setup) (Agent, error) {
	if p["name"] == "" {
		return nil, errors.New("live needs the name of the policy: live:NAME")
	}
	if s.Live == nil {
		return nil, errors.New("live:" + p["name"] + " is a policy answered by the program that ran the arena (Python's kingoal.arena): only that program can play it (the command line cannot)")
	}
	return s.Live(p["name"])
}
