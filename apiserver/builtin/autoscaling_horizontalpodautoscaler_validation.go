package builtin

import (
	"fmt"
	"strings"

	"github.com/kapi-dev/kapi/apiserver"
	"github.com/kapi-dev/kapi/meta"
	"github.com/kapi-dev/kapi/schema"
	"github.com/kapi-dev/kapi/selectors"
)

// Validate is kube's ValidateHorizontalPodAutoscaler.
func (hpaStrategy) Validate(w *apiserver.Write, o meta.Object) meta.FieldErrors {
	return validateHPA(w.Release(), o, nil)
}

// ValidateUpdate is kube's ValidateHorizontalPodAutoscalerUpdate, or its
// status update's check on /status.
func (hpaStrategy) ValidateUpdate(w *apiserver.Write, o, old meta.Object) meta.FieldErrors {
	if w.Subresource == "status" {
		return validateHPAStatus(o)
	}
	return validateHPA(w.Release(), o, old)
}

// Validate checks an autoscaling/v1 autoscaler as kube does: converted to
// the v2 form it is stored in, so the paths name v2's fields
// (targetCPUUtilizationPercentage is spec.metrics[0].resource.target.averageUtilization).
func (hpaV1Strategy) Validate(w *apiserver.Write, o meta.Object) meta.FieldErrors {
	return validateHPA(w.Release(), hpaV1ToV2(o), nil)
}

// ValidateUpdate checks the v2 form of an autoscaling/v1 update.
func (hpaV1Strategy) ValidateUpdate(w *apiserver.Write, o, old meta.Object) meta.FieldErrors {
	if w.Subresource == "status" {
		return validateHPAStatus(hpaV1ToV2(o))
	}
	return validateHPA(w.Release(), hpaV1ToV2(o), hpaV1ToV2(old))
}

// validateHPA is kube's validateHorizontalPodAutoscalerSpec of a v2
// object at release r; old (nil on create) lets an autoscaler that
// already scales to zero keep minReplicas 0 (new ones need the
// HPAScaleToZero gate, on by default from 1.37). kube 1.37 checks the
// replica bounds by declarative rules, reported after the others.
func validateHPA(r apiserver.Release, o, old meta.Object) meta.FieldErrors {
	e := fieldErrs{release: r}
	spec := asMap(o["spec"])
	minBound := int64(1)
	if n, ok := meta.AsInt64(field(old, "spec", "minReplicas")); ok && n == 0 || r.AtLeast(37) {
		minBound = 0
	}
	minReplicas, hasMin := meta.AsInt64(spec["minReplicas"])
	if hasMin && minReplicas < minBound {
		e.declarativeInvalid(r.AtLeast(37), "spec.minReplicas", minReplicas, fmt.Sprintf("must be greater than or equal to %d", minBound))
	}
	maxReplicas, _ := meta.AsInt64(spec["maxReplicas"])
	switch {
	case maxReplicas < 1 && !r.AtLeast(36):
		e.invalid("spec.maxReplicas", maxReplicas, "must be greater than 0")
	case maxReplicas == 0 && r.AtLeast(37):
		e.declarativeRequired("spec.maxReplicas")
	case maxReplicas == 0:
		e.list = append(e.list, meta.FieldError{Type: meta.ErrorRequired, Field: "spec.maxReplicas", Detail: "must be set and greater than 0"})
	case maxReplicas < 0:
		e.declarativeInvalid(r.AtLeast(37), "spec.maxReplicas", maxReplicas, "must be greater than or equal to 1")
	}
	if hasMin && maxReplicas < minReplicas {
		e.invalid("spec.maxReplicas", maxReplicas, "must be greater than or equal to `minReplicas`")
	}
	target := asMap(spec["scaleTargetRef"])
	e.crossVersionObjectReference("spec.scaleTargetRef", target)
	if r.AtLeast(34) { // kube 1.34 checks the target's apiVersion
		oldTarget := asMap(field(old, "spec", "scaleTargetRef"))
		unchanged := old != nil && oldTarget["apiVersion"] == target["apiVersion"] && oldTarget["kind"] == target["kind"]
		if !unchanged {
			e.apiVersionWithGroup("spec.scaleTargetRef.apiVersion", target["apiVersion"], target["kind"] == "ReplicationController")
		}
	}
	scalesToZero := false
	for i, m := range meta.AsList(spec["metrics"]) {
		metric := asMap(m)
		e.metricSpec(fmt.Sprintf("spec.metrics[%d]", i), metric)
		if t := metric["type"]; t == "Object" || t == "External" {
			scalesToZero = true
		}
	}
	if hasMin && minReplicas == 0 && !scalesToZero {
		e.forbidden("spec.metrics", "must specify at least one Object or External metric to support scaling to zero replicas")
	}
	if b, ok := spec["behavior"].(map[string]any); ok {
		e.scalingRules("spec.behavior.scaleUp", b["scaleUp"])
		e.scalingRules("spec.behavior.scaleDown", b["scaleDown"])
	}
	return e.all()
}

// validateHPAStatus is kube's ValidateHorizontalPodAutoscalerStatusUpdate.
func validateHPAStatus(o meta.Object) meta.FieldErrors {
	var e fieldErrs
	status := asMap(o["status"])
	n, _ := meta.AsInt64(status["currentReplicas"])
	e.nonNegative("status.currentReplicas", n)
	n, _ = meta.AsInt64(status["desiredReplicas"])
	e.nonNegative("status.desiredReplicas", n)
	return e.list
}

// apiVersionWithGroup is kube's ValidateAPIVersion of a reference's
// apiVersion: a group version, with a group unless emptyGroup.
func (e *fieldErrs) apiVersionWithGroup(path string, v any, emptyGroup bool) {
	s, _ := v.(string)
	group := ""
	switch strings.Count(s, "/") {
	case 0:
	case 1:
		group, _, _ = strings.Cut(s, "/")
	default:
		e.invalid(path, s, "unexpected GroupVersion string: "+s)
		return
	}
	if group == "" && !emptyGroup {
		e.invalid(path, s, "apiVersion must specify API group")
	}
}

// crossVersionObjectReference is kube's ValidateCrossVersionObjectReference:
// a kind and a name, each usable as a path segment.
func (e *fieldErrs) crossVersionObjectReference(path string, ref map[string]any) {
	for _, f := range []string{"kind", "name"} {
		s, _ := ref[f].(string)
		if s == "" {
			e.required(path + "." + f)
			continue
		}
		e.invalidAll(path+"."+f, s, pathSegmentErrors(s))
	}
}

// pathSegmentErrors is kube's IsValidPathSegmentName.
func pathSegmentErrors(s string) []string {
	if s == "." || s == ".." {
		return []string{fmt.Sprintf("may not be '%s'", s)}
	}
	var msgs []string
	for _, bad := range []string{"/", "%"} {
		if strings.Contains(s, bad) {
			msgs = append(msgs, fmt.Sprintf("may not contain '%s'", bad))
		}
	}
	return msgs
}

var metricSourceTypes = []string{"ContainerResource", "External", "Object", "Pods", "Resource"}

// metricSources are a metric's source fields in the order kube checks them.
var metricSources = []struct{ field, typ string }{
	{"object", "Object"}, {"external", "External"}, {"pods", "Pods"}, {"resource", "Resource"},
	{"containerResource", "ContainerResource"},
}

// metricSpec is kube's validateMetricSpec: a known type, its source (and
// only it), each source's own checks.
func (e *fieldErrs) metricSpec(path string, m map[string]any) {
	typ, _ := m["type"].(string)
	if typ == "" {
		e.list = append(e.list, meta.FieldError{Type: meta.ErrorRequired, Field: path + ".type", Detail: "must specify a metric source type"})
	}
	known := false
	for _, t := range metricSourceTypes {
		known = known || t == typ
	}
	if !known {
		e.notSupported(path+".type", typ, metricSourceTypes...)
	}
	var present []string
	for _, s := range metricSources {
		src, ok := m[s.field].(map[string]any)
		if !ok {
			continue
		}
		present = append(present, s.field)
		if len(present) > 1 {
			continue
		}
		p := path + "." + s.field
		switch s.field {
		case "object":
			e.objectMetricSource(p, src)
		case "external":
			e.externalMetricSource(p, src)
		case "pods":
			e.podsMetricSource(p, src)
		case "resource":
			e.resourceMetricSource(p, src, false)
		case "containerResource":
			e.resourceMetricSource(p, src, true)
		}
	}
	expected := ""
	for _, s := range metricSources {
		if s.typ == typ {
			expected = s.field
			if _, ok := m[s.field].(map[string]any); !ok {
				e.list = append(e.list, meta.FieldError{Type: meta.ErrorRequired, Field: path + "." + s.field,
					Detail: "must populate information for the given metric source"})
			}
		}
	}
	if !known { // kube says it twice: the message shows it once, the causes twice
		e.notSupported(path+".type", typ, metricSourceTypes...)
	}
	if len(present) != 1 {
		for _, f := range present {
			if f != expected {
				e.forbidden(path+"."+f, "must populate the given metric source only")
			}
		}
	}
}

func (e *fieldErrs) objectMetricSource(path string, src map[string]any) {
	e.crossVersionObjectReference(path+".describedObject", asMap(src["describedObject"]))
	e.metricIdentifier(path+".metric", asMap(src["metric"]))
	target := asMap(src["target"])
	e.metricTarget(path+".target", target)
	if target["value"] == nil && target["averageValue"] == nil {
		e.list = append(e.list, meta.FieldError{Type: meta.ErrorRequired, Field: path + ".target.averageValue",
			Detail: "must set either a target value or averageValue"})
	}
}

func (e *fieldErrs) externalMetricSource(path string, src map[string]any) {
	e.metricIdentifier(path+".metric", asMap(src["metric"]))
	target := asMap(src["target"])
	e.metricTarget(path+".target", target)
	if target["value"] == nil && target["averageValue"] == nil {
		e.list = append(e.list, meta.FieldError{Type: meta.ErrorRequired, Field: path + ".target.averageValue",
			Detail: "must set either a target value for metric or a per-pod target"})
	}
	if target["value"] != nil && target["averageValue"] != nil {
		e.forbidden(path+".target.value", "may not set both a target value for metric and a per-pod target")
	}
}

func (e *fieldErrs) podsMetricSource(path string, src map[string]any) {
	e.metricIdentifier(path+".metric", asMap(src["metric"]))
	target := asMap(src["target"])
	e.metricTarget(path+".target", target)
	if target["averageValue"] == nil {
		e.list = append(e.list, meta.FieldError{Type: meta.ErrorRequired, Field: path + ".target.averageValue",
			Detail: "must specify a positive target averageValue"})
	}
}

// resourceMetricSource is kube's validateResourceSource, or with container
// its validateContainerResourceSource.
func (e *fieldErrs) resourceMetricSource(path string, src map[string]any, container bool) {
	name, _ := src["name"].(string)
	if name == "" {
		e.list = append(e.list, meta.FieldError{Type: meta.ErrorRequired, Field: path + ".name", Detail: "must specify a resource name"})
	} else if container {
		e.hpaContainerResourceName(path+".name", name)
	}
	if container {
		c, _ := src["container"].(string)
		if c == "" {
			e.list = append(e.list, meta.FieldError{Type: meta.ErrorRequired, Field: path + ".container", Detail: "must specify a container"})
		} else {
			e.invalidAll(path+".container", c, schema.DNS1123Label(c))
		}
	}
	target := asMap(src["target"])
	e.metricTarget(path+".target", target)
	if target["averageUtilization"] == nil && target["averageValue"] == nil {
		e.list = append(e.list, meta.FieldError{Type: meta.ErrorRequired, Field: path + ".target.averageUtilization",
			Detail: "must set either a target raw value or a target utilization"})
	}
	if target["averageUtilization"] != nil && target["averageValue"] != nil {
		e.forbidden(path+".target.averageValue", "may not set both a target raw value and a target utilization")
	}
}

// hpaContainerResourceName is kube's ValidateContainerResourceName as the
// HPA's metrics reach it.
func (e *fieldErrs) hpaContainerResourceName(path, name string) {
	if msgs := selectors.QualifiedNameErrors(name); len(msgs) > 0 {
		e.invalidAll(path, name, msgs)
	}
	if !strings.Contains(name, "/") {
		if !standardContainerResources[name] && !strings.HasPrefix(name, "hugepages-") {
			e.invalid(path, plainName(name), "must be a standard resource for containers")
		}
		return
	}
	if !strings.Contains(name, "kubernetes.io/") && (strings.HasPrefix(name, "requests.") ||
		len(selectors.QualifiedNameErrors("requests."+name)) > 0) {
		e.invalid(path, plainName(name), "doesn't follow extended resource name standard")
	}
}

// metricTarget is kube's validateMetricTarget.
func (e *fieldErrs) metricTarget(path string, t map[string]any) {
	typ, _ := t["type"].(string)
	if typ == "" {
		e.list = append(e.list, meta.FieldError{Type: meta.ErrorRequired, Field: path + ".type", Detail: "must specify a metric target type"})
	}
	if typ != "Utilization" && typ != "Value" && typ != "AverageValue" {
		e.invalid(path+".type", typ, "must be either Utilization, Value, or AverageValue")
	}
	for _, f := range []string{"value", "averageValue"} {
		if q, ok := parseQuantity(t[f]); ok && q.Sign() != 1 {
			e.invalid(path+"."+f, quantityValue(q), "must be positive")
		}
	}
	if n, ok := meta.AsInt64(t["averageUtilization"]); ok && n < 1 {
		e.invalid(path+".averageUtilization", n, "must be greater than 0")
	}
}

// metricIdentifier is kube's validateMetricIdentifier.
func (e *fieldErrs) metricIdentifier(path string, id map[string]any) {
	name, _ := id["name"].(string)
	if name == "" {
		e.list = append(e.list, meta.FieldError{Type: meta.ErrorRequired, Field: path + ".name", Detail: "must specify a metric name"})
		return
	}
	e.invalidAll(path+".name", name, pathSegmentErrors(name))
}

// scalingRules is kube's validateScalingRules of a behavior's scaleUp or
// scaleDown (filled in by defaulting).
func (e *fieldErrs) scalingRules(path string, v any) {
	rules, ok := v.(map[string]any)
	if !ok {
		return
	}
	if n, ok := meta.AsInt64(rules["stabilizationWindowSeconds"]); ok {
		if n < 0 {
			e.invalid(path+".stabilizationWindowSeconds", n, "must be greater than or equal to zero")
		}
		if n > 3600 {
			e.invalid(path+".stabilizationWindowSeconds", n, "must be less than or equal to 3600")
		}
	}
	if p, ok := rules["selectPolicy"].(string); ok && p != "Max" && p != "Min" && p != "Disabled" {
		e.notSupported(path+".selectPolicy", p, "Disabled", "Max", "Min")
	}
	policies := meta.AsList(rules["policies"])
	if len(policies) == 0 {
		e.list = append(e.list, meta.FieldError{Type: meta.ErrorRequired, Field: path + ".policies", Detail: "must specify at least one Policy"})
	}
	for i, p := range policies {
		policy := asMap(p)
		pp := fmt.Sprintf("%s.policies[%d]", path, i)
		if t, _ := policy["type"].(string); t != "Pods" && t != "Percent" {
			e.notSupported(pp+".type", t, "Percent", "Pods")
		}
		if n, _ := meta.AsInt64(policy["value"]); n <= 0 {
			e.invalid(pp+".value", n, "must be greater than zero")
		}
		n, _ := meta.AsInt64(policy["periodSeconds"])
		if n <= 0 {
			e.invalid(pp+".periodSeconds", n, "must be greater than zero")
		}
		if n > 1800 {
			e.invalid(pp+".periodSeconds", n, "must be less than or equal to 1800")
		}
	}
}
