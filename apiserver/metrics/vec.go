package metrics

import (
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// Counter only goes up.
type Counter struct {
	n atomic.Uint64
	f atomicFloat
}

// Inc adds one.
func (c *Counter) Inc() { c.n.Add(1) }

// Add adds d, which must not be negative.
func (c *Counter) Add(d float64) {
	if d < 0 {
		panic("metrics: a counter cannot decrease")
	}
	if u := uint64(d); float64(u) == d {
		c.n.Add(u)
		return
	}
	c.f.add(d)
}

// Value is the current count.
func (c *Counter) Value() float64 { return float64(c.n.Load()) + c.f.load() }

// Gauge goes up and down.
type Gauge struct{ v atomicFloat }

// Set sets the value.
func (g *Gauge) Set(v float64) { g.v.store(v) }

// Add adds d (negative to subtract).
func (g *Gauge) Add(d float64) { g.v.add(d) }

// Inc adds one.
func (g *Gauge) Inc() { g.v.add(1) }

// Dec subtracts one.
func (g *Gauge) Dec() { g.v.add(-1) }

// Value is the current value.
func (g *Gauge) Value() float64 { return g.v.load() }

// Histogram counts observations in buckets.
type Histogram struct {
	upper  []float64 // shared with the Desc
	counts []atomic.Uint64
	// The sum is kept in three parts, so that integers and durations add
	// without a compare-and-swap loop: sum + ints + nanos/1e9.
	sum   atomicFloat
	ints  atomic.Int64
	nanos atomic.Int64
}

// Observe records one value: in the first bucket whose upper bound is at
// least v.
func (h *Histogram) Observe(v float64) {
	h.count(v)
	h.sum.add(v)
}

// ObserveInt records a whole number (a size in bytes) more cheaply than
// Observe.
func (h *Histogram) ObserveInt(n int64) {
	h.count(float64(n))
	h.ints.Add(n)
}

// ObserveDuration records a duration in seconds more cheaply than Observe.
func (h *Histogram) ObserveDuration(d time.Duration) {
	h.count(d.Seconds())
	h.nanos.Add(int64(d))
}

func (h *Histogram) count(v float64) {
	i := 0
	for i < len(h.upper) && v > h.upper[i] {
		i++
	}
	h.counts[i].Add(1)
}

// IntBatch gathers whole-number observations for a Histogram in one
// goroutine and adds them at Flush, with a few atomic operations instead
// of two per observation: a hot loop (a watch stream's events, which
// many streams on other cores observe into the same histogram) observes
// into its own batch and flushes when it writes. Not safe for concurrent
// use.
type IntBatch struct {
	h      *Histogram
	counts []uint64
	n      uint64
	sum    int64
}

// NewIntBatch returns an empty batch for h.
func NewIntBatch(h *Histogram) *IntBatch {
	return &IntBatch{h: h, counts: make([]uint64, len(h.counts))}
}

// ObserveInt records a whole number in the batch.
func (b *IntBatch) ObserveInt(n int64) {
	v, i := float64(n), 0
	for i < len(b.h.upper) && v > b.h.upper[i] {
		i++
	}
	b.counts[i]++
	b.n++
	b.sum += n
}

// Flush adds the batch's observations to its histogram and empties it;
// it returns how many there were.
func (b *IntBatch) Flush() uint64 {
	n := b.n
	if n == 0 {
		return 0
	}
	for i, c := range b.counts {
		if c != 0 {
			b.h.counts[i].Add(c)
			b.counts[i] = 0
		}
	}
	b.h.ints.Add(b.sum)
	b.n, b.sum = 0, 0
	return n
}

// Count is the number of observations.
func (h *Histogram) Count() uint64 {
	var n uint64
	for i := range h.counts {
		n += h.counts[i].Load()
	}
	return n
}

func (h *Histogram) snapshot() ([]uint64, float64) {
	counts := make([]uint64, len(h.counts))
	for i := range h.counts {
		counts[i] = h.counts[i].Load()
	}
	return counts, h.sum.load() + float64(h.ints.Load()) + float64(h.nanos.Load())/1e9
}

// vec is a family of children, one per combination of label values.
type vec[T any] struct {
	desc     Desc
	children sync.Map // joined label values -> *child[T]
	newChild func() *T
}

type child[T any] struct {
	labels []string
	value  *T
}

// with returns the child of these label values, creating it the first time.
func (v *vec[T]) with(values []string) *T {
	if len(values) != len(v.desc.Labels) {
		panic(fmt.Sprintf("metrics: %s has labels %v, got %d values", v.desc.Name, v.desc.Labels, len(values)))
	}
	key := strings.Join(values, "\xff")
	if c, ok := v.children.Load(key); ok {
		return c.(*child[T]).value
	}
	c, _ := v.children.LoadOrStore(key, &child[T]{labels: append([]string(nil), values...), value: v.newChild()})
	return c.(*child[T]).value
}

func (v *vec[T]) each(fn func(labels []string, value *T)) {
	v.children.Range(func(_, c any) bool {
		ch := c.(*child[T])
		fn(ch.labels, ch.value)
		return true
	})
}

// CounterVec is a counter family with labels.
type CounterVec struct{ v vec[Counter] }

// NewCounterVec returns a counter family; no labels makes one counter
// (With()).
func NewCounterVec(name, help string, labels ...string) *CounterVec {
	c := &CounterVec{}
	c.v.desc = Desc{Name: name, Help: help, Type: TypeCounter, Labels: labels}
	c.v.newChild = func() *Counter { return &Counter{} }
	return c
}

// With returns the counter of these label values (in the order of the
// family's labels).
func (c *CounterVec) With(labelValues ...string) *Counter { return c.v.with(labelValues) }

// Describe implements Collector.
func (c *CounterVec) Describe() *Desc { return &c.v.desc }

// Collect implements Collector.
func (c *CounterVec) Collect(s *Samples) {
	c.v.each(func(l []string, x *Counter) { s.Value(x.Value(), l...) })
}

// GaugeVec is a gauge family with labels.
type GaugeVec struct{ v vec[Gauge] }

// NewGaugeVec returns a gauge family; no labels makes one gauge (With()).
func NewGaugeVec(name, help string, labels ...string) *GaugeVec {
	g := &GaugeVec{}
	g.v.desc = Desc{Name: name, Help: help, Type: TypeGauge, Labels: labels}
	g.v.newChild = func() *Gauge { return &Gauge{} }
	return g
}

// With returns the gauge of these label values.
func (g *GaugeVec) With(labelValues ...string) *Gauge { return g.v.with(labelValues) }

// Describe implements Collector.
func (g *GaugeVec) Describe() *Desc { return &g.v.desc }

// Collect implements Collector.
func (g *GaugeVec) Collect(s *Samples) {
	g.v.each(func(l []string, x *Gauge) { s.Value(x.Value(), l...) })
}

// HistogramVec is a histogram family with labels.
type HistogramVec struct{ v vec[Histogram] }

// NewHistogramVec returns a histogram family with these bucket upper
// bounds (increasing; +Inf is implied).
func NewHistogramVec(name, help string, buckets []float64, labels ...string) *HistogramVec {
	h := &HistogramVec{}
	h.v.desc = Desc{Name: name, Help: help, Type: TypeHistogram, Labels: labels, Buckets: buckets}
	h.v.newChild = func() *Histogram {
		return &Histogram{upper: buckets, counts: make([]atomic.Uint64, len(buckets)+1)}
	}
	return h
}

// With returns the histogram of these label values.
func (h *HistogramVec) With(labelValues ...string) *Histogram { return h.v.with(labelValues) }

// Describe implements Collector.
func (h *HistogramVec) Describe() *Desc { return &h.v.desc }

// Collect implements Collector.
func (h *HistogramVec) Collect(s *Samples) {
	h.v.each(func(l []string, x *Histogram) {
		counts, sum := x.snapshot()
		s.HistogramValue(counts, sum, l...)
	})
}

// ExponentialBuckets returns count upper bounds, the first start and each
// factor times the previous, as kube's metrics define theirs.
func ExponentialBuckets(start, factor float64, count int) []float64 {
	b := make([]float64, count)
	for i := range b {
		b[i] = start
		start *= factor
	}
	return b
}

// Func is a counter or gauge family whose samples are computed when it is
// collected.
type Func struct {
	desc    Desc
	collect func(emit func(value float64, labelValues ...string))
}

// NewFunc returns a family computed by collect at scrape time; desc.Type
// is TypeCounter or TypeGauge.
func NewFunc(desc Desc, collect func(emit func(value float64, labelValues ...string))) *Func {
	return &Func{desc: desc, collect: collect}
}

// Describe implements Collector.
func (f *Func) Describe() *Desc { return &f.desc }

// Collect implements Collector.
func (f *Func) Collect(s *Samples) { f.collect(s.Value) }
