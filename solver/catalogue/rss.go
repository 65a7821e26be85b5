// The process's peak resident memory, as /usr/bin/time's %M reports it, per row.

package catalogue

import (
	"bytes"
	"os"
	"strconv"
)

// resetPeakRSS starts a new peak: Linux resets VmHWM when "5" is written to clear_refs.
func resetPeakRSS() { _ = os.WriteFile("/proc/self/clear_refs", []byte("5"), 0) }

// peakRSS is the peak resident memory since resetPeakRSS (VmHWM), in bytes; 0 where the
// system does not say.
func peakRSS() int64 {
	status, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0
	}
	for line := range bytes.Lines(status) {
		if rest, ok := bytes.CutPrefix(line, []byte("VmHWM:")); ok {
			f := bytes.Fields(rest)
			if len(f) == 2 && string(f[1]) == "kB" {
				kb, err := strconv.ParseInt(string(f[0]), 10, 64)
				if err == nil {
					return kb << 10
				}
			}
		}
	}
	return 0
}
