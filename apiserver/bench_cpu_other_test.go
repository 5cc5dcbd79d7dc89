//go:build !unix

package apiserver_test

import "time"

// processCPU is not measured here; cpuMeter then reports nothing.
func processCPU() time.Duration { return 0 }
