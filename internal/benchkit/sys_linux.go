//go:build linux

package benchkit

import (
	"syscall"
	"time"
)

// rusageThread is Linux's RUSAGE_THREAD.
const rusageThread = 1

// ThreadCPU is the CPU time (user and system) the calling OS thread has
// used: lock the goroutine to its thread (runtime.LockOSThread) and the
// difference between two calls is what the goroutine spent in between,
// however busy the rest of the machine is. It is the process's CPU time
// where threads cannot be measured.
func ThreadCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(rusageThread, &ru); err != nil {
		return processCPU()
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
