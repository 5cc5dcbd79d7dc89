package apiserver_test

import (
	"fmt"
	"net/http"
	"testing"

	"github.com/kapi-dev/kapi/apiserver"
	"github.com/kapi-dev/kapi/internal/benchkit"
)

const crdsPath = "/apis/apiextensions.k8s.io/v1/customresourcedefinitions"

// benchCRDs are the bodies installCRDs sends, made once (building them is
// not what the benchmarks measure).
var benchCRDs [][]byte

// prepareCRDs makes the first n bodies.
func prepareCRDs(n int) {
	for len(benchCRDs) < n {
		benchCRDs = append(benchCRDs, benchkit.CRD(fmt.Sprintf("g%d.bench.example.org", len(benchCRDs)), "gadgets", 40))
	}
}

// installCRDs creates CRDs number from to from+n-1, of 40 properties each
// and each in a group of its own, through h.
func installCRDs(tb testing.TB, h http.Handler, from, n int) {
	tb.Helper()
	prepareCRDs(from + n)
	for _, crd := range benchCRDs[from : from+n] {
		benchkit.MustServe(tb, h, http.StatusCreated, "POST", crdsPath, "application/json", crd)
	}
}

// BenchmarkCRDCreate is the cost of creating one more CRD (40 properties)
// in a server that already serves crds-1 of them: issue 12 asks that the
// 500th cost at most 1.5× the 1st. Each iteration creates another CRD, so
// the count grows by b.N during the run (run it with a small -benchtime
// count, such as 50x). cpu-ns/op is the process's CPU time per create,
// which other processes on the machine do not inflate.
func BenchmarkCRDCreate(b *testing.B) {
	for _, n := range []int{1, 100, 500} {
		b.Run(fmt.Sprintf("crds=%d", n), func(b *testing.B) {
			prepareCRDs(n + 100) // bodies made before the timer
			h := newBenchServer(b, apiserver.Config{})
			installCRDs(b, h, 0, n-1)
			next := n
			b.ReportAllocs()
			cpu := benchkit.MeterCPU(b)
			for b.Loop() {
				installCRDs(b, h, next, 1)
				next++
			}
			cpu.Report(b.N)
		})
	}
}

// BenchmarkCRDInstall installs 200 CRDs of 40 properties into a fresh
// server, one after another through the handler, as a test suite of an
// operator with many CRDs does (issue 12: at most 100 ms in all).
func BenchmarkCRDInstall(b *testing.B) {
	b.ReportAllocs()
	cpu := benchkit.MeterCPU(b)
	for b.Loop() {
		installCRDs(b, newBenchServer(b, apiserver.Config{}), 0, 200)
	}
	cpu.Report(b.N)
}
