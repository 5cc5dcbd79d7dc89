//go:build unix

package bench

import (
	"syscall"
	"time"
)

// processCPU is the CPU time (user and system) the benchmark process has
// used, for cpuMeter.
func processCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// setNoLinger makes close send a reset instead of entering TIME_WAIT (see
// noLingerDialer).
func setNoLinger(fd uintptr) error {
	return syscall.SetsockoptLinger(int(fd), syscall.SOL_SOCKET, syscall.SO_LINGER, &syscall.Linger{Onoff: 1, Linger: 0})
}
