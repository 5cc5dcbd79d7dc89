package metrics_test

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kapi-dev/kapi/apiserver/metrics"
)

func text(t *testing.T, r *metrics.Registry) string {
	t.Helper()
	var b strings.Builder
	require.NoError(t, r.WriteText(&b))
	return b.String()
}

func TestTextFormat(t *testing.T) {
	tests := []struct {
		name    string
		collect func(r *metrics.Registry)
		want    string
	}{{
		name: "a counter family writes HELP, TYPE and its samples with labels sorted by name",
		collect: func(r *metrics.Registry) {
			c := metrics.NewCounterVec("requests_total", "[STABLE] Counter of requests.", "verb", "code")
			r.MustRegister(c)
			c.With("GET", "200").Inc()
			c.With("GET", "200").Inc()
			c.With("LIST", "200").Add(3)
		},
		want: "# HELP requests_total [STABLE] Counter of requests.\n# TYPE requests_total counter\n" +
			"requests_total{code=\"200\",verb=\"GET\"} 2\nrequests_total{code=\"200\",verb=\"LIST\"} 3\n",
	}, {
		name: "samples are sorted by the values of the sorted label names",
		collect: func(r *metrics.Registry) {
			c := metrics.NewGaugeVec("g", "h", "z", "a")
			r.MustRegister(c)
			c.With("1", "b").Set(1)
			c.With("2", "a").Set(2)
			c.With("0", "a").Set(-1.5)
		},
		want: "# HELP g h\n# TYPE g gauge\ng{a=\"a\",z=\"0\"} -1.5\ng{a=\"a\",z=\"2\"} 2\ng{a=\"b\",z=\"1\"} 1\n",
	}, {
		name: "a histogram writes cumulative buckets with le, +Inf, sum and count",
		collect: func(r *metrics.Registry) {
			h := metrics.NewHistogramVec("d_seconds", "h", []float64{0.005, 1, 1e6}, "verb")
			r.MustRegister(h)
			h.With("GET").Observe(0.001)
			h.With("GET").Observe(0.005)
			h.With("GET").Observe(0.5)
			h.With("GET").Observe(2e6)
		},
		want: "# HELP d_seconds h\n# TYPE d_seconds histogram\n" +
			"d_seconds_bucket{verb=\"GET\",le=\"0.005\"} 2\nd_seconds_bucket{verb=\"GET\",le=\"1\"} 3\n" +
			"d_seconds_bucket{verb=\"GET\",le=\"1e+06\"} 3\nd_seconds_bucket{verb=\"GET\",le=\"+Inf\"} 4\n" +
			"d_seconds_sum{verb=\"GET\"} 2.000000506e+06\nd_seconds_count{verb=\"GET\"} 4\n",
	}, {
		name: "a family without labels writes bare names",
		collect: func(r *metrics.Registry) {
			c := metrics.NewCounterVec("n_total", "h")
			r.MustRegister(c)
			c.With().Inc()
		},
		want: "# HELP n_total h\n# TYPE n_total counter\nn_total 1\n",
	}, {
		name: "label values and help are escaped",
		collect: func(r *metrics.Registry) {
			c := metrics.NewGaugeVec("e", "a\\b\nc", "l")
			r.MustRegister(c)
			c.With("q\"\\\n").Set(1)
		},
		want: "# HELP e a\\\\b\\nc\n# TYPE e gauge\ne{l=\"q\\\"\\\\\\n\"} 1\n",
	}, {
		name: "families are sorted by name and empty ones left out",
		collect: func(r *metrics.Registry) {
			b, a, empty := metrics.NewGaugeVec("b", "h"), metrics.NewGaugeVec("a", "h"), metrics.NewGaugeVec("c", "h", "x")
			r.MustRegister(b, a, empty)
			b.With().Set(2)
			a.With().Set(1)
		},
		want: "# HELP a h\n# TYPE a gauge\na 1\n# HELP b h\n# TYPE b gauge\nb 2\n",
	}, {
		name: "a Func family is computed when collected",
		collect: func(r *metrics.Registry) {
			r.MustRegister(metrics.NewFunc(metrics.Desc{Name: "objects", Help: "h", Type: metrics.TypeGauge, Labels: []string{"resource"}},
				func(emit func(float64, ...string)) {
					emit(3, "pods")
					emit(0, "configmaps")
				}))
		},
		want: "# HELP objects h\n# TYPE objects gauge\nobjects{resource=\"configmaps\"} 0\nobjects{resource=\"pods\"} 3\n",
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := metrics.NewRegistry()
			tt.collect(r)
			assert.Equal(t, tt.want, text(t, r))
		})
	}
}

func TestRegisterRefusesADuplicateName(t *testing.T) {
	r := metrics.NewRegistry()
	require.NoError(t, r.Register(metrics.NewCounterVec("x_total", "h")))
	assert.ErrorContains(t, r.Register(metrics.NewGaugeVec("x_total", "h")), "already registered")
}

func TestRegisterRefusesUnsortedBuckets(t *testing.T) {
	assert.Error(t, metrics.NewRegistry().Register(metrics.NewHistogramVec("h", "h", []float64{2, 1})))
}

func TestWithPanicsOnTheWrongNumberOfLabelValues(t *testing.T) {
	assert.Panics(t, func() { metrics.NewCounterVec("x", "h", "a", "b").With("1") })
}

func TestCountersAreExactUnderConcurrency(t *testing.T) {
	c := metrics.NewCounterVec("c_total", "h", "k")
	h := metrics.NewHistogramVec("h", "h", []float64{1}, "k")
	var wg sync.WaitGroup
	for i := 0; i < 8; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := 0; j < 1000; j++ {
				c.With("a").Inc()
				h.With("a").Observe(0.5)
			}
		}()
	}
	wg.Wait()
	assert.Equal(t, 8000.0, c.With("a").Value())
	assert.Equal(t, uint64(8000), h.With("a").Count())
}

func TestServeHTTPAnswersTheTextFormat(t *testing.T) {
	r := metrics.NewRegistry()
	g := metrics.NewGaugeVec("up", "h")
	r.MustRegister(g)
	g.With().Set(1)
	rec := httptest.NewRecorder()
	r.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/metrics", nil))
	assert.Equal(t, http.StatusOK, rec.Code)
	assert.Equal(t, "text/plain; version=0.0.4; charset=utf-8; escaping=underscores", rec.Header().Get("Content-Type"))
	assert.Equal(t, "# HELP up h\n# TYPE up gauge\nup 1\n", rec.Body.String())
}

func BenchmarkCounterInc(b *testing.B) {
	c := metrics.NewCounterVec("c_total", "h", "k").With("a")
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			c.Inc()
		}
	})
}

func BenchmarkHistogramObserve(b *testing.B) {
	h := metrics.NewHistogramVec("h", "h", []float64{0.005, 0.025, 0.05, 0.1, 0.2, 0.4, 0.6, 0.8, 1.0}, "k").With("a")
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			h.Observe(0.0003)
		}
	})
}

func TestAnIntBatchAddsToItsHistogramOnlyAtFlushAndAsObservingEachWould(t *testing.T) {
	direct := metrics.NewHistogramVec("direct", "h", []float64{10, 100}, "k")
	batched := metrics.NewHistogramVec("batched", "h", []float64{10, 100}, "k")
	b := metrics.NewIntBatch(batched.With("a"))
	values := []int64{1, 10, 11, 100, 5000, 7}
	for _, v := range values {
		direct.With("a").ObserveInt(v)
		b.ObserveInt(v)
	}
	assert.Equal(t, uint64(0), batched.With("a").Count(), "nothing is added before the flush")
	assert.Equal(t, uint64(len(values)), b.Flush())
	assert.Equal(t, uint64(0), b.Flush(), "a flush empties the batch")

	r := metrics.NewRegistry()
	r.MustRegister(direct)
	r.MustRegister(batched)
	var want, got []string
	for _, line := range strings.Split(text(t, r), "\n") {
		if rest, ok := strings.CutPrefix(line, "direct_"); ok {
			want = append(want, rest)
		} else if rest, ok := strings.CutPrefix(line, "batched_"); ok {
			got = append(got, rest)
		}
	}
	require.NotEmpty(t, want)
	assert.Equal(t, want, got, "the same buckets, sum and count")
}
