// Package benchkit holds what the benchmarks of the library and of the
// examples module share: baseline ratios, process CPU per op, the
// encodings meter, watch-stream event counting, deterministic payloads
// and sockets that close without TIME_WAIT. It is for benchmarks only.
package benchkit

import (
	"bufio"
	"bytes"
	"io"
	"net"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"
)

// Speed remembers the throughput a baseline sub-benchmark measured, so that
// the kapi sub-benchmark run after it reports a "ratio" metric: kapi's
// throughput divided by the baseline's, measured in the same run (above 1
// means kapi is faster). Targets in docs/performance.md are in these terms.
type Speed struct{ baseline float64 }

// SetBaseline records the baseline's throughput.
func (s *Speed) SetBaseline(v float64) { s.baseline = v }

// Report adds the ratio of kapi's throughput to the baseline's.
func (s *Speed) Report(b *testing.B, kapi float64) {
	if s.baseline > 0 && kapi > 0 {
		b.ReportMetric(kapi/s.baseline, "ratio")
	}
}

// PerSecond is ops per second of wall time over elapsed.
func PerSecond(ops float64, elapsed time.Duration) float64 {
	if elapsed <= 0 {
		return 0
	}
	return ops / elapsed.Seconds()
}

// CPUMeter adds cpu-ns/op: the CPU time of the whole process (server,
// clients, garbage collector) per op. Unlike ns/op it does not grow when
// other processes take the shared cores, so it compares across runs.
type CPUMeter struct {
	b     *testing.B
	start time.Duration
}

// MeterCPU starts measuring.
func MeterCPU(b *testing.B) CPUMeter { return CPUMeter{b, processCPU()} }

// Elapsed is the process CPU time since the meter started.
func (m CPUMeter) Elapsed() time.Duration { return processCPU() - m.start }

// Report adds the CPU time since MeterCPU per op.
func (m CPUMeter) Report(ops int) {
	if cpu := processCPU() - m.start; cpu > 0 && ops > 0 {
		m.b.ReportMetric(float64(cpu.Nanoseconds())/float64(ops), "cpu-ns/op")
	}
}

// HeapInUse is the live heap after two full collections (the second lets
// weakly held values and finalizers go).
func HeapInUse() uint64 {
	runtime.GC()
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return ms.HeapAlloc
}

// Payload returns n deterministic pseudo-random alphanumeric bytes (as
// perfcompare's objects carry), so that every object differs.
func Payload(seed uint64, n int) string {
	const alphabet = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
	x := seed*0x9E3779B97F4A7C15 + 1
	var b strings.Builder
	b.Grow(n)
	for range n {
		x ^= x << 13
		x ^= x >> 7
		x ^= x << 17
		b.WriteByte(alphabet[x%uint64(len(alphabet))])
	}
	return b.String()
}

// CountEvents calls modified for every MODIFIED event of a watch stream
// until it ends: JSON events are lines; protobuf events are 4-byte
// length-prefixed WatchEvent messages whose first field is the type.
func CountEvents(r *bufio.Reader, accept string, modified func()) {
	if strings.HasPrefix(accept, "application/json") {
		for {
			line, err := r.ReadSlice('\n')
			// An event longer than the buffer: skip the rest of it.
			for err == bufio.ErrBufferFull {
				_, err = r.ReadSlice('\n')
			}
			if err != nil {
				return
			}
			if bytes.HasPrefix(line, []byte(`{"type":"MODIFIED"`)) {
				modified()
			}
		}
	}
	var hdr [4]byte
	var msg []byte
	for {
		if _, err := io.ReadFull(r, hdr[:]); err != nil {
			return
		}
		n := int(hdr[0])<<24 | int(hdr[1])<<16 | int(hdr[2])<<8 | int(hdr[3])
		if cap(msg) < n {
			msg = make([]byte, n)
		}
		msg = msg[:n]
		if _, err := io.ReadFull(r, msg); err != nil {
			return
		}
		// field 1 (type), wire type 2: 0x0a, length, "MODIFIED"
		if len(msg) > 10 && msg[0] == 0x0a && int(msg[1]) < len(msg)-2 && string(msg[2:2+msg[1]]) == "MODIFIED" {
			modified()
		}
	}
}

// NoLingerDialer dials connections that close without TIME_WAIT: a
// benchmark opening thousands of short connections (start-up) would
// otherwise slow the ephemeral port binds of whichever variant runs second.
var NoLingerDialer = &net.Dialer{Control: func(_, _ string, c syscall.RawConn) error {
	var serr error
	if err := c.Control(func(fd uintptr) { serr = setNoLinger(fd) }); err != nil {
		return err
	}
	return serr
}}

// Paired runs baseline and candidate alternately, n times each, on one
// locked OS thread, and returns the thread CPU time each took per run: a
// ratio of the two compares them on the same data, in the same heap, at
// the same moments, unaffected by other processes (the garbage collector's
// background work, on other threads, is left out of both).
func Paired(n int, baseline, candidate func(i int)) (base, cand time.Duration) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	var b, c time.Duration
	for i := 0; i < n; i++ {
		t0 := ThreadCPU()
		baseline(i)
		t1 := ThreadCPU()
		candidate(i)
		t2 := ThreadCPU()
		b += t1 - t0
		c += t2 - t1
	}
	if n == 0 {
		return 0, 0
	}
	return b / time.Duration(n), c / time.Duration(n)
}
