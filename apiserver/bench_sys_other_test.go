//go:build !unix

package apiserver_test

import "time"

// processCPU is not measured here; cpuMeter then reports nothing.
func processCPU() time.Duration { return 0 }

// setRecvBuffer leaves the buffer as it is here.
func setRecvBuffer(fd uintptr, n int) error { return nil }

// setNoLinger leaves closing as it is here.
func setNoLinger(fd uintptr) error { return nil }
