//go:build !unix

package bench

import "time"

// processCPU is not measured here; cpuMeter then reports nothing.
func processCPU() time.Duration { return 0 }

// setNoLinger leaves closing as it is here.
func setNoLinger(fd uintptr) error { return nil }
