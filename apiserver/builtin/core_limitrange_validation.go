package builtin

import (
	"fmt"
	"sort"

	"github.com/kapi-dev/kapi/apiserver"
	"github.com/kapi-dev/kapi/meta"
	"github.com/kapi-dev/kapi/quantity"
	"github.com/kapi-dev/kapi/selectors"
)

// Validate is kube's ValidateLimitRange: each limit's type (standard or
// qualified, not repeated), its resource names, and for each resource
// min ≤ defaultRequest ≤ default ≤ max and 1 ≤ maxLimitRequestRatio ≤
// max/min.
func (limitRangeStrategy) Validate(_ *apiserver.Write, o meta.Object) meta.FieldErrors {
	var e fieldErrs
	types := map[string]bool{}
	for i, l := range meta.AsList(field(o, "spec", "limits")) {
		e.limitRangeItem(fmt.Sprintf("spec.limits[%d]", i), asMap(l), types)
	}
	return e.list
}

// ValidateUpdate validates the new limit range as on create.
func (s limitRangeStrategy) ValidateUpdate(w *apiserver.Write, o, _ meta.Object) meta.FieldErrors {
	return s.Validate(w, o)
}

var limitTypes = setOf("Pod", "Container", "PersistentVolumeClaim")

func (e *fieldErrs) limitRangeItem(path string, item map[string]any, types map[string]bool) {
	typ, _ := item["type"].(string)
	msgs := selectors.QualifiedNameErrors(typ)
	e.invalidAll(path+".type", typ, msgs)
	if len(msgs) == 0 && !limitTypes[typ] && !containsSlash(typ) {
		e.invalid(path+".type", typ, "must be a standard limit type or fully qualified")
	}
	if types[typ] {
		e.duplicate(path+".type", typ)
	}
	types[typ] = true

	checkNames := func(kind string) map[string]quantity.Quantity {
		list := asMap(item[kind])
		out := map[string]quantity.Quantity{}
		for _, k := range sortedMapKeys(list) {
			p := fmt.Sprintf("%s.%s[%s]", path, kind, k)
			if typ == "Pod" || typ == "Container" {
				e.containerResourceName(p, k)
			} else {
				e.resourceName(p, k)
			}
			if q, ok := parseQuantity(list[k]); ok {
				out[k] = q
			}
		}
		return out
	}
	maxQ, minQ := checkNames("max"), checkNames("min")
	var defaults, defaultRequests map[string]quantity.Quantity
	if typ == "Pod" {
		if len(asMap(item["default"])) > 0 {
			e.forbidden(path+".default", "may not be specified when `type` is 'Pod'")
		}
		if len(asMap(item["defaultRequest"])) > 0 {
			e.forbidden(path+".defaultRequest", "may not be specified when `type` is 'Pod'")
		}
	} else {
		defaults, defaultRequests = checkNames("default"), checkNames("defaultRequest")
	}
	if typ == "PersistentVolumeClaim" {
		_, hasMin := asMap(item["min"])["storage"]
		_, hasMax := asMap(item["max"])["storage"]
		if !hasMin && !hasMax {
			e.list = append(e.list, meta.FieldError{Type: meta.ErrorRequired, Field: path + ".limits",
				Detail: "either minimum or maximum storage value is required, but neither was provided"})
		}
	}
	ratios := checkNames("maxLimitRequestRatio")

	keys := map[string]bool{}
	for _, m := range []map[string]quantity.Quantity{maxQ, minQ, defaults, defaultRequests, ratios} {
		for k := range m {
			keys[k] = true
		}
	}
	names := make([]string, 0, len(keys))
	for k := range keys {
		names = append(names, k)
	}
	sort.Strings(names)
	for _, k := range names {
		minV, hasMin := minQ[k]
		maxV, hasMax := maxQ[k]
		def, hasDef := defaults[k]
		req, hasReq := defaultRequests[k]
		ratio, hasRatio := ratios[k]
		at := func(kind string) string { return fmt.Sprintf("%s.%s[%s]", path, kind, k) }
		if hasMin && hasMax && minV.Cmp(maxV) > 0 {
			e.invalid(at("min"), quantityValue(minV), fmt.Sprintf("min value %s is greater than max value %s", minV.String(), maxV.String()))
		}
		if hasReq && hasMin && minV.Cmp(req) > 0 {
			e.invalid(at("defaultRequest"), quantityValue(req), fmt.Sprintf("min value %s is greater than default request value %s", minV.String(), req.String()))
		}
		if hasReq && hasMax && req.Cmp(maxV) > 0 {
			e.invalid(at("defaultRequest"), quantityValue(req), fmt.Sprintf("default request value %s is greater than max value %s", req.String(), maxV.String()))
		}
		if hasReq && hasDef && req.Cmp(def) > 0 {
			e.invalid(at("defaultRequest"), quantityValue(req), fmt.Sprintf("default request value %s is greater than default limit value %s", req.String(), def.String()))
		}
		if hasDef && hasMin && minV.Cmp(def) > 0 {
			e.invalid(at("default"), quantityValue(minV), fmt.Sprintf("min value %s is greater than default value %s", minV.String(), def.String()))
		}
		if hasDef && hasMax && def.Cmp(maxV) > 0 {
			e.invalid(at("default"), quantityValue(maxV), fmt.Sprintf("default value %s is greater than max value %s", def.String(), maxV.String()))
		}
		if hasRatio && ratio.Cmp(quantity.Int64(1)) < 0 {
			e.invalid(at("maxLimitRequestRatio"), quantityValue(ratio), fmt.Sprintf("ratio %s is less than 1", ratio.String()))
		}
		if hasRatio && hasMin && hasMax {
			ratioValue := float64(ratio.Value())
			minValue, maxValue := minV.Value(), maxV.Value()
			const maxMilli = (1<<63 - 1) / 1000
			if ratio.Value() < maxMilli && minValue < maxMilli && maxValue < maxMilli {
				ratioValue = float64(ratio.Milli().Int64()) / 1000
				minValue, maxValue = minV.Milli().Int64(), maxV.Milli().Int64()
			}
			if limit := float64(maxValue) / float64(minValue); ratioValue > limit {
				e.invalid(at("maxLimitRequestRatio"), quantityValue(ratio), fmt.Sprintf("ratio %s is greater than max/min = %f", ratio.String(), limit))
			}
		}
		if overcommitForbidden(k) && hasDef && hasReq && def.Cmp(req) != 0 {
			e.invalid(at("defaultRequest"), quantityValue(req), fmt.Sprintf("default value %s must equal to defaultRequest value %s in %s", def.String(), req.String(), k))
		}
	}
}

// overcommitForbidden: hugepages and resources of other domains may not
// be requested below their limit.
func overcommitForbidden(name string) bool { return !isNativeResource(name) || isHugePages(name) }

func containsSlash(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] == '/' {
			return true
		}
	}
	return false
}
