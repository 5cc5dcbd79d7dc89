// Package metrics is a small Prometheus instrumentation library: counters,
// gauges and histograms, with or without labels, gathered by a Registry
// that serves them in the Prometheus text exposition format (version
// 0.0.4), as kube-apiserver's /metrics does. kapi keeps it instead of the
// Prometheus client to keep its go.mod small; the format is the same, so
// any Prometheus scraper reads it.
//
// # Contract
//
// Recording is lock-free and allocation-free once a labelled child has
// been looked up: Counter.Inc, Gauge.Add and Histogram.Observe are a few
// atomic operations. Looking a child up (Vec.With) hashes its label values
// and allocates the first time only; hot paths keep the child they looked
// up. Collect runs at scrape time, under no lock of the recorders.
//
// Families are written sorted by name, their samples sorted by label
// values in the order of the sorted label names, labels sorted by name,
// as the Prometheus client writes them; a family with no sample is left
// out.
//
// # Registering metrics of your own
//
// Every apiserver.Server has a Registry (apiserver.Config.Metrics, or a new
// one; Server.Metrics returns it) served at /metrics. A component adds its
// families with Register:
//
//	dispatched := metrics.NewCounterVec("apiserver_flowcontrol_dispatched_requests_total",
//		"[BETA] Number of requests executed by API Priority and Fairness subsystem",
//		"flow_schema", "priority_level")
//	if err := srv.Metrics().Register(dispatched); err != nil { ... } // a duplicate name is an error
//	dispatched.With("exempt", "exempt").Inc()
//
// A family whose values are computed when scraped (a queue length, a count
// kept elsewhere) is a Func collector:
//
//	srv.Metrics().MustRegister(metrics.NewFunc(metrics.Desc{
//		Name: "apiserver_flowcontrol_current_inqueue_requests", Type: metrics.TypeGauge,
//		Help: "[BETA] Number of requests currently pending in queues",
//		Labels: []string{"flow_schema", "priority_level"},
//	}, func(emit func(value float64, labelValues ...string)) {
//		for _, q := range queues { emit(float64(q.Len()), q.flowSchema, q.priorityLevel) }
//	}))
//
// Anything implementing Collector can be registered too.
package metrics
