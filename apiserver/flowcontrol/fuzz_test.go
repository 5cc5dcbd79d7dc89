package flowcontrol

import (
	"net/http/httptest"
	"testing"

	"github.com/kapi-dev/kapi/codec"
	"github.com/kapi-dev/kapi/meta"
)

// FuzzConfigurationObjects feeds arbitrary JSON bodies through what a
// write of either kind goes through (defaults, conversion, validation) and
// what the controller does with stored objects (decode, digest): none may
// panic, whatever the body.
func FuzzConfigurationObjects(f *testing.F) {
	for _, s := range []string{
		`{"apiVersion":"flowcontrol.apiserver.k8s.io/v1","kind":"PriorityLevelConfiguration","metadata":{"name":"p"},"spec":{"type":"Limited","limited":{"limitResponse":{"type":"Queue","queuing":{"queues":4,"handSize":5}}}}}`,
		`{"apiVersion":"flowcontrol.apiserver.k8s.io/v1beta3","kind":"PriorityLevelConfiguration","metadata":{"name":"p","annotations":{"flowcontrol.k8s.io/v1beta3-preserve-zero-concurrency-shares":""}},"spec":{"type":"Limited","limited":{"nominalConcurrencyShares":0,"limitResponse":{"type":"Reject"}}}}`,
		`{"apiVersion":"flowcontrol.apiserver.k8s.io/v1","kind":"PriorityLevelConfiguration","metadata":{"name":"exempt"},"spec":{"type":"Exempt","exempt":{"nominalConcurrencyShares":-1}}}`,
		`{"apiVersion":"flowcontrol.apiserver.k8s.io/v1","kind":"FlowSchema","metadata":{"name":"f"},"spec":{"priorityLevelConfiguration":{"name":"p"},"rules":[{"subjects":[{"kind":"ServiceAccount","serviceAccount":{"name":"*","namespace":"ns"}}],"nonResourceRules":[{"verbs":["get"],"nonResourceURLs":["/a/*"]}]}]}}`,
		`{"kind":"FlowSchema","spec":{"rules":[{}],"distinguisherMethod":{"type":1}}}`,
		`{"kind":"PriorityLevelConfiguration","spec":{"limited":null,"exempt":[]}}`,
		`{}`,
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, body string) {
		v, err := codec.DecodeJSONValue([]byte(body))
		if err != nil {
			return
		}
		m, ok := v.(map[string]any)
		if !ok {
			return
		}
		obj := meta.Object(m)
		if obj.Kind() == "FlowSchema" {
			DefaultFlowSchema(obj)
			obj = ConvertToV1(obj)
			_ = ValidateFlowSchema(obj)
			_ = ValidateFlowSchemaStatus(obj)
		} else {
			DefaultPriorityLevel(obj)
			obj = ConvertToV1(obj)
			_ = ValidatePriorityLevel(obj)
			_ = ValidatePriorityLevelStatus(obj)
			_ = ConvertFromV1(obj, "v1beta3")
		}
		c := New(Options{}, Deps{})
		var pls []*PriorityLevelConfiguration
		var fss []*FlowSchema
		if pl, err := DecodePriorityLevel(obj); err == nil {
			pls = append(pls, pl)
		}
		if fs, err := DecodeFlowSchema(obj); err == nil {
			fss = append(fss, fs)
		}
		c.mu.Lock()
		c.digestLocked(pls, fss)
		c.mu.Unlock()
		rec := httptest.NewRecorder()
		c.Filter(nopHandler{}).ServeHTTP(rec, httptest.NewRequest("GET", "/api/v1/namespaces/a/pods", nil))
	})
}
