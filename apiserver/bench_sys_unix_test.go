//go:build unix

package apiserver_test

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

// setRecvBuffer shrinks a socket's receive buffer (a stalled watcher's).
func setRecvBuffer(fd uintptr, n int) error {
	return syscall.SetsockoptInt(int(fd), syscall.SOL_SOCKET, syscall.SO_RCVBUF, n)
}

// setNoLinger makes close send a reset instead of entering TIME_WAIT, so
// that benchmarks opening thousands of short connections (start-up) do not
// slow down later binds of ephemeral ports.
func setNoLinger(fd uintptr) error {
	return syscall.SetsockoptLinger(int(fd), syscall.SOL_SOCKET, syscall.SO_LINGER, &syscall.Linger{Onoff: 1, Linger: 0})
}
