package memory

import (
	"context"
	"fmt"
	"math/rand/v2"
	"runtime"
	"testing"

	"github.com/kapi-dev/kapi/internal/benchkit"
	"github.com/kapi-dev/kapi/meta"
	"github.com/kapi-dev/kapi/store"
)

// BenchmarkDegree is the benchmark that chose the degree constant: a
// commit (guaranteed update of a random key, which path-copies the tree and
// clones it), a Get and a List page of 500, on 100k objects.
//
//	go test -run '^$' -bench Degree -count 5 ./store/memory
func BenchmarkDegree(b *testing.B) {
	const n = 100_000
	keys := make([]string, n)
	for i := range keys {
		keys[i] = fmt.Sprintf("/apps/deployments/ns%d/obj-%07d", i%10, i)
	}
	key := func(i int) string { return keys[i] }
	for _, d := range []int{8, 16, 32, 64} {
		s := newStore(Config{HistoryLimit: 1000, MaxHistory: 1000}, d)
		ctx := context.Background()
		for i := range n {
			if _, err := s.Create(ctx, key(i), meta.Object{"metadata": map[string]any{"name": "x"}}); err != nil {
				b.Fatal(err)
			}
		}
		runtime.GC()
		rng := rand.New(rand.NewPCG(1, 2))
		b.Run(fmt.Sprintf("degree=%d/commit", d), func(b *testing.B) {
			cpu, ops := benchkit.MeterCPU(b), 0
			for b.Loop() {
				ops++
				_, err := s.Update(ctx, key(rng.IntN(n)), store.UpdateOptions{}, func(cur *store.Object) (meta.Object, error) {
					return meta.Object{"metadata": map[string]any{"name": "x"}}, nil
				})
				if err != nil {
					b.Fatal(err)
				}
			}
			cpu.Report(ops)
		})
		b.Run(fmt.Sprintf("degree=%d/get", d), func(b *testing.B) {
			cpu, ops := benchkit.MeterCPU(b), 0
			for b.Loop() {
				ops++
				if _, err := s.Get(ctx, key(rng.IntN(n))); err != nil {
					b.Fatal(err)
				}
			}
			cpu.Report(ops)
		})
		b.Run(fmt.Sprintf("degree=%d/list500", d), func(b *testing.B) {
			cpu, ops := benchkit.MeterCPU(b), 0
			for b.Loop() {
				ops++
				k := key(rng.IntN(n))
				if _, err := s.List(ctx, k[:22], store.ListOptions{Start: k, Limit: 500}); err != nil {
					b.Fatal(err)
				}
			}
			cpu.Report(ops)
		})
	}
}
