package builtin

import (
	"bytes"
	"encoding/json"
	"time"

	"github.com/kapi-dev/kapi/apiserver"
	"github.com/kapi-dev/kapi/meta"
)

// horizontalPodAutoscalerV1Resource is autoscaling/v1
// horizontalpodautoscalers: the stored autoscaling/v2 objects seen through
// the older version, converted as kube converts them (the CPU target as
// targetCPUUtilizationPercentage, everything v1 cannot say kept in
// annotations, so that a v1 client's update loses none of it).
func horizontalPodAutoscalerV1Resource() apiserver.Resource {
	return apiserver.Resource{Group: "autoscaling", Version: "v1", Kind: "HorizontalPodAutoscaler", Plural: "horizontalpodautoscalers",
		Namespaced: true, ShortNames: []string{"hpa"}, Categories: []string{"all"}, StatusSubresource: true,
		WithoutGeneration: true, PrinterColumns: hpaV1Columns, GenericDelete: true, Strategy: hpaV1Strategy{},
		Storage: &apiserver.Storage{Resource: meta.GroupResource{Group: "autoscaling", Resource: "horizontalpodautoscalers"},
			Kind:      meta.GroupVersionKind{Group: "autoscaling", Version: "v2", Kind: "HorizontalPodAutoscaler"},
			ToStorage: hpaV1ToV2, FromStorage: hpaV2ToV1}}
}

// hpaV1Strategy is what an autoscaling/v1 HorizontalPodAutoscaler does
// differently: v1's own defaults (the CPU default comes with conversion).
type hpaV1Strategy struct{ apiserver.GenericStrategy }

// Default mirrors autoscaling/v1's SetDefaults_HorizontalPodAutoscaler.
func (hpaV1Strategy) Default(o meta.Object) { setDefault(obj(o, "spec"), "minReplicas", int64(1)) }

// PrepareForCreate starts a new autoscaler with kube's empty status.
func (hpaV1Strategy) PrepareForCreate(_ *apiserver.Write, o meta.Object) {
	o["status"] = map[string]any{"currentReplicas": int64(0), "desiredReplicas": int64(0)}
}

// hpaV1Columns are the v2 columns over the v2 form of the object.
var hpaV1Columns = func() []apiserver.PrinterColumn {
	cols := make([]apiserver.PrinterColumn, len(hpaColumns))
	for i, c := range hpaColumns {
		cell := c.Cell
		c.Cell = func(o meta.Object, now time.Time) any { return cell(hpaV1ToV2(o), now) }
		cols[i] = c
	}
	return cols
}()

// The annotations a v1 view carries what only v2 can say in.
const (
	hpaMetricsAnnotation        = "autoscaling.alpha.kubernetes.io/metrics"
	hpaCurrentMetricsAnnotation = "autoscaling.alpha.kubernetes.io/current-metrics"
	hpaConditionsAnnotation     = "autoscaling.alpha.kubernetes.io/conditions"
	hpaBehaviorAnnotation       = "autoscaling.alpha.kubernetes.io/behavior"
	hpaToleranceAnnotation      = "autoscaling.alpha.kubernetes.io/scale-down-tolerance"
)

var hpaRoundTripAnnotations = []string{hpaMetricsAnnotation, hpaCurrentMetricsAnnotation, hpaConditionsAnnotation,
	hpaBehaviorAnnotation, hpaToleranceAnnotation}

// withoutRoundTrip returns metadata whose annotations lack the round-trip
// ones (a copy when it had any).
func withoutRoundTrip(md map[string]any) map[string]any {
	ann, _ := md["annotations"].(map[string]any)
	found := false
	for _, a := range hpaRoundTripAnnotations {
		if _, ok := ann[a]; ok {
			found = true
		}
	}
	if !found {
		return md
	}
	out := make(map[string]any, len(md))
	for k, v := range md {
		out[k] = v
	}
	kept := map[string]any{}
	for k, v := range ann {
		kept[k] = v
	}
	for _, a := range hpaRoundTripAnnotations {
		delete(kept, a)
	}
	out["annotations"] = kept
	return out
}

func annotate(md map[string]any, key string, v any) map[string]any {
	b, _ := json.Marshal(v)
	out := make(map[string]any, len(md)+1)
	for k, val := range md {
		out[k] = val
	}
	ann := map[string]any{}
	if old, ok := md["annotations"].(map[string]any); ok {
		for k, val := range old {
			ann[k] = val
		}
	}
	ann[key] = string(b)
	out["annotations"] = ann
	return out
}

// isCPUUtilization reports whether a v2 metric is the CPU utilization
// target v1 has a field for.
func isCPUUtilization(m map[string]any) bool {
	res, _ := m["resource"].(map[string]any)
	return m["type"] == "Resource" && res["name"] == "cpu" && field(res, "target", "averageUtilization") != nil
}

// hpaV2ToV1 converts a stored autoscaling/v2 autoscaler to autoscaling/v1.
func hpaV2ToV1(v2 meta.Object) meta.Object {
	md, _ := v2["metadata"].(map[string]any)
	md = withoutRoundTrip(md)
	spec, _ := v2["spec"].(map[string]any)
	status, _ := v2["status"].(map[string]any)
	outSpec := map[string]any{}
	copyFields(outSpec, spec, "minReplicas", "maxReplicas")
	outSpec["scaleTargetRef"] = spec["scaleTargetRef"]
	if outSpec["scaleTargetRef"] == nil {
		outSpec["scaleTargetRef"] = map[string]any{"kind": "", "name": ""}
	}
	setDefault(outSpec, "maxReplicas", int64(0))
	var other []any
	for _, m := range meta.AsList(spec["metrics"]) {
		mm, _ := m.(map[string]any)
		if isCPUUtilization(mm) {
			if _, done := outSpec["targetCPUUtilizationPercentage"]; !done {
				outSpec["targetCPUUtilizationPercentage"] = field(mm, "resource", "target", "averageUtilization")
			}
			continue
		}
		other = append(other, metricSpecV1(mm))
	}
	if len(other) > 0 {
		md = annotate(md, hpaMetricsAnnotation, other)
	}
	outStatus := map[string]any{"currentReplicas": int64(0), "desiredReplicas": int64(0)}
	copyFields(outStatus, status, "observedGeneration", "lastScaleTime", "currentReplicas", "desiredReplicas")
	var current []any
	for _, m := range meta.AsList(status["currentMetrics"]) {
		mm, _ := m.(map[string]any)
		current = append(current, metricStatusV1(mm))
		if mm["type"] == "Resource" && field(mm, "resource", "name") == "cpu" {
			if u := field(mm, "resource", "current", "averageUtilization"); u != nil {
				outStatus["currentCPUUtilizationPercentage"] = u
			}
		}
	}
	if len(current) > 0 {
		md = annotate(md, hpaCurrentMetricsAnnotation, current)
	}
	if b, ok := spec["behavior"].(map[string]any); ok {
		md = annotate(md, hpaBehaviorAnnotation, internalBehavior(b))
	}
	if conds := meta.AsList(status["conditions"]); len(conds) > 0 {
		var out []any
		for _, c := range conds {
			cm, _ := c.(map[string]any)
			out = append(out, ordered(cm, []string{"type", "status", "lastTransitionTime", "reason", "message"}, "type", "status"))
		}
		md = annotate(md, hpaConditionsAnnotation, out)
	}
	return meta.Object{"apiVersion": "autoscaling/v1", "kind": "HorizontalPodAutoscaler", "metadata": md,
		"spec": outSpec, "status": outStatus}
}

// hpaV1ToV2 converts an autoscaling/v1 autoscaler to autoscaling/v2, the
// stored version, reading back what the annotations kept.
func hpaV1ToV2(v1 meta.Object) meta.Object {
	md, _ := v1["metadata"].(map[string]any)
	ann, _ := md["annotations"].(map[string]any)
	spec, _ := v1["spec"].(map[string]any)
	status, _ := v1["status"].(map[string]any)
	outSpec := map[string]any{}
	copyFields(outSpec, spec, "scaleTargetRef", "minReplicas", "maxReplicas")
	var metrics []any
	if s, ok := ann[hpaMetricsAnnotation].(string); ok {
		var other []map[string]any
		if decodeInto(s, &other) {
			for _, m := range other {
				metrics = append(metrics, metricSpecV2(m))
			}
		}
	}
	if p, ok := spec["targetCPUUtilizationPercentage"]; ok && p != nil {
		metrics = append(metrics, cpuUtilizationMetric(p))
	}
	if len(metrics) == 0 {
		metrics = []any{cpuUtilizationMetric(int64(80))}
	}
	outSpec["metrics"] = metrics
	if s, ok := ann[hpaBehaviorAnnotation].(string); ok {
		var internal map[string]any
		if decodeInto(s, &internal) {
			if b := behaviorFromInternal(internal); len(b) > 0 {
				outSpec["behavior"] = b
			}
		}
	}
	outStatus := map[string]any{"currentMetrics": nil, "desiredReplicas": int64(0)}
	copyFields(outStatus, status, "observedGeneration", "lastScaleTime", "currentReplicas", "desiredReplicas")
	if n, _ := meta.AsInt64(outStatus["currentReplicas"]); n == 0 {
		delete(outStatus, "currentReplicas")
	}
	if p, ok := status["currentCPUUtilizationPercentage"]; ok && p != nil {
		outStatus["currentMetrics"] = []any{map[string]any{"type": "Resource", "resource": map[string]any{
			"name": "cpu", "current": map[string]any{"averageUtilization": p}}}}
	}
	if s, ok := ann[hpaCurrentMetricsAnnotation].(string); ok {
		var current []map[string]any
		if decodeInto(s, &current) {
			list := make([]any, len(current))
			for i, m := range current {
				list[i] = metricStatusV2(m)
			}
			outStatus["currentMetrics"] = list
		}
	}
	if s, ok := ann[hpaConditionsAnnotation].(string); ok {
		var conds []any
		if decodeInto(s, &conds) {
			outStatus["conditions"] = conds
		}
	}
	out := meta.Object{"apiVersion": "autoscaling/v2", "kind": "HorizontalPodAutoscaler", "metadata": withoutRoundTrip(md),
		"spec": outSpec, "status": outStatus}
	defaultHPAv2(out)
	return out
}

func copyFields(dst, src map[string]any, fields ...string) {
	for _, f := range fields {
		if v, ok := src[f]; ok {
			dst[f] = v
		}
	}
}

// decodeInto reads an annotation's JSON as kube does: silently nothing
// when it does not parse.
func decodeInto(s string, v any) bool {
	d := json.NewDecoder(bytes.NewReader([]byte(s)))
	d.UseNumber()
	if d.Decode(v) != nil {
		return false
	}
	normaliseNumbers(v)
	return true
}

// normaliseNumbers turns json.Numbers into int64 (or float64), as kapi's
// objects hold numbers.
func normaliseNumbers(v any) any {
	switch x := v.(type) {
	case *[]map[string]any:
		for _, m := range *x {
			normaliseNumbers(m)
		}
	case *[]any:
		normaliseNumbers(*x)
	case *map[string]any:
		normaliseNumbers(*x)
	case map[string]any:
		for k, e := range x {
			x[k] = normaliseNumbers(e)
		}
	case []any:
		for i, e := range x {
			x[i] = normaliseNumbers(e)
		}
	case json.Number:
		if n, err := x.Int64(); err == nil {
			return n
		}
		f, _ := x.Float64()
		return f
	}
	return v
}

// orderedJSON is an object whose keys marshal in a given order, as Go
// structs marshal: the annotations hold kube's bytes exactly.
type orderedJSON []kv

type kv struct {
	k string
	v any
}

func (o orderedJSON) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	b.WriteByte('{')
	for i, e := range o {
		if i > 0 {
			b.WriteByte(',')
		}
		k, _ := json.Marshal(e.k)
		v, err := json.Marshal(e.v)
		if err != nil {
			return nil, err
		}
		b.Write(k)
		b.WriteByte(':')
		b.Write(v)
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

// ordered picks m's keys in order; those in always are written even when
// unset (as "", or the zero quantity for quantities), the others only when
// set.
func ordered(m map[string]any, keys []string, always ...string) orderedJSON {
	var out orderedJSON
	for _, k := range keys {
		v, ok := m[k]
		if !ok || v == nil {
			isAlways := false
			for _, a := range always {
				isAlways = isAlways || a == k
			}
			if !isAlways {
				continue
			}
			if v == nil {
				v = ""
			}
		}
		out = append(out, kv{k, v})
	}
	return out
}

// quantityOrZero is a non-pointer Quantity of the v1 types: "0" unset.
func quantityOrZero(v any) any {
	if v == nil {
		return "0"
	}
	return v
}

func sub(m map[string]any, key string) map[string]any {
	s, _ := m[key].(map[string]any)
	return s
}

// metricSpecV1 converts a v2 MetricSpec to autoscaling/v1's (for the
// metrics annotation).
func metricSpecV1(m map[string]any) orderedJSON {
	typ, _ := m["type"].(string)
	out := orderedJSON{{"type", typ}}
	switch typ {
	case "Object":
		s := sub(m, "object")
		target, metric := sub(s, "target"), sub(s, "metric")
		d := sub(s, "describedObject")
		out = append(out, kv{"object", ordered(map[string]any{
			"target":     ordered(d, []string{"kind", "name", "apiVersion"}, "kind", "name"),
			"metricName": metric["name"], "targetValue": quantityOrZero(target["value"]),
			"selector": metric["selector"], "averageValue": target["averageValue"],
		}, []string{"target", "metricName", "targetValue", "selector", "averageValue"}, "target", "metricName", "targetValue")})
	case "Pods":
		s := sub(m, "pods")
		target, metric := sub(s, "target"), sub(s, "metric")
		out = append(out, kv{"pods", ordered(map[string]any{
			"metricName": metric["name"], "targetAverageValue": quantityOrZero(target["averageValue"]), "selector": metric["selector"],
		}, []string{"metricName", "targetAverageValue", "selector"}, "metricName", "targetAverageValue")})
	case "Resource", "ContainerResource":
		key := "resource"
		if typ == "ContainerResource" {
			key = "containerResource"
		}
		s := sub(m, key)
		target := sub(s, "target")
		out = append(out, kv{key, ordered(map[string]any{
			"name": s["name"], "targetAverageUtilization": target["averageUtilization"],
			"targetAverageValue": target["averageValue"], "container": s["container"],
		}, []string{"name", "targetAverageUtilization", "targetAverageValue", "container"}, append([]string{"name"},
			map[bool][]string{true: {"container"}}[typ == "ContainerResource"]...)...)})
	case "External":
		s := sub(m, "external")
		target, metric := sub(s, "target"), sub(s, "metric")
		out = append(out, kv{"external", ordered(map[string]any{
			"metricName": metric["name"], "metricSelector": metric["selector"],
			"targetValue": target["value"], "targetAverageValue": target["averageValue"],
		}, []string{"metricName", "metricSelector", "targetValue", "targetAverageValue"}, "metricName")})
	}
	return out
}

// metricIdentifier is a v2 MetricIdentifier: the metric's name and, when
// set, its selector.
func metricIdentifier(name, selector any) map[string]any {
	id := map[string]any{"name": name}
	if selector != nil {
		id["selector"] = selector
	}
	return id
}

// metricSpecV2 converts an autoscaling/v1 MetricSpec (from the metrics
// annotation) to v2.
func metricSpecV2(m map[string]any) map[string]any {
	typ, _ := m["type"].(string)
	out := map[string]any{"type": typ}
	switch typ {
	case "Object":
		s := sub(m, "object")
		target := map[string]any{"type": "Value", "value": s["targetValue"]}
		if s["averageValue"] != nil {
			target["type"], target["averageValue"] = "AverageValue", s["averageValue"]
		}
		out["object"] = map[string]any{"describedObject": s["target"], "target": target,
			"metric": metricIdentifier(s["metricName"], s["selector"])}
	case "Pods":
		s := sub(m, "pods")
		out["pods"] = map[string]any{"target": map[string]any{"type": "AverageValue", "averageValue": s["targetAverageValue"]},
			"metric": metricIdentifier(s["metricName"], s["selector"])}
	case "Resource", "ContainerResource":
		key := "resource"
		if typ == "ContainerResource" {
			key = "containerResource"
		}
		s := sub(m, key)
		target := map[string]any{"type": "AverageValue"}
		if u := s["targetAverageUtilization"]; u != nil {
			target["type"], target["averageUtilization"] = "Utilization", u
		}
		if v := s["targetAverageValue"]; v != nil {
			target["averageValue"] = v
		}
		r := map[string]any{"name": s["name"], "target": target}
		if c := s["container"]; c != nil {
			r["container"] = c
		}
		out[key] = r
	case "External":
		s := sub(m, "external")
		target := map[string]any{"type": "AverageValue"}
		if v := s["targetValue"]; v != nil {
			target["type"], target["value"] = "Value", v
		}
		if v := s["targetAverageValue"]; v != nil {
			target["averageValue"] = v
		}
		out["external"] = map[string]any{"target": target, "metric": metricIdentifier(s["metricName"], s["metricSelector"])}
	}
	return out
}

// metricStatusV1 converts a v2 MetricStatus to autoscaling/v1's (for the
// current-metrics annotation).
func metricStatusV1(m map[string]any) orderedJSON {
	typ, _ := m["type"].(string)
	out := orderedJSON{{"type", typ}}
	switch typ {
	case "Object":
		s := sub(m, "object")
		current, metric := sub(s, "current"), sub(s, "metric")
		out = append(out, kv{"object", ordered(map[string]any{
			"target":     ordered(sub(s, "describedObject"), []string{"kind", "name", "apiVersion"}, "kind", "name"),
			"metricName": metric["name"], "currentValue": quantityOrZero(current["value"]), "selector": metric["selector"],
			"averageValue": current["averageValue"],
		}, []string{"target", "metricName", "currentValue", "selector", "averageValue"}, "target", "metricName", "currentValue")})
	case "Pods":
		s := sub(m, "pods")
		current, metric := sub(s, "current"), sub(s, "metric")
		out = append(out, kv{"pods", ordered(map[string]any{
			"metricName": metric["name"], "currentAverageValue": quantityOrZero(current["averageValue"]), "selector": metric["selector"],
		}, []string{"metricName", "currentAverageValue", "selector"}, "metricName", "currentAverageValue")})
	case "Resource", "ContainerResource":
		key := "resource"
		if typ == "ContainerResource" {
			key = "containerResource"
		}
		s := sub(m, key)
		current := sub(s, "current")
		always := []string{"name", "currentAverageValue"}
		if typ == "ContainerResource" {
			always = append(always, "container")
		}
		out = append(out, kv{key, ordered(map[string]any{
			"name": s["name"], "currentAverageUtilization": current["averageUtilization"],
			"currentAverageValue": quantityOrZero(current["averageValue"]), "container": s["container"],
		}, []string{"name", "currentAverageUtilization", "currentAverageValue", "container"}, always...)})
	case "External":
		s := sub(m, "external")
		current, metric := sub(s, "current"), sub(s, "metric")
		out = append(out, kv{"external", ordered(map[string]any{
			"metricName": metric["name"], "metricSelector": metric["selector"],
			"currentValue": quantityOrZero(current["value"]), "currentAverageValue": current["averageValue"],
		}, []string{"metricName", "metricSelector", "currentValue", "currentAverageValue"}, "metricName", "currentValue")})
	}
	return out
}

// metricStatusV2 converts an autoscaling/v1 MetricStatus (from the
// current-metrics annotation) to v2.
func metricStatusV2(m map[string]any) map[string]any {
	typ, _ := m["type"].(string)
	out := map[string]any{"type": typ}
	switch typ {
	case "Object":
		s := sub(m, "object")
		current := map[string]any{"value": s["currentValue"]}
		if s["averageValue"] != nil {
			current["averageValue"] = s["averageValue"]
		}
		out["object"] = map[string]any{"describedObject": s["target"], "current": current,
			"metric": metricIdentifier(s["metricName"], s["selector"])}
	case "Pods":
		s := sub(m, "pods")
		out["pods"] = map[string]any{"current": map[string]any{"averageValue": s["currentAverageValue"]},
			"metric": metricIdentifier(s["metricName"], s["selector"])}
	case "Resource", "ContainerResource":
		key := "resource"
		if typ == "ContainerResource" {
			key = "containerResource"
		}
		s := sub(m, key)
		current := map[string]any{"averageValue": s["currentAverageValue"]}
		if u := s["currentAverageUtilization"]; u != nil {
			current["averageUtilization"] = u
		}
		r := map[string]any{"name": s["name"], "current": current}
		if c := s["container"]; c != nil {
			r["container"] = c
		}
		out[key] = r
	case "External":
		s := sub(m, "external")
		current := map[string]any{"value": s["currentValue"]}
		if v := s["currentAverageValue"]; v != nil {
			current["averageValue"] = v
		}
		out["external"] = map[string]any{"current": current, "metric": metricIdentifier(s["metricName"], s["metricSelector"])}
	}
	return out
}

// internalBehavior is a v2 behavior as kube's internal type marshals it
// into the behavior annotation: Go field names, every field present.
func internalBehavior(b map[string]any) orderedJSON {
	rules := func(v any) any {
		r, ok := v.(map[string]any)
		if !ok {
			return nil
		}
		var policies []any
		for _, p := range meta.AsList(r["policies"]) {
			pm, _ := p.(map[string]any)
			policies = append(policies, orderedJSON{{"Type", pm["type"]}, {"Value", pm["value"]}, {"PeriodSeconds", pm["periodSeconds"]}})
		}
		return orderedJSON{{"StabilizationWindowSeconds", r["stabilizationWindowSeconds"]}, {"SelectPolicy", r["selectPolicy"]},
			{"Policies", policies}, {"Tolerance", r["tolerance"]}}
	}
	return orderedJSON{{"ScaleUp", rules(b["scaleUp"])}, {"ScaleDown", rules(b["scaleDown"])}}
}

// behaviorFromInternal reads the behavior annotation back into a v2
// behavior; empty when it says nothing.
func behaviorFromInternal(in map[string]any) map[string]any {
	rules := func(v any) map[string]any {
		r, ok := v.(map[string]any)
		if !ok {
			return nil
		}
		out := map[string]any{}
		if w := r["StabilizationWindowSeconds"]; w != nil {
			out["stabilizationWindowSeconds"] = w
		}
		if p := r["SelectPolicy"]; p != nil {
			out["selectPolicy"] = p
		}
		if ps, ok := r["Policies"].([]any); ok {
			var policies []any
			for _, p := range ps {
				pm, _ := p.(map[string]any)
				policies = append(policies, map[string]any{"type": pm["Type"], "value": pm["Value"], "periodSeconds": pm["PeriodSeconds"]})
			}
			out["policies"] = policies
		}
		if t := r["Tolerance"]; t != nil {
			out["tolerance"] = t
		}
		return out
	}
	out := map[string]any{}
	if r := rules(in["ScaleUp"]); r != nil {
		out["scaleUp"] = r
	}
	if r := rules(in["ScaleDown"]); r != nil {
		out["scaleDown"] = r
	}
	return out
}
