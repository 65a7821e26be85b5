package arenabeam

import (
	"os"
	"testing"

	beamlog "github.com/apache/beam/sdks/v2/go/pkg/beam/log"
)

// TestMain keeps prism's job life cycle out of the test log; failures still show.
func TestMain(m *testing.M) {
	beamlog.LogLevel = "error"
	os.Exit(m.Run())
}
