//go:build !linux

package benchkit

import "time"

// ThreadCPU is the process's CPU time where threads cannot be measured
// apart (see the Linux version).
func ThreadCPU() time.Duration { return processCPU() }
