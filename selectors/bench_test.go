package selectors

import (
	"testing"
)

// The selector and objects of the benchmarks: a typical controller's
// selector against labels of a typical size.
const (
	benchLabelSelector = "app.kubernetes.io/name=web,tier in (frontend,backend),!canary,release notin (old),generation>3"
	benchFieldSelector = "metadata.namespace=default,spec.nodeName=node-1,status.phase!=Failed"
)

var (
	benchLabels = map[string]string{
		"app.kubernetes.io/name":    "web",
		"app.kubernetes.io/version": "1.2.3",
		"tier":                      "backend",
		"release":                   "new",
		"generation":                "12",
		"pod-template-hash":         "5d8f7c9b6",
	}
	benchFields = FieldSet{
		"metadata.name":      "web-5d8f7c9b6-abcde",
		"metadata.namespace": "default",
		"spec.nodeName":      "node-1",
		"status.phase":       "Running",
	}
)

func mustLabels(tb testing.TB, s string) LabelSelector {
	tb.Helper()
	sel, err := ParseLabelSelector(s)
	if err != nil {
		tb.Fatal(err)
	}
	return sel
}

func mustFields(tb testing.TB, s string) FieldSelector {
	tb.Helper()
	sel, err := ParseFieldSelector(s)
	if err != nil {
		tb.Fatal(err)
	}
	return sel
}

func TestMatchesDoesNotAllocate(t *testing.T) {
	ls := mustLabels(t, benchLabelSelector)
	fs := mustFields(t, benchFieldSelector)
	nonInteger := map[string]string{"app.kubernetes.io/name": "web", "tier": "backend", "generation": "twelve"}
	tests := []struct {
		name  string
		match func() bool
		want  bool
	}{
		{"a label selector on a map", func() bool { return ls.Matches(benchLabels) }, true},
		{"a label selector on a Labels view", func() bool { return ls.MatchesLabels(LabelSet(benchLabels)) }, true},
		{"a label selector on a label that is not an integer", func() bool { return ls.Matches(nonInteger) }, false},
		{"a field selector", func() bool { return fs.Matches(benchFields) }, true},
	}
	for _, tt := range tests {
		t.Run(tt.name+" does not allocate", func(t *testing.T) {
			if got := tt.match(); got != tt.want {
				t.Fatalf("match = %v, want %v", got, tt.want)
			}
			if allocs := testing.AllocsPerRun(100, func() { tt.match() }); allocs != 0 {
				t.Fatalf("%v allocations per match, want 0", allocs)
			}
		})
	}
}

func BenchmarkLabelSelectorMatches(b *testing.B) {
	sel := mustLabels(b, benchLabelSelector)
	b.ReportAllocs()
	for b.Loop() {
		if !sel.Matches(benchLabels) {
			b.Fatal("no match")
		}
	}
}

func BenchmarkLabelSelectorMatchesLabels(b *testing.B) {
	sel := mustLabels(b, benchLabelSelector)
	view := LabelSet(benchLabels)
	b.ReportAllocs()
	for b.Loop() {
		if !sel.MatchesLabels(view) {
			b.Fatal("no match")
		}
	}
}

func BenchmarkFieldSelectorMatches(b *testing.B) {
	sel := mustFields(b, benchFieldSelector)
	b.ReportAllocs()
	for b.Loop() {
		if !sel.Matches(benchFields) {
			b.Fatal("no match")
		}
	}
}

func BenchmarkParseLabelSelector(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		if _, err := ParseLabelSelector(benchLabelSelector); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkParseFieldSelector(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		if _, err := ParseFieldSelector(benchFieldSelector); err != nil {
			b.Fatal(err)
		}
	}
}
