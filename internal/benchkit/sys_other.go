//go:build !unix

package benchkit

import "time"

// processCPU is not measured here; CPUMeter then reports nothing.
func processCPU() time.Duration { return 0 }

// SetRecvBuffer leaves the buffer as it is here.
func SetRecvBuffer(fd uintptr, n int) error { return nil }

// setNoLinger leaves closing as it is here.
func setNoLinger(fd uintptr) error { return nil }
