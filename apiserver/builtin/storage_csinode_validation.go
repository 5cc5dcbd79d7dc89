package builtin

import (
	"encoding/json"
	"fmt"

	"github.com/kapi-dev/kapi/apiserver"
	"github.com/kapi-dev/kapi/meta"
	"github.com/kapi-dev/kapi/selectors"
)

// csiNodeStrategy is what a CSINode does differently: kube's
// ValidateCSINode and its update.
type csiNodeStrategy struct{ apiserver.GenericStrategy }

// Validate checks each driver: its name (a DNS subdomain, once per node),
// node ID, allocatable count and topology keys.
func (csiNodeStrategy) Validate(w *apiserver.Write, o meta.Object) meta.FieldErrors {
	e := fieldErrs{release: w.Release()}
	names := map[string]bool{}
	for i, d := range meta.AsList(field(o, "spec", "drivers")) {
		driver := asMap(d)
		p := fmt.Sprintf("spec.drivers[%d]", i)
		name, _ := driver["name"].(string)
		e.csiDriverName(p+".name", name)
		if id, _ := driver["nodeID"].(string); id == "" {
			e.required(p + ".nodeID")
		}
		e.nonNegative(p+".allocatable.count", field(driver, "allocatable", "count"))
		keys := map[string]bool{}
		for _, k := range stringList(driver["topologyKeys"]) {
			if keys[k] {
				e.duplicate(p, k)
			}
			keys[k] = true
			e.invalidAll(p, k, selectors.QualifiedNameErrors(k))
		}
		if names[name] {
			e.duplicate(p+".name", name)
		}
		names[name] = true
	}
	return e.list
}

// ValidateUpdate validates the next version; a driver the node had keeps
// everything it had (a driver may come or go).
func (s csiNodeStrategy) ValidateUpdate(w *apiserver.Write, o, old meta.Object) meta.FieldErrors {
	var e fieldErrs
	e.list = s.Validate(w, o)
	for _, od := range meta.AsList(field(old, "spec", "drivers")) {
		oldDriver := asMap(od)
		for _, nd := range meta.AsList(field(o, "spec", "drivers")) {
			driver := asMap(nd)
			if driver["name"] == oldDriver["name"] && !equalJSON(driver, oldDriver) {
				e.invalid("spec.drivers", goCSINodeDriver(driver), "field is immutable")
			}
		}
	}
	return e.list
}

// goCSINodeDriver renders a driver as kube's message does (Go's %#v of
// the internal type). kube shows a set allocatable as its pointer's
// address, which kapi cannot reproduce: it shows a fixed one.
func goCSINodeDriver(d map[string]any) kubeValue {
	name, _ := d["name"].(string)
	id, _ := d["nodeID"].(string)
	alloc, allocJSON := "(*storage.VolumeNodeResources)(nil)", json.RawMessage("null")
	if a, ok := d["allocatable"].(map[string]any); ok {
		alloc = "(*storage.VolumeNodeResources)(0xc000010000)"
		var count any
		if n, ok := meta.AsInt64(a["count"]); ok {
			count = n
		}
		allocJSON = json.RawMessage(jsonStruct("Count", count))
	}
	topology := stringListOrNil(d["topologyKeys"])
	return kubeValue{fmt.Sprintf("storage.CSINodeDriver{Name:%q, NodeID:%q, TopologyKeys:%s, Allocatable:%s}",
		name, id, goStrings(stringList(d["topologyKeys"])), alloc),
		jsonStruct("Name", name, "NodeID", id, "TopologyKeys", topology, "Allocatable", allocJSON)}
}
