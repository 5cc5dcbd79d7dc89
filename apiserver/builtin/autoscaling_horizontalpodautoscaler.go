package builtin

import (
	"fmt"
	"strings"
	"time"

	"github.com/kapi-dev/kapi/apiserver"
	"github.com/kapi-dev/kapi/meta"
)

// horizontalPodAutoscalerResource is autoscaling/v2
// horizontalpodautoscalers, the version kube stores (autoscaling/v1 is a
// view of the same objects: horizontalPodAutoscalerV1Resource).
func horizontalPodAutoscalerResource() apiserver.Resource {
	return apiserver.Resource{Group: "autoscaling", Version: "v2", Kind: "HorizontalPodAutoscaler", Plural: "horizontalpodautoscalers",
		Namespaced: true, ShortNames: []string{"hpa"}, Categories: []string{"all"}, StatusSubresource: true,
		WithoutGeneration: true, PrinterColumns: hpaColumns, GenericDelete: true, Strategy: hpaStrategy{}}
}

// hpaStrategy is what a HorizontalPodAutoscaler does differently.
type hpaStrategy struct{ apiserver.GenericStrategy }

// Default mirrors SetDefaults_HorizontalPodAutoscaler of autoscaling/v2:
// one replica at least, 80% CPU when no metric is named, and a behavior
// with both scaling rules filled in when it has one.
func (hpaStrategy) Default(o meta.Object) { defaultHPAv2(o) }

// PrepareForCreate starts a new autoscaler with kube's empty status.
func (hpaStrategy) PrepareForCreate(_ *apiserver.Write, o meta.Object) {
	o["status"] = map[string]any{"currentMetrics": nil, "desiredReplicas": int64(0)}
}

func defaultHPAv2(o meta.Object) {
	spec := obj(o, "spec")
	setDefault(spec, "minReplicas", int64(1))
	if len(meta.AsList(spec["metrics"])) == 0 {
		spec["metrics"] = []any{cpuUtilizationMetric(80)}
	}
	if b, ok := spec["behavior"].(map[string]any); ok {
		b["scaleUp"] = scalingRules(b["scaleUp"], int64(0), []any{
			map[string]any{"type": "Pods", "value": int64(4), "periodSeconds": int64(15)},
			map[string]any{"type": "Percent", "value": int64(100), "periodSeconds": int64(15)},
		})
		b["scaleDown"] = scalingRules(b["scaleDown"], nil, []any{
			map[string]any{"type": "Percent", "value": int64(100), "periodSeconds": int64(15)},
		})
	}
}

func cpuUtilizationMetric(percent any) map[string]any {
	return map[string]any{"type": "Resource", "resource": map[string]any{"name": "cpu",
		"target": map[string]any{"type": "Utilization", "averageUtilization": percent}}}
}

// scalingRules fills what a behavior's rules leave unset with kube's
// defaults: the stabilization window (none when window is nil), the Max
// policy selection and the policies.
func scalingRules(v any, window any, policies []any) map[string]any {
	rules, _ := v.(map[string]any)
	if rules == nil {
		rules = map[string]any{}
	}
	if window != nil {
		setDefault(rules, "stabilizationWindowSeconds", window)
	}
	setDefault(rules, "selectPolicy", "Max")
	setDefault(rules, "policies", policies)
	return rules
}

var hpaColumns = []apiserver.PrinterColumn{
	column("Reference", "string", propertyDoc("io.k8s.api.autoscaling.v2.HorizontalPodAutoscalerSpec", "scaleTargetRef"), 0,
		func(o meta.Object, _ time.Time) any {
			return str(o, "spec", "scaleTargetRef", "kind") + "/" + str(o, "spec", "scaleTargetRef", "name")
		}),
	column("Targets", "string", sinceRelease(36, "metrics contains the specifications for which to use to calculate the desired replica count (the maximum replica count across all metrics will be used).  The desired replica count is calculated multiplying the ratio between the target value and the current value by the current number of pods.  Ergo, metrics used must decrease as the pod count is increased, and vice-versa.  See the individual metric source types for more information about how each type of metric must respond.",
		propertyDoc("io.k8s.api.autoscaling.v2.HorizontalPodAutoscalerSpec", "metrics")), 0,
		func(o meta.Object, _ time.Time) any {
			return hpaMetrics(meta.AsList(field(o, "spec", "metrics")), meta.AsList(field(o, "status", "currentMetrics")))
		}),
	column("MinPods", "string", propertyDoc("io.k8s.api.autoscaling.v2.HorizontalPodAutoscalerSpec", "minReplicas"), 0,
		func(o meta.Object, _ time.Time) any {
			if n, ok := meta.AsInt64(field(o, "spec", "minReplicas")); ok {
				return fmt.Sprint(n)
			}
			return "<unset>"
		}),
	column("MaxPods", "string", propertyDoc("io.k8s.api.autoscaling.v2.HorizontalPodAutoscalerSpec", "maxReplicas"), 0,
		func(o meta.Object, _ time.Time) any { return integer(o, "spec", "maxReplicas") }),
	column("Replicas", "string", propertyDoc("io.k8s.api.autoscaling.v2.HorizontalPodAutoscalerStatus", "currentReplicas"), 0,
		func(o meta.Object, _ time.Time) any { return integer(o, "status", "currentReplicas") }),
	apiserver.AgeColumn(),
}

// hpaMetrics is the Targets cell: each metric as current/target, two at
// most, as kube prints them.
func hpaMetrics(specs, statuses []any) string {
	if len(specs) == 0 {
		return "<none>"
	}
	status := func(i int, kind string) map[string]any {
		if i < len(statuses) {
			s, _ := statuses[i].(map[string]any)
			m, _ := s[kind].(map[string]any)
			return m
		}
		return nil
	}
	quantity := func(m map[string]any, path ...string) (string, bool) {
		v, ok := meta.NestedField(m, path...)
		if !ok || v == nil {
			return "", false
		}
		return intOrString(v), true
	}
	var list []string
	for i, s := range specs {
		spec, _ := s.(map[string]any)
		typ, _ := spec["type"].(string)
		current := "<unknown>"
		switch typ {
		case "External", "Object":
			src, _ := spec[strings.ToLower(typ[:1])+typ[1:]].(map[string]any)
			st := status(i, strings.ToLower(typ[:1])+typ[1:])
			if avg, ok := quantity(src, "target", "averageValue"); ok {
				if c, ok := quantity(st, "current", "averageValue"); ok {
					current = c
				}
				list = append(list, fmt.Sprintf("%s/%s (avg)", current, avg))
			} else {
				if c, ok := quantity(st, "current", "value"); ok && st != nil {
					current = c
				}
				v, _ := quantity(src, "target", "value")
				list = append(list, fmt.Sprintf("%s/%s", current, v))
			}
		case "Pods":
			src, _ := spec["pods"].(map[string]any)
			if c, ok := quantity(status(i, "pods"), "current", "averageValue"); ok {
				current = c
			}
			v, _ := quantity(src, "target", "averageValue")
			list = append(list, fmt.Sprintf("%s/%s", current, v))
		case "Resource", "ContainerResource":
			key := strings.ToLower(typ[:1]) + typ[1:]
			src, _ := spec[key].(map[string]any)
			name, _ := src["name"].(string)
			st := status(i, key)
			if avg, ok := quantity(src, "target", "averageValue"); ok {
				if c, ok := quantity(st, "current", "averageValue"); ok {
					current = c
				}
				list = append(list, fmt.Sprintf("%s: %s/%s", name, current, avg))
			} else {
				if c, ok := meta.AsInt64(field(st, "current", "averageUtilization")); ok {
					current = fmt.Sprintf("%d%%", c)
				}
				target := "<auto>"
				if t, ok := meta.AsInt64(field(src, "target", "averageUtilization")); ok {
					target = fmt.Sprintf("%d%%", t)
				}
				list = append(list, fmt.Sprintf("%s: %s/%s", name, current, target))
			}
		default:
			list = append(list, "<unknown type>")
		}
	}
	if len(list) > 2 {
		return fmt.Sprintf("%s + %d more...", strings.Join(list[:2], ", "), len(list)-2)
	}
	return strings.Join(list, ", ")
}
