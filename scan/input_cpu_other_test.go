//go:build !unix

package scan_test

import "time"

// cpuTime returns false: the CPU time of the process is not measured here.
func cpuTime() (time.Duration, bool) { return 0, false }
