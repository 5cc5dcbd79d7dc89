package schema

import (
	"encoding/json"
	"maps"
	"sync"
)

// ScaleComponent is the component name of autoscaling/v1 Scale's schema.
const ScaleComponent = "io.k8s.api.autoscaling.v1.Scale"

// scaleJSON holds autoscaling/v1 Scale, ScaleSpec and ScaleStatus as
// kube-apiserver 1.33 publishes them, descriptions dropped. Later
// releases publish the same types (1.35 adds a default of 0 to ScaleSpec's
// replicas, which stays omitted when 0, so 1.33's is kept: the Go zero
// value a Scale starts from has an empty spec).
const scaleJSON = `{
"io.k8s.api.autoscaling.v1.Scale": {"type": "object",
  "properties": {
    "apiVersion": {"type": "string"},
    "kind": {"type": "string"},
    "metadata": {"allOf": [{"$ref": "#/components/schemas/io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta"}], "default": {}},
    "spec": {"allOf": [{"$ref": "#/components/schemas/io.k8s.api.autoscaling.v1.ScaleSpec"}], "default": {}},
    "status": {"allOf": [{"$ref": "#/components/schemas/io.k8s.api.autoscaling.v1.ScaleStatus"}], "default": {}}},
  "x-kubernetes-group-version-kind": [{"group": "autoscaling", "kind": "Scale", "version": "v1"}]},
"io.k8s.api.autoscaling.v1.ScaleSpec": {"type": "object",
  "properties": {"replicas": {"type": "integer", "format": "int32"}}},
"io.k8s.api.autoscaling.v1.ScaleStatus": {"type": "object", "required": ["replicas"],
  "properties": {"replicas": {"type": "integer", "format": "int32", "default": 0}, "selector": {"type": "string"}}}
}`

var scale = sync.OnceValue(func() *Schema {
	var om, sc map[string]any
	if err := json.Unmarshal(objectMetaJSON, &om); err != nil {
		panic("schema: embedded ObjectMeta schema: " + err.Error())
	}
	if err := json.Unmarshal([]byte(scaleJSON), &sc); err != nil {
		panic("schema: Scale schema: " + err.Error())
	}
	maps.Copy(om, sc)
	comps, err := ParseComponents(om)
	if err != nil {
		panic("schema: Scale schema: " + err.Error())
	}
	return comps[ScaleComponent]
})

// Scale returns the schema of autoscaling/v1 Scale, the view a /scale
// subresource serves of a workload or custom resource, the same in every
// release kapi serves. It is a component parsed by [ParseComponents], as
// a built-in kind's. Shared: do not modify.
func Scale() *Schema {
	return scale()
}
