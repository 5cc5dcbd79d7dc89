//go:build !unix

package memory

import "time"

// processCPU is not measured here; cpuMeter then reports nothing.
func processCPU() time.Duration { return 0 }
