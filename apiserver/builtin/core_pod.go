package builtin

import (
	"fmt"
	"time"

	"github.com/kapi-dev/kapi/apiserver"
	"github.com/kapi-dev/kapi/meta"
)

// podResource is core/v1 pods.
func podResource() apiserver.Resource {
	return apiserver.Resource{Version: "v1", Kind: "Pod", Plural: "pods", Namespaced: true, ShortNames: []string{"po"},
		Categories: []string{"all"}, StatusSubresource: true, ReturnDeletedObject: true, PrinterColumns: podColumns,
		SelectableFields: []string{"spec.nodeName", "spec.restartPolicy", "spec.schedulerName",
			"spec.serviceAccountName", "spec.hostNetwork", "status.phase", "status.podIP", "status.nominatedNodeName"},
		IndexedFields: []string{"spec.nodeName"}, Strategy: podStrategy{}}
}

// podStrategy is what a Pod does differently.
type podStrategy struct{ apiserver.GenericStrategy }

// Default mirrors SetDefaults_Pod: the pod spec defaults and service links.
func (podStrategy) Default(o meta.Object) {
	spec := obj(o, "spec")
	defaultPodSpec(spec)
	setDefault(spec, "enableServiceLinks", true)
}

// PrepareForCreate gives a new pod what kube's default admission plugins
// and pod strategy give it: priority 0, the not-ready and unreachable
// tolerations, and a Pending status with its QoS class.
func (podStrategy) PrepareForCreate(_ *apiserver.Write, o meta.Object) {
	spec := obj(o, "spec")
	setDefault(spec, "priority", int64(0))
	setDefault(spec, "preemptionPolicy", "PreemptLowerPriority")
	tolerations := asList(spec["tolerations"])
	for _, key := range []string{"node.kubernetes.io/not-ready", "node.kubernetes.io/unreachable"} {
		if !hasToleration(tolerations, key) {
			tolerations = append(tolerations, map[string]any{"key": key, "operator": "Exists",
				"effect": "NoExecute", "tolerationSeconds": int64(300)})
		}
	}
	spec["tolerations"] = tolerations
	status := obj(o, "status")
	setDefault(status, "phase", "Pending")
	setDefault(status, "qosClass", qosClass(spec))
}

// PrepareForUpdate: a write to /status keeps the stored spec and
// ownerReferences (kube's pod status strategy), the rest as generic.
func (podStrategy) PrepareForUpdate(w *apiserver.Write, o, old meta.Object) meta.Object {
	o = apiserver.PrepareStatusUpdate(w, o, old)
	if w.Subresource == "status" {
		keepMetadata(o, old, "ownerReferences")
	}
	return o
}

func hasToleration(list []any, key string) bool {
	for _, t := range list {
		if m, ok := t.(map[string]any); ok && (m["key"] == key || (m["key"] == nil && m["operator"] == "Exists")) {
			return true
		}
	}
	return false
}

// qosClass is BestEffort without any requests or limits, Guaranteed when
// every container's requests equal its limits, Burstable otherwise.
func qosClass(spec map[string]any) string {
	hasResources, guaranteed := false, true
	for _, c := range asList(spec["containers"]) {
		res, _ := meta.NestedField(c.(map[string]any), "resources")
		r, _ := res.(map[string]any)
		req, _ := r["requests"].(map[string]any)
		lim, _ := r["limits"].(map[string]any)
		if len(req) > 0 || len(lim) > 0 {
			hasResources = true
		}
		for _, k := range []string{"cpu", "memory"} {
			if lim[k] == nil || (req[k] != nil && req[k] != lim[k]) {
				guaranteed = false
			}
		}
	}
	switch {
	case !hasResources:
		return "BestEffort"
	case guaranteed:
		return "Guaranteed"
	}
	return "Burstable"
}

var podColumns = []apiserver.PrinterColumn{
	column("Ready", "string", "The aggregate readiness state of this pod for accepting traffic.", 0, func(o meta.Object, _ time.Time) any {
		total := count(field(o, "spec", "containers"))
		ready := int64(0)
		for _, cs := range asList(field(o, "status", "containerStatuses")) {
			if m, ok := cs.(map[string]any); ok && m["ready"] == true {
				ready++
			}
		}
		return fmt.Sprintf("%d/%d", ready, total)
	}),
	column("Status", "string", "The aggregate status of the containers in this pod.", 0, func(o meta.Object, _ time.Time) any {
		return podStatus(o)
	}),
	column("Restarts", "string", "The number of times the containers in this pod have been restarted and when the last container in this pod has restarted.", 0,
		func(o meta.Object, _ time.Time) any {
			var restarts int64
			for _, cs := range asList(field(o, "status", "containerStatuses")) {
				if m, ok := cs.(map[string]any); ok {
					n, _ := meta.AsInt64(m["restartCount"])
					restarts += n
				}
			}
			return fmt.Sprint(restarts)
		}),
	apiserver.AgeColumn(),
	column("IP", "string", "IP address allocated to the pod. Routable at least within the cluster. Empty if not yet allocated.", 1,
		func(o meta.Object, _ time.Time) any { return orNone(str(o, "status", "podIP")) }),
	column("Node", "string", "Specifies the node this pod is bound to.", 1,
		func(o meta.Object, _ time.Time) any { return orNone(str(o, "spec", "nodeName")) }),
	column("Nominated Node", "string", "nominatedNodeName is set when this pod preempts other pods on the node, but it cannot be scheduled right away as preemption victims receive their graceful termination periods. This field does not guarantee that the pod will be scheduled on this node. Scheduler may decide to place the pod elsewhere if other nodes become available sooner. Scheduler may also decide to give the resources on this node to a higher priority pod that is created after preemption. As a result, this field may be different than PodSpec.nodeName when the pod is scheduled.", 1,
		func(o meta.Object, _ time.Time) any { return orNone(str(o, "status", "nominatedNodeName")) }),
	column("Readiness Gates", "string", "If specified, all readiness gates will be evaluated for pod readiness. A pod is ready when all its containers are ready AND all conditions specified in the readiness gates have status equal to \"True\" More info: https://git.k8s.io/enhancements/keps/sig-network/580-pod-readiness-gates", 1,
		func(o meta.Object, _ time.Time) any {
			gates := asList(field(o, "spec", "readinessGates"))
			if len(gates) == 0 {
				return "<none>"
			}
			return fmt.Sprintf("0/%d", len(gates))
		}),
}

// podStatus is the STATUS column: a waiting or terminated container's
// reason, else the pod's reason or phase, "Terminating" once deleted.
func podStatus(o meta.Object) string {
	reason := str(o, "status", "phase")
	if r := str(o, "status", "reason"); r != "" {
		reason = r
	}
	for _, cs := range asList(field(o, "status", "containerStatuses")) {
		m, _ := cs.(map[string]any)
		if w, ok := meta.NestedField(m, "state", "waiting", "reason"); ok && w != "" {
			reason, _ = w.(string)
		} else if t, ok := meta.NestedField(m, "state", "terminated", "reason"); ok && t != "" {
			reason, _ = t.(string)
		}
	}
	if o.DeletionTimestamp() != "" {
		return "Terminating"
	}
	if reason == "" {
		return "Pending"
	}
	return reason
}
