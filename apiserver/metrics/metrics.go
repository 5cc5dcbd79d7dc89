package metrics

import (
	"bufio"
	"fmt"
	"io"
	"math"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
)

// Type is a metric family's type, as the text format's TYPE line names it.
type Type string

// The types of metric families.
const (
	TypeCounter   Type = "counter"
	TypeGauge     Type = "gauge"
	TypeHistogram Type = "histogram"
)

// Desc describes one metric family.
type Desc struct {
	// Name is the family's name ("apiserver_request_total").
	Name string
	// Help is its HELP text; kube's start with the stability level
	// ("[STABLE] Counter of apiserver requests...").
	Help string
	Type Type
	// Labels are the names of its labels, in the order their values are
	// given.
	Labels []string
	// Buckets are a histogram's upper bounds, increasing (+Inf is implied).
	Buckets []float64
}

// Collector is one metric family of a Registry.
type Collector interface {
	// Describe returns the family's description; it must not change.
	Describe() *Desc
	// Collect reports the family's samples at scrape time.
	Collect(s *Samples)
}

// Samples receives a family's samples while it is collected.
type Samples struct {
	desc  *Desc
	items []sample
}

type sample struct {
	labels []string
	value  float64
	// counts are a histogram's per-bucket counts (not cumulative), the
	// last one for +Inf; sum its sum.
	counts []uint64
	sum    float64
}

// Value reports one counter or gauge sample with its label values (in the
// order of Desc.Labels).
func (s *Samples) Value(v float64, labelValues ...string) {
	s.check(labelValues)
	if s.desc.Type == TypeHistogram {
		panic(fmt.Sprintf("metrics: %s is a histogram: report it with HistogramValue", s.desc.Name))
	}
	s.items = append(s.items, sample{labels: append([]string(nil), labelValues...), value: v})
}

// HistogramValue reports one histogram sample: per-bucket counts (not
// cumulative; one per Desc.Buckets and one for +Inf) and the sum of the
// observed values.
func (s *Samples) HistogramValue(counts []uint64, sum float64, labelValues ...string) {
	s.check(labelValues)
	if s.desc.Type != TypeHistogram {
		panic(fmt.Sprintf("metrics: %s is not a histogram", s.desc.Name))
	}
	if len(counts) != len(s.desc.Buckets)+1 {
		panic(fmt.Sprintf("metrics: %s has %d buckets, got %d counts", s.desc.Name, len(s.desc.Buckets)+1, len(counts)))
	}
	s.items = append(s.items, sample{labels: append([]string(nil), labelValues...), counts: counts, sum: sum})
}

func (s *Samples) check(labelValues []string) {
	if len(labelValues) != len(s.desc.Labels) {
		panic(fmt.Sprintf("metrics: %s has labels %v, got %d values", s.desc.Name, s.desc.Labels, len(labelValues)))
	}
}

// Registry gathers metric families and serves them.
type Registry struct {
	mu         sync.Mutex
	collectors map[string]Collector
	texts      []func(io.Writer) error
}

// NewRegistry returns an empty Registry.
func NewRegistry() *Registry { return &Registry{collectors: map[string]Collector{}} }

// Register adds a family; a name already registered is an error.
func (r *Registry) Register(c Collector) error {
	d := c.Describe()
	if d.Name == "" || d.Type == "" {
		return fmt.Errorf("metrics: a collector needs a name and a type, got %+v", *d)
	}
	if d.Type == TypeHistogram && !slices.IsSorted(d.Buckets) {
		return fmt.Errorf("metrics: histogram %s has unsorted buckets %v", d.Name, d.Buckets)
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if _, ok := r.collectors[d.Name]; ok {
		return fmt.Errorf("metrics: %s is already registered", d.Name)
	}
	r.collectors[d.Name] = c
	return nil
}

// RegisterText adds a source that writes whole families in the text
// format itself (API Priority and Fairness's, which keeps its own
// counters); they are written after the registered collectors', and must
// not repeat their names.
func (r *Registry) RegisterText(write func(io.Writer) error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.texts = append(r.texts, write)
}

// MustRegister registers collectors and panics on an error: for families
// registered once, at start-up.
func (r *Registry) MustRegister(cs ...Collector) {
	for _, c := range cs {
		if err := r.Register(c); err != nil {
			panic(err)
		}
	}
}

// ContentType is the media type of the text format, as kube-apiserver
// sends it.
const ContentType = "text/plain; version=0.0.4; charset=utf-8; escaping=underscores"

// ServeHTTP answers a scrape in the text format.
func (r *Registry) ServeHTTP(w http.ResponseWriter, req *http.Request) {
	w.Header().Set("Content-Type", ContentType)
	w.WriteHeader(http.StatusOK)
	if req.Method == http.MethodHead {
		return
	}
	_ = r.WriteText(w)
}

// WriteText writes every family in the text exposition format.
func (r *Registry) WriteText(w io.Writer) error {
	r.mu.Lock()
	names := make([]string, 0, len(r.collectors))
	for n := range r.collectors {
		names = append(names, n)
	}
	collectors := make([]Collector, 0, len(names))
	slices.Sort(names)
	for _, n := range names {
		collectors = append(collectors, r.collectors[n])
	}
	texts := slices.Clone(r.texts)
	r.mu.Unlock()

	bw := bufio.NewWriterSize(w, 32<<10)
	for _, c := range collectors {
		d := c.Describe()
		s := &Samples{desc: d}
		c.Collect(s)
		if len(s.items) > 0 {
			writeFamily(bw, d, s.items)
		}
	}
	for _, write := range texts {
		if err := write(bw); err != nil {
			return err
		}
	}
	return bw.Flush()
}

// writeFamily writes one family: HELP, TYPE and its samples, labels sorted
// by name and samples by their sorted labels' values.
func writeFamily(w *bufio.Writer, d *Desc, items []sample) {
	order := make([]int, len(d.Labels)) // label indexes in name order
	for i := range order {
		order[i] = i
	}
	slices.SortFunc(order, func(a, b int) int { return strings.Compare(d.Labels[a], d.Labels[b]) })
	slices.SortFunc(items, func(a, b sample) int {
		for _, i := range order {
			if c := strings.Compare(a.labels[i], b.labels[i]); c != 0 {
				return c
			}
		}
		return 0
	})
	fmt.Fprintf(w, "# HELP %s %s\n# TYPE %s %s\n", d.Name, escapeHelp(d.Help), d.Name, d.Type)
	for _, it := range items {
		if d.Type != TypeHistogram {
			writeSample(w, d.Name, d.Labels, order, it.labels, "", "", it.value)
			continue
		}
		var cum, total uint64
		for i, b := range d.Buckets {
			cum += it.counts[i]
			writeSample(w, d.Name+"_bucket", d.Labels, order, it.labels, "le", formatFloat(b), float64(cum))
		}
		total = cum + it.counts[len(d.Buckets)]
		writeSample(w, d.Name+"_bucket", d.Labels, order, it.labels, "le", "+Inf", float64(total))
		writeSample(w, d.Name+"_sum", d.Labels, order, it.labels, "", "", it.sum)
		writeSample(w, d.Name+"_count", d.Labels, order, it.labels, "", "", float64(total))
	}
}

func writeSample(w *bufio.Writer, name string, labels []string, order []int, values []string, extra, extraValue string, v float64) {
	w.WriteString(name)
	if len(labels) > 0 || extra != "" {
		w.WriteByte('{')
		for n, i := range order {
			if n > 0 {
				w.WriteByte(',')
			}
			w.WriteString(labels[i])
			w.WriteString(`="`)
			writeLabelValue(w, values[i])
			w.WriteByte('"')
		}
		if extra != "" {
			if len(order) > 0 {
				w.WriteByte(',')
			}
			w.WriteString(extra)
			w.WriteString(`="`)
			w.WriteString(extraValue)
			w.WriteByte('"')
		}
		w.WriteByte('}')
	}
	w.WriteByte(' ')
	w.WriteString(formatFloat(v))
	w.WriteByte('\n')
}

// writeLabelValue escapes a backslash, a double quote and a line feed.
func writeLabelValue(w *bufio.Writer, v string) {
	for i := 0; i < len(v); i++ {
		switch c := v[i]; c {
		case '\\':
			w.WriteString(`\\`)
		case '"':
			w.WriteString(`\"`)
		case '\n':
			w.WriteString(`\n`)
		default:
			w.WriteByte(c)
		}
	}
}

func escapeHelp(h string) string {
	return strings.NewReplacer(`\`, `\\`, "\n", `\n`).Replace(h)
}

// formatFloat writes a value as Prometheus does: shortest form, +Inf, -Inf
// and NaN spelled out.
func formatFloat(v float64) string {
	switch {
	case math.IsInf(v, 1):
		return "+Inf"
	case math.IsInf(v, -1):
		return "-Inf"
	case math.IsNaN(v):
		return "NaN"
	}
	return strconv.FormatFloat(v, 'g', -1, 64)
}

// atomicFloat is a float64 updated with compare-and-swap.
type atomicFloat struct{ bits atomic.Uint64 }

func (f *atomicFloat) add(d float64) {
	for {
		old := f.bits.Load()
		if f.bits.CompareAndSwap(old, math.Float64bits(math.Float64frombits(old)+d)) {
			return
		}
	}
}

func (f *atomicFloat) load() float64 { return math.Float64frombits(f.bits.Load()) }

func (f *atomicFloat) store(v float64) { f.bits.Store(math.Float64bits(v)) }
