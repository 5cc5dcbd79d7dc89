package memory

import (
	"testing"
	"time"
)

// cpuMeter adds a cpu-ns/op metric to a benchmark: the CPU time the whole
// process (goroutines it starts and the garbage collector included) spent
// per op. Unlike ns/op, it does not grow when other processes compete for
// the machine's CPUs, which makes figures from a shared machine comparable.
type cpuMeter struct {
	b     *testing.B
	start time.Duration
}

func meterCPU(b *testing.B) cpuMeter { return cpuMeter{b, processCPU()} }

func (m cpuMeter) Report(ops int) {
	if cpu := processCPU() - m.start; cpu > 0 && ops > 0 {
		m.b.ReportMetric(float64(cpu.Nanoseconds())/float64(ops), "cpu-ns/op")
	}
}

// MeterCPU lets the external benchmarks use meterCPU.
var MeterCPU = meterCPU
