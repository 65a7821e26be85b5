package game_test

import (
	"github.com/kingoal/kingoal/env"
	"github.com/kingoal/kingoal/solver/internal/solvertest"
)

// lu and near keep the tests' tables short.
var (
	lu   = env.MustParseLineup
	near = solvertest.Near
)
