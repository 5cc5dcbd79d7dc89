package builtin

import (
	"encoding/json"
	"fmt"
	"time"

	"github.com/kapi-dev/kapi/apiserver"
	"github.com/kapi-dev/kapi/meta"
	"github.com/kapi-dev/kapi/schema"
	"github.com/kapi-dev/kapi/selectors"
)

// Validate is kube's ValidateNode: taints (reported under metadata.taints,
// as kube does), capacity and allocatable, pod CIDRs.
func (nodeStrategy) Validate(w *apiserver.Write, o meta.Object) meta.FieldErrors {
	e := fieldErrs{release: w.Release()}
	e.nodeTaints(o)
	e.nodeResources(o)
	e.podCIDRs(o)
	return e.list
}

// ValidateUpdate is kube's node strategies: a write to the node validates
// it as on create, then as kube's ValidateNodeUpdate does (which a write
// to /status runs alone): resources, addresses, the pod CIDRs and provider
// ID set once, taints.
func (s nodeStrategy) ValidateUpdate(w *apiserver.Write, o, old meta.Object) meta.FieldErrors {
	e := fieldErrs{release: w.Release()}
	if w.Subresource == "" {
		e.list = s.Validate(w, o)
	}
	e.nodeResources(o)
	seen := map[string]bool{}
	for i, a := range meta.AsList(field(o, "status", "addresses")) {
		addr := asMap(a)
		typ, _ := addr["type"].(string)
		ip, _ := addr["address"].(string)
		if key := typ + "\x00" + ip; seen[key] {
			e.duplicate(fmt.Sprintf("status.addresses[%d]", i), kubeValue{fmt.Sprintf("core.NodeAddress{Type:%q, Address:%q}", typ, ip), jsonStruct("Type", typ, "Address", ip)})
		} else {
			seen[key] = true
		}
	}
	if oldCIDRs := stringList(field(old, "spec", "podCIDRs")); len(oldCIDRs) > 0 && !equalJSON(field(o, "spec", "podCIDRs"), field(old, "spec", "podCIDRs")) {
		e.forbidden("spec.podCIDRs", `node updates may not change podCIDR except from "" to valid`)
	}
	switch oldID, id := str(old, "spec", "providerID"), str(o, "spec", "providerID"); {
	case oldID == "" || id == oldID:
	case !e.release.AtLeast(37):
		e.forbidden("spec.providerID", `node updates may not change providerID except from "" to valid`)
	case id == "": // kube 1.37's declarative update rule
		e.declarativeInvalid(true, "spec.providerID", nil, "field cannot be cleared once set")
	default:
		e.declarativeInvalid(true, "spec.providerID", nil, "field cannot be modified once set")
	}
	e.nodeTaints(o)
	if str(o, "spec", "externalID") != str(old, "spec", "externalID") {
		e.forbidden("spec.externalID", "may not be updated")
	}
	return e.all()
}

// nodeTaints is kube's validateNodeTaints: keys, values, effects, one
// taint per key and effect.
func (e *fieldErrs) nodeTaints(o meta.Object) {
	seen := map[string]bool{}
	for i, t := range meta.AsList(field(o, "spec", "taints")) {
		taint := asMap(t)
		p := fmt.Sprintf("metadata.taints[%d]", i)
		key, _ := taint["key"].(string)
		value, _ := taint["value"].(string)
		effect, _ := taint["effect"].(string)
		e.invalidAll(p+".key", key, selectors.QualifiedNameErrors(key))
		e.invalidAll(p+".value", value, selectors.LabelValueErrors(value))
		switch effect {
		case "":
			e.required(p + ".effect")
		case "NoSchedule", "PreferNoSchedule", "NoExecute":
		default:
			e.notSupported(p+".effect", effect, "NoSchedule", "PreferNoSchedule", "NoExecute")
		}
		k := key + "\x00" + effect
		if seen[k] {
			added, addedJSON := "<nil>", json.RawMessage("null")
			if s, ok := taint["timeAdded"].(string); ok && s != "" {
				added = s
				addedJSON = json.RawMessage(timeValue(s, time.RFC3339).json)
			}
			e.list = append(e.list, meta.FieldError{Type: meta.ErrorDuplicate, Field: p,
				Value: kubeValue{fmt.Sprintf("core.Taint{Key:%q, Value:%q, Effect:%q, TimeAdded:%s}", key, value, effect, added),
					jsonStruct("Key", key, "Value", value, "Effect", effect, "TimeAdded", addedJSON)},
				Detail: "taints must be unique by key and effect pair"})
		}
		seen[k] = true
	}
}

// nodeResources is kube's ValidateNodeResources: no negative capacity
// or allocatable quantity.
func (e *fieldErrs) nodeResources(o meta.Object) {
	for _, list := range []string{"capacity", "allocatable"} {
		m := asMap(field(o, "status", list))
		for _, k := range sortedMapKeys(m) {
			s, ok := quantityText(m[k])
			if !ok {
				continue
			}
			if negativeQuantity(s) {
				shown, _ := canonicalQuantity(s)
				e.invalid("status."+list+"."+k, shown, "must be greater than or equal to 0")
			}
		}
	}
}

// podCIDRs is kube's check of a node's pod CIDRs: each a CIDR (the
// lenient parse of a field older than kube's strict one), at most one of
// each family, no repeats.
func (e *fieldErrs) podCIDRs(o meta.Object) {
	cidrs := stringList(field(o, "spec", "podCIDRs"))
	if len(cidrs) == 0 {
		if c := str(o, "spec", "podCIDR"); c != "" {
			cidrs = []string{c}
		}
	}
	for i, c := range cidrs {
		e.cidr(fmt.Sprintf("spec.podCIDRs[%d]", i), c, nil)
	}
	if len(cidrs) > 1 {
		if len(cidrs) > 2 || cidrFamily(cidrs[0]) == cidrFamily(cidrs[1]) {
			e.invalid("spec.podCIDRs", goStrings(cidrs), "may specify no more than one CIDR for each IP family")
		}
		seen := map[string]bool{}
		for i, c := range cidrs {
			if seen[c] {
				e.duplicate(fmt.Sprintf("spec.podCIDRs[%d]", i), c)
			}
			seen[c] = true
		}
	}
}

// nodeSchema is the published schema without the enum of a taint's
// effect: kube checks it under metadata.taints (nodeTaints), and only
// there.
func nodeSchema(r apiserver.Release) *schema.Schema {
	return schemaEdited(SchemaFor(r, meta.GroupVersionKind{Version: "v1", Kind: "Node"}), []string{"spec", "taints", "[]", "effect"},
		func(s *schema.Schema) { s.Enum = nil })
}
