package apiserver_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"testing"

	"github.com/kapi-dev/kapi/apiserver"
	"github.com/kapi-dev/kapi/internal/benchkit"
)

// crdSchemaProperties is the size of the custom resource schema of
// BenchmarkCRDSchema: 40 properties under spec (issue 12's measure).
const crdSchemaProperties = 40

// fortyPropertyCRD is a CustomResourceDefinition whose spec has
// crdSchemaProperties properties of every kind server-side apply treats
// differently: scalars with defaults, formats and patterns, granular and
// atomic maps, sets, list-type maps, nested objects, int-or-string,
// preserve-unknown-fields and an embedded resource.
func fortyPropertyCRD() []byte {
	props := map[string]any{}
	for i := range crdSchemaProperties {
		name := fmt.Sprintf("field%02d", i)
		var p map[string]any
		switch i % 10 {
		case 0:
			p = map[string]any{"type": "string", "maxLength": 63, "pattern": "^[a-z0-9-]*$"}
		case 1:
			p = map[string]any{"type": "integer", "format": "int32", "minimum": 0, "default": 1}
		case 2:
			p = map[string]any{"type": "boolean", "default": false}
		case 3:
			p = map[string]any{"type": "object", "additionalProperties": map[string]any{"type": "string"}}
		case 4:
			p = map[string]any{"type": "array", "x-kubernetes-list-type": "set", "items": map[string]any{"type": "string"}}
		case 5:
			p = map[string]any{"type": "array", "x-kubernetes-list-type": "map", "x-kubernetes-list-map-keys": []any{"name"},
				"items": map[string]any{"type": "object", "required": []any{"name"}, "properties": map[string]any{
					"name": map[string]any{"type": "string"}, "value": map[string]any{"type": "string"},
					"port": map[string]any{"type": "integer", "default": 80}}}}
		case 6:
			p = map[string]any{"type": "object", "properties": map[string]any{
				"enabled": map[string]any{"type": "boolean"},
				"mode":    map[string]any{"type": "string", "enum": []any{"fast", "safe"}, "default": "safe"},
				"limits":  map[string]any{"type": "object", "x-kubernetes-map-type": "atomic", "properties": map[string]any{"cpu": map[string]any{"type": "string"}}}}}
		case 7:
			p = map[string]any{"x-kubernetes-int-or-string": true}
		case 8:
			p = map[string]any{"type": "object", "x-kubernetes-preserve-unknown-fields": true}
		case 9:
			p = map[string]any{"type": "object", "x-kubernetes-embedded-resource": true, "x-kubernetes-preserve-unknown-fields": true}
		}
		p["description"] = "Property " + name + " of the benchmark's custom resource."
		props[name] = p
	}
	crd := map[string]any{
		"apiVersion": "apiextensions.k8s.io/v1", "kind": "CustomResourceDefinition",
		"metadata": map[string]any{"name": "gadgets.bench.example.org"},
		"spec": map[string]any{
			"group": "bench.example.org", "scope": "Namespaced",
			"names": map[string]any{"plural": "gadgets", "singular": "gadget", "kind": "Gadget"},
			"versions": []any{map[string]any{
				"name": "v1", "served": true, "storage": true,
				"subresources": map[string]any{"status": map[string]any{}},
				"schema": map[string]any{"openAPIV3Schema": map[string]any{"type": "object", "properties": map[string]any{
					"spec":   map[string]any{"type": "object", "properties": props},
					"status": map[string]any{"type": "object", "properties": map[string]any{"ready": map[string]any{"type": "boolean"}}},
				}}},
			}},
		},
	}
	b, err := json.Marshal(crd)
	if err != nil {
		panic(err)
	}
	return b
}

// gadgetJSON is a custom resource of fortyPropertyCRD with a value for
// most of its properties.
func gadgetJSON(name string) []byte {
	return fmt.Appendf(nil, `{"apiVersion":"bench.example.org/v1","kind":"Gadget","metadata":{"name":%q,"namespace":"default","labels":{"app":"bench"}},
"spec":{"field00":"a-name","field01":3,"field02":true,"field03":{"k":"v"},"field04":["a","b"],
"field05":[{"name":"x","value":"1"},{"name":"y","value":"2"}],"field06":{"enabled":true,"limits":{"cpu":"1"}},
"field07":"50%%","field08":{"free":{"form":1}},"field09":{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"c"},"data":{"k":"v"}},
"field10":"other","field15":[{"name":"z"}],"field17":8080}}`, name)
}

// BenchmarkCRDSchema is what a CRD's schema costs a server: creating a
// CustomResourceDefinition with a 40-property schema in a fresh server
// (validation, establishing, serving its types), and the first write of
// one of its custom resources (which builds the type's field manager from
// the schema). Each iteration gets a new server, made outside the timer,
// so neither figure depends on the CRDs created before.
func BenchmarkCRDSchema(b *testing.B) {
	crd := fortyPropertyCRD()
	const crds = "/apis/apiextensions.k8s.io/v1/customresourcedefinitions"
	const gadgets = "/apis/bench.example.org/v1/namespaces/default/gadgets"
	newServer := func(b *testing.B) *apiserver.Server {
		b.Helper()
		b.StopTimer()
		defer b.StartTimer()
		return newBenchServer(b, apiserver.Config{})
	}
	b.Run("create-crd", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			h := newServer(b)
			benchkit.MustServe(b, h, http.StatusCreated, "POST", crds, "application/json", crd)
		}
	})
	b.Run("first-write", func(b *testing.B) {
		b.ReportAllocs()
		body := gadgetJSON("g-0")
		for b.Loop() {
			b.StopTimer()
			h := newBenchServer(b, apiserver.Config{})
			benchkit.MustServe(b, h, http.StatusCreated, "POST", crds, "application/json", crd)
			b.StartTimer()
			benchkit.MustServe(b, h, http.StatusCreated, "POST", gadgets, "application/json", body)
		}
	})
	b.Run("later-write", func(b *testing.B) {
		h := newBenchServer(b, apiserver.Config{})
		benchkit.MustServe(b, h, http.StatusCreated, "POST", crds, "application/json", crd)
		benchkit.MustServe(b, h, http.StatusCreated, "POST", gadgets, "application/json", gadgetJSON("g-first"))
		i := 0
		b.ReportAllocs()
		for b.Loop() {
			benchkit.MustServe(b, h, http.StatusCreated, "POST", gadgets, "application/json", gadgetJSON(fmt.Sprintf("g-%d", i)))
			i++
		}
	})
}
