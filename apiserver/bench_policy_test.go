package apiserver_test

import (
	"fmt"
	"net/http"
	"testing"
	"time"

	"github.com/kapi-dev/kapi/apiserver"
	"github.com/kapi-dev/kapi/internal/benchkit"
)

// benchRules are ten x-kubernetes-validations rules of the kinds CRDs
// carry (bounds, sizes, formats, quantities, addresses, a transition
// rule, which a create skips).
var benchRules = []string{
	`{"rule":"self.replicas >= 0 && self.replicas <= 100","message":"replicas out of range"}`,
	`{"rule":"self.minReplicas <= self.replicas","fieldPath":".replicas"}`,
	`{"rule":"self.name.size() <= 63"}`,
	`{"rule":"self.name.matches('^[a-z][-a-z0-9]*$')"}`,
	`{"rule":"self.tags.all(t, t.size() < 16)"}`,
	`{"rule":"!has(self.memory) || quantity(self.memory).isLessThan(quantity('64Gi'))"}`,
	`{"rule":"!has(self.address) || isIP(self.address)"}`,
	`{"rule":"!has(self.url) || isURL(self.url)"}`,
	`{"rule":"!format.dns1123Label().validate(self.name).hasValue()"}`,
	`{"rule":"self.name == oldSelf.name","message":"name is immutable"}`,
}

func ruleCRD(group string, rules bool) []byte {
	validations := ""
	if rules {
		validations = `"x-kubernetes-validations":[`
		for i, r := range benchRules {
			if i > 0 {
				validations += ","
			}
			validations += r
		}
		validations += `],`
	}
	return []byte(`{"apiVersion":"apiextensions.k8s.io/v1","kind":"CustomResourceDefinition",
"metadata":{"name":"gadgets.` + group + `"},
"spec":{"group":"` + group + `","scope":"Namespaced","names":{"plural":"gadgets","kind":"Gadget"},
"versions":[{"name":"v1","served":true,"storage":true,"schema":{"openAPIV3Schema":{"type":"object","properties":{
"spec":{"type":"object",` + validations + `"properties":{
"name":{"type":"string","maxLength":63},"replicas":{"type":"integer"},"minReplicas":{"type":"integer"},
"tags":{"type":"array","maxItems":16,"items":{"type":"string","maxLength":32}},
"memory":{"type":"string","maxLength":16},"address":{"type":"string","maxLength":45},"url":{"type":"string","maxLength":256}}}}}}}]}}`)
}

func gadget(group string, i int) []byte {
	return []byte(fmt.Sprintf(`{"apiVersion":"%s/v1","kind":"Gadget","metadata":{"name":"g-%d"},"spec":{"name":"gadget-%d","replicas":3,"minReplicas":1,"tags":["a","b","c"],"memory":"2Gi","address":"10.0.0.1","url":"https://example.com/x"}}`, group, i, i))
}

// BenchmarkCustomResourceCreateRules is the cost of CEL rules on a
// create (issue 19: a create of a custom resource whose CRD has 10 rules
// at most 1.5× the same create without them). Each iteration creates one
// custom resource in a server whose CRD has no rules and one in a server
// whose CRD has the ten benchRules, through the handler in-process, and
// times each; "ratio" is the time with rules over the time without.
func BenchmarkCustomResourceCreateRules(b *testing.B) {
	plain := newBenchServer(b, apiserver.Config{})
	ruled := newBenchServer(b, apiserver.Config{})
	benchkit.MustServe(b, plain, http.StatusCreated, "POST", crdsPath, "application/json", ruleCRD("plain.example.org", false))
	benchkit.MustServe(b, ruled, http.StatusCreated, "POST", crdsPath, "application/json", ruleCRD("ruled.example.org", true))
	plainPath := "/apis/plain.example.org/v1/namespaces/default/gadgets"
	ruledPath := "/apis/ruled.example.org/v1/namespaces/default/gadgets"
	bodies := func(group string, n int) [][]byte {
		out := make([][]byte, n)
		for i := range out {
			out[i] = gadget(group, i)
		}
		return out
	}
	b.ReportAllocs()
	var withoutRules, withRules time.Duration
	i := 0
	var pb, rb [][]byte
	for b.Loop() {
		if i%1024 == 0 {
			b.StopTimer()
			pb, rb = bodies("plain.example.org", 1024), bodies("ruled.example.org", 1024)
			for k := range pb { // names stay unique across batches
				pb[k] = gadget("plain.example.org", i+k)
				rb[k] = gadget("ruled.example.org", i+k)
			}
			b.StartTimer()
		}
		t0 := time.Now()
		benchkit.MustServe(b, plain, http.StatusCreated, "POST", plainPath, "application/json", pb[i%1024])
		t1 := time.Now()
		benchkit.MustServe(b, ruled, http.StatusCreated, "POST", ruledPath, "application/json", rb[i%1024])
		withRules += time.Since(t1)
		withoutRules += t1.Sub(t0)
		i++
	}
	if withoutRules > 0 {
		b.ReportMetric(float64(withRules)/float64(withoutRules), "ratio")
		b.ReportMetric(float64(withoutRules.Nanoseconds())/float64(i), "ns-without/op")
		b.ReportMetric(float64(withRules.Nanoseconds())/float64(i), "ns-with/op")
	}
}
