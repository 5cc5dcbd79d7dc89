package flowcontrol

import (
	"bufio"
	"io"
	"math"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/kapi-dev/kapi/apiserver/flowcontrol/fairqueue"
)

// MetricsWriter writes metrics in the Prometheus text exposition format,
// for a server's /metrics to include.
type MetricsWriter interface {
	WritePrometheus(w io.Writer) error
}

// metrics holds kube's apiserver_flowcontrol_* metrics: per (priority
// level, flow schema) series that the filter and the queue sets update
// without locking, and per level series the controller sets. A series
// appears once it is first used, as with kube's Prometheus client.
type metrics struct {
	mu       sync.Mutex
	pairs    map[[2]string]*series
	levels   map[string]*levelSeries
	fairFrac atomic.Uint64 // float64 bits
}

func newMetrics() *metrics {
	return &metrics{pairs: map[[2]string]*series{}, levels: map[string]*levelSeries{}}
}

// Rejection reasons, as the reason label spells them.
var rejectReasons = [...]string{"queue-full", "concurrency-limit", "time-out", "cancelled"}

// series are the metrics of one priority level and flow schema.
type series struct {
	pl, fs                       string
	used                         atomic.Bool
	dispatched                   atomic.Int64
	rejected                     [len(rejectReasons)]atomic.Int64
	noAccommodation              atomic.Int64
	inqueueRequests, inqueueSeat atomic.Int64
	executing, executingSeats    atomic.Int64
	waitDuration                 [2]histogram // execute false, true
	execDuration                 [2]histogram // regular, watch
	queueLength                  histogram
	workSeats                    histogram
	watchCount                   histogram
}

// levelSeries are the metrics of one priority level.
type levelSeries struct {
	nominal, lower, upper, current              atomic.Int64
	demandHWM, demandAvg, demandStdev, smoothed atomic.Uint64 // float64 bits
	target                                      atomic.Uint64
}

var (
	durationBuckets    = []float64{0, 0.005, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10, 15, 30}
	queueLengthBuckets = []float64{0, 10, 25, 50, 100, 250, 500, 1000}
	seatsBuckets       = []float64{1, 2, 4, 10}
	watchCountBuckets  = []float64{0, 1, 10, 100, 1000, 10000}
)

func (m *metrics) series(pl, fs string) *series {
	m.mu.Lock()
	defer m.mu.Unlock()
	k := [2]string{pl, fs}
	s := m.pairs[k]
	if s == nil {
		s = &series{pl: pl, fs: fs}
		for i := range s.waitDuration {
			s.waitDuration[i].init(durationBuckets)
			s.execDuration[i].init(durationBuckets)
		}
		s.queueLength.init(queueLengthBuckets)
		s.workSeats.init(seatsBuckets)
		s.watchCount.init(watchCountBuckets)
		m.pairs[k] = s
	}
	return s
}

func (m *metrics) level(pl string) *levelSeries {
	m.mu.Lock()
	defer m.mu.Unlock()
	l := m.levels[pl]
	if l == nil {
		l = &levelSeries{}
		m.levels[pl] = l
	}
	return l
}

func (m *metrics) setFairFrac(f float64) { m.fairFrac.Store(math.Float64bits(f)) }

func (l *levelSeries) setLimits(nominal, lower, upper int) {
	l.nominal.Store(int64(nominal))
	l.lower.Store(int64(lower))
	l.upper.Store(int64(upper))
}

func (l *levelSeries) setDemand(st seatDemandStats, target float64, current int) {
	l.demandHWM.Store(math.Float64bits(float64(st.highWatermark)))
	l.demandAvg.Store(math.Float64bits(st.avg))
	l.demandStdev.Store(math.Float64bits(st.stdDev))
	l.smoothed.Store(math.Float64bits(st.smoothed))
	l.target.Store(math.Float64bits(target))
	l.current.Store(int64(current))
}

// The fairqueue.Observer methods: the tag is the request's *series.

func (m *metrics) Waiting(tag any, reqs, seats int) {
	if s, ok := tag.(*series); ok {
		s.used.Store(true)
		s.inqueueRequests.Add(int64(reqs))
		s.inqueueSeat.Add(int64(seats))
	}
}

func (m *metrics) Executing(tag any, reqs, seats int) {
	if s, ok := tag.(*series); ok {
		s.used.Store(true)
		s.executing.Add(int64(reqs))
		s.executingSeats.Add(int64(seats))
	}
}

func (m *metrics) Rejected(tag any, reason string) {
	if s, ok := tag.(*series); ok {
		s.used.Store(true)
		for i, r := range rejectReasons {
			if r == reason {
				s.rejected[i].Add(1)
			}
		}
	}
}

func (m *metrics) Enqueued(tag any, n int) {
	if s, ok := tag.(*series); ok {
		s.queueLength.observe(float64(n))
	}
}

func (m *metrics) NoAccommodation(tag any) {
	if s, ok := tag.(*series); ok {
		s.noAccommodation.Add(1)
	}
}

var _ fairqueue.Observer = (*metrics)(nil)

func (s *series) observeWait(executed bool, d time.Duration) {
	i := 0
	if executed {
		i = 1
	}
	s.waitDuration[i].observe(d.Seconds())
}

func (s *series) observeExecution(watch bool, d time.Duration) {
	i := 0
	if watch {
		i = 1
	}
	s.execDuration[i].observe(d.Seconds())
}

// histogram is a Prometheus histogram with fixed buckets, updated
// atomically.
type histogram struct {
	bounds []float64
	counts []atomic.Int64 // per bucket, not cumulative
	count  atomic.Int64
	sum    atomic.Uint64 // float64 bits
}

func (h *histogram) init(bounds []float64) {
	h.bounds = bounds
	h.counts = make([]atomic.Int64, len(bounds))
}

func (h *histogram) observe(v float64) {
	i := sort.SearchFloat64s(h.bounds, v)
	if i < len(h.counts) {
		h.counts[i].Add(1)
	}
	h.count.Add(1)
	for {
		old := h.sum.Load()
		if h.sum.CompareAndSwap(old, math.Float64bits(math.Float64frombits(old)+v)) {
			return
		}
	}
}

// WritePrometheus writes the flow control metrics in the Prometheus text
// format, with kube's names, help texts and labels. Families without a
// series are left out, as kube's client leaves them.
func (c *Controller) WritePrometheus(out io.Writer) error {
	w := bufio.NewWriter(out)
	m := c.metrics
	m.mu.Lock()
	pairs := make([]*series, 0, len(m.pairs))
	for _, s := range m.pairs {
		pairs = append(pairs, s)
	}
	levelNames := make([]string, 0, len(m.levels))
	for n := range m.levels {
		levelNames = append(levelNames, n)
	}
	levels := m.levels
	m.mu.Unlock()
	sort.Slice(pairs, func(i, j int) bool {
		if pairs[i].fs != pairs[j].fs {
			return pairs[i].fs < pairs[j].fs
		}
		return pairs[i].pl < pairs[j].pl
	})
	sort.Strings(levelNames)
	pairLabels := func(s *series) string {
		return `flow_schema="` + escapeLabel(s.fs) + `",priority_level="` + escapeLabel(s.pl) + `"`
	}

	family := func(name, typ, help string, rows func(emit func(labels, value string))) {
		var lines []string
		rows(func(labels, value string) {
			if labels != "" {
				labels = "{" + labels + "}"
			}
			lines = append(lines, "apiserver_flowcontrol_"+name+labels+" "+value+"\n")
		})
		if len(lines) == 0 {
			return
		}
		w.WriteString("# HELP apiserver_flowcontrol_" + name + " " + help + "\n")
		w.WriteString("# TYPE apiserver_flowcontrol_" + name + " " + typ + "\n")
		for _, l := range lines {
			w.WriteString(l)
		}
	}
	hist := func(name, help string, rows func(emit func(labels string, h *histogram))) {
		var b strings.Builder
		rows(func(labels string, h *histogram) {
			if h.count.Load() == 0 {
				return
			}
			cum := int64(0)
			for i, bound := range h.bounds {
				cum += h.counts[i].Load()
				b.WriteString("apiserver_flowcontrol_" + name + "_bucket{" + labels + `,le="` + formatFloat(bound) + `"} ` + strconv.FormatInt(cum, 10) + "\n")
			}
			b.WriteString("apiserver_flowcontrol_" + name + "_bucket{" + labels + `,le="+Inf"} ` + strconv.FormatInt(h.count.Load(), 10) + "\n")
			b.WriteString("apiserver_flowcontrol_" + name + "_sum{" + labels + "} " + formatFloat(math.Float64frombits(h.sum.Load())) + "\n")
			b.WriteString("apiserver_flowcontrol_" + name + "_count{" + labels + "} " + strconv.FormatInt(h.count.Load(), 10) + "\n")
		})
		if b.Len() == 0 {
			return
		}
		w.WriteString("# HELP apiserver_flowcontrol_" + name + " " + help + "\n")
		w.WriteString("# TYPE apiserver_flowcontrol_" + name + " histogram\n")
		w.WriteString(b.String())
	}
	gaugePairs := func(name, help string, v func(*series) int64) {
		family(name, "gauge", help, func(emit func(string, string)) {
			for _, s := range pairs {
				if s.used.Load() {
					emit(pairLabels(s), strconv.FormatInt(v(s), 10))
				}
			}
		})
	}
	gaugeLevels := func(name, help string, v func(*levelSeries) string) {
		family(name, "gauge", help, func(emit func(string, string)) {
			for _, n := range levelNames {
				emit(`priority_level="`+escapeLabel(n)+`"`, v(levels[n]))
			}
		})
	}
	fbits := func(a *atomic.Uint64) string { return formatFloat(math.Float64frombits(a.Load())) }
	ints := func(a *atomic.Int64) string { return strconv.FormatInt(a.Load(), 10) }

	gaugePairs("current_executing_requests", "[BETA] Number of requests in initial (for a WATCH) or any (for a non-WATCH) execution stage in the API Priority and Fairness subsystem",
		func(s *series) int64 { return s.executing.Load() })
	gaugePairs("current_executing_seats", "[BETA] Concurrency (number of seats) occupied by the currently executing (initial stage for a WATCH, any stage otherwise) requests in the API Priority and Fairness subsystem",
		func(s *series) int64 { return s.executingSeats.Load() })
	gaugePairs("current_inqueue_requests", "[BETA] Number of requests currently pending in queues of the API Priority and Fairness subsystem",
		func(s *series) int64 { return s.inqueueRequests.Load() })
	gaugePairs("current_inqueue_seats", "[ALPHA] Number of seats currently pending in queues of the API Priority and Fairness subsystem",
		func(s *series) int64 { return s.inqueueSeat.Load() })
	gaugeLevels("current_limit_seats", "[ALPHA] current derived number of execution seats available to each priority level",
		func(l *levelSeries) string { return ints(&l.current) })
	gaugeLevels("demand_seats_average", "[ALPHA] Time-weighted average, over last adjustment period, of demand_seats",
		func(l *levelSeries) string { return fbits(&l.demandAvg) })
	gaugeLevels("demand_seats_high_watermark", "[ALPHA] High watermark, over last adjustment period, of demand_seats",
		func(l *levelSeries) string { return fbits(&l.demandHWM) })
	gaugeLevels("demand_seats_smoothed", "[ALPHA] Smoothed seat demands",
		func(l *levelSeries) string { return fbits(&l.smoothed) })
	gaugeLevels("demand_seats_stdev", "[ALPHA] Time-weighted standard deviation, over last adjustment period, of demand_seats",
		func(l *levelSeries) string { return fbits(&l.demandStdev) })
	family("dispatched_requests_total", "counter", "[BETA] Number of requests executed by API Priority and Fairness subsystem",
		func(emit func(string, string)) {
			for _, s := range pairs {
				if n := s.dispatched.Load(); n > 0 {
					emit(pairLabels(s), strconv.FormatInt(n, 10))
				}
			}
		})
	gaugeLevels("lower_limit_seats", "[ALPHA] Configured lower bound on number of execution seats available to each priority level",
		func(l *levelSeries) string { return ints(&l.lower) })
	gaugeLevels("nominal_limit_seats", "[BETA] Nominal number of execution seats configured for each priority level",
		func(l *levelSeries) string { return ints(&l.nominal) })
	family("rejected_requests_total", "counter", "[BETA] Number of requests rejected by API Priority and Fairness subsystem",
		func(emit func(string, string)) {
			for _, s := range pairs {
				for i, r := range rejectReasons {
					if n := s.rejected[i].Load(); n > 0 {
						emit(pairLabels(s)+`,reason="`+r+`"`, strconv.FormatInt(n, 10))
					}
				}
			}
		})
	family("request_dispatch_no_accommodation_total", "counter", "[ALPHA] Number of times a dispatch attempt resulted in a non accommodation due to lack of available seats",
		func(emit func(string, string)) {
			for _, s := range pairs {
				if n := s.noAccommodation.Load(); n > 0 {
					emit(pairLabels(s), strconv.FormatInt(n, 10))
				}
			}
		})
	hist("request_execution_seconds", "[ALPHA] Duration of initial stage (for a WATCH) or any (for a non-WATCH) stage of request execution in the API Priority and Fairness subsystem",
		func(emit func(string, *histogram)) {
			for _, s := range pairs {
				emit(pairLabels(s)+`,type="regular"`, &s.execDuration[0])
				emit(pairLabels(s)+`,type="watch"`, &s.execDuration[1])
			}
		})
	hist("request_queue_length_after_enqueue", "[ALPHA] Length of queue in the API Priority and Fairness subsystem, as seen by each request after it is enqueued",
		func(emit func(string, *histogram)) {
			for _, s := range pairs {
				emit(pairLabels(s), &s.queueLength)
			}
		})
	hist("request_wait_duration_seconds", "[BETA] Length of time a request spent waiting in its queue",
		func(emit func(string, *histogram)) {
			for _, s := range pairs {
				emit(`execute="false",`+pairLabels(s), &s.waitDuration[0])
				emit(`execute="true",`+pairLabels(s), &s.waitDuration[1])
			}
		})
	family("seat_fair_frac", "gauge", "[ALPHA] Fair fraction of server's concurrency to allocate to each priority level that can use it",
		func(emit func(string, string)) { emit("", fbits(&m.fairFrac)) })
	gaugeLevels("target_seats", "[ALPHA] Seat allocation targets",
		func(l *levelSeries) string { return fbits(&l.target) })
	gaugeLevels("upper_limit_seats", "[ALPHA] Configured upper bound on number of execution seats available to each priority level",
		func(l *levelSeries) string { return ints(&l.upper) })
	hist("watch_count_samples", "[ALPHA] count of watchers for mutating requests in API Priority and Fairness",
		func(emit func(string, *histogram)) {
			for _, s := range pairs {
				emit(pairLabels(s), &s.watchCount)
			}
		})
	hist("work_estimated_seats", "[ALPHA] Number of estimated seats (maximum of initial and final seats) associated with requests in API Priority and Fairness",
		func(emit func(string, *histogram)) {
			for _, s := range pairs {
				emit(pairLabels(s), &s.workSeats)
			}
		})
	return w.Flush()
}

// formatFloat writes a sample value as Prometheus' Go client does.
func formatFloat(f float64) string {
	switch {
	case math.IsInf(f, 1):
		return "+Inf"
	case math.IsInf(f, -1):
		return "-Inf"
	case math.IsNaN(f):
		return "NaN"
	}
	return strconv.FormatFloat(f, 'g', -1, 64)
}

var labelEscaper = strings.NewReplacer(`\`, `\\`, "\n", `\n`, `"`, `\"`)

func escapeLabel(s string) string { return labelEscaper.Replace(s) }
