package builtin

import (
	"fmt"
	"strings"
	"time"

	"github.com/kapi-dev/kapi/apiserver"
	"github.com/kapi-dev/kapi/meta"
)

// podResource is core/v1 pods.
func podResource() apiserver.Resource {
	return apiserver.Resource{Version: "v1", Kind: "Pod", Plural: "pods", Namespaced: true, ShortNames: []string{"po"},
		Categories: []string{"all"}, StatusSubresource: true, ReturnDeletedObject: true, PrinterColumns: podColumns,
		SelectableFields: []string{"spec.nodeName", "spec.restartPolicy", "spec.schedulerName",
			"spec.serviceAccountName", "spec.hostNetwork", "status.phase", "status.podIP", "status.podIPs", "status.nominatedNodeName"},
		IndexedFields: []string{"spec.nodeName"}, FieldValues: podFieldValues, Strategy: podStrategy{},
		ResetFields: map[string][]string{"": {"status"},
			"status": {"metadata.deletionTimestamp", "metadata.ownerReferences", "spec"}}}
}

// podFieldValues are kube's field labels of a Pod: hostNetwork "false"
// when unset, podIP the first of status.podIPs.
func podFieldValues(o meta.Object) map[string]string {
	f := map[string]string{}
	for _, p := range []string{"spec.nodeName", "spec.restartPolicy", "spec.schedulerName", "spec.serviceAccountName",
		"status.phase", "status.nominatedNodeName"} {
		v, _ := field(o, strings.Split(p, ".")...).(string)
		f[p] = v
	}
	f["spec.hostNetwork"] = fmt.Sprint(flag(field(o, "spec", "hostNetwork"), false))
	f["status.podIP"] = podIP(o)
	return f
}

// podStrategy is what a Pod does differently.
type podStrategy struct {
	apiserver.GenericStrategy
	// release is the kube release whose validation applies (empty: the
	// default); ResourcesFor sets it.
	release apiserver.Release
}

// Default mirrors SetDefaults_Pod: the pod spec defaults and service links.
func (podStrategy) Default(o meta.Object) {
	spec := obj(o, "spec")
	defaultPodSpec(spec)
	setDefault(spec, "enableServiceLinks", true)
	for _, key := range []string{"containers", "initContainers"} {
		for _, c := range meta.AsList(spec[key]) {
			cm, _ := c.(map[string]any)
			// Requests default to limits (for pods only, not templates).
			if limits, ok := field(cm, "resources", "limits").(map[string]any); ok {
				res := obj(cm, "resources")
				requests := obj(res, "requests")
				for k, v := range limits {
					setDefault(requests, k, v)
				}
			}
			// With the host's network every container port is a host port.
			if flag(spec["hostNetwork"], false) {
				for _, p := range meta.AsList(cm["ports"]) {
					pm, _ := p.(map[string]any)
					if n, _ := meta.AsInt64(pm["hostPort"]); n == 0 && pm != nil {
						pm["hostPort"] = pm["containerPort"]
					}
				}
			}
		}
	}
	if status, ok := o["status"].(map[string]any); ok {
		singleAndPlural(status, "podIP", "podIPs", "ip")
		singleAndPlural(status, "hostIP", "hostIPs", "ip")
	}
}

// PrepareForCreate gives a new pod what kube's default admission plugins
// and pod strategy give it: priority 0, the not-ready and unreachable
// tolerations, and a Pending status with its QoS class.
func (podStrategy) PrepareForCreate(_ *apiserver.Write, o meta.Object) {
	spec := obj(o, "spec")
	dropDisabledPodFields(spec, nil)
	setDefault(spec, "priority", int64(0))
	setDefault(spec, "preemptionPolicy", "PreemptLowerPriority")
	addDefaultTolerations(spec)
	status := obj(o, "status")
	setDefault(status, "phase", "Pending")
	setDefault(status, "qosClass", qosClass(spec))
}

// PrepareForUpdate: a write to /status keeps the stored spec and
// ownerReferences (kube's pod status strategy), the rest as generic.
func (podStrategy) PrepareForUpdate(w *apiserver.Write, o, old meta.Object) meta.Object {
	switch w.Subresource {
	case "ephemeralcontainers":
		return prepareEphemeralContainersUpdate(o, old)
	case "resize":
		return prepareResizeUpdate(o, old)
	}
	o = apiserver.PrepareStatusUpdate(w, o, old)
	if w.Subresource == "" {
		dropDisabledPodFields(obj(o, "spec"), asMap(old["spec"]))
		addDefaultTolerations(obj(o, "spec")) // kube's DefaultTolerationSeconds admits updates too
	}
	if w.Subresource == "status" {
		keepMetadata(o, old, "ownerReferences")
	}
	return o
}

// addDefaultTolerations gives a pod the not-ready and unreachable
// tolerations kube's DefaultTolerationSeconds admission plugin gives it.
func addDefaultTolerations(spec map[string]any) {
	tolerations := meta.AsList(spec["tolerations"])
	for _, key := range []string{"node.kubernetes.io/not-ready", "node.kubernetes.io/unreachable"} {
		if !hasToleration(tolerations, key) {
			tolerations = append(tolerations, map[string]any{"key": key, "operator": "Exists",
				"effect": "NoExecute", "tolerationSeconds": int64(300)})
		}
	}
	spec["tolerations"] = tolerations
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
	for _, c := range meta.AsList(spec["containers"]) {
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
	column("Ready", "string", "The aggregate readiness state of this pod for accepting traffic.", 0,
		func(o meta.Object, now time.Time) any { return podRow(o, now).ready }),
	column("Status", "string", "The aggregate status of the containers in this pod.", 0,
		func(o meta.Object, now time.Time) any { return podRow(o, now).reason }),
	column("Restarts", "string", "The number of times the containers in this pod have been restarted and when the last container in this pod has restarted.", 0,
		func(o meta.Object, now time.Time) any { return podRow(o, now).restarts }),
	apiserver.AgeColumn(),
	column("IP", "string", propertyDoc("io.k8s.api.core.v1.PodStatus", "podIP"), 1,
		func(o meta.Object, _ time.Time) any { return orNone(podIP(o)) }),
	column("Node", "string", propertyDoc("io.k8s.api.core.v1.PodSpec", "nodeName"), 1,
		func(o meta.Object, _ time.Time) any { return orNone(str(o, "spec", "nodeName")) }),
	column("Nominated Node", "string", propertyDoc("io.k8s.api.core.v1.PodStatus", "nominatedNodeName"), 1,
		func(o meta.Object, _ time.Time) any { return orNone(str(o, "status", "nominatedNodeName")) }),
	column("Readiness Gates", "string", propertyDoc("io.k8s.api.core.v1.PodSpec", "readinessGates"), 1,
		func(o meta.Object, _ time.Time) any {
			gates := meta.AsList(field(o, "spec", "readinessGates"))
			if len(gates) == 0 {
				return "<none>"
			}
			conditions := map[string]string{}
			for _, c := range meta.AsList(field(o, "status", "conditions")) {
				m, _ := c.(map[string]any)
				t, _ := m["type"].(string)
				if _, seen := conditions[t]; !seen {
					conditions[t], _ = m["status"].(string)
				}
			}
			ready := 0
			for _, g := range gates {
				m, _ := g.(map[string]any)
				t, _ := m["conditionType"].(string)
				if conditions[t] == "True" {
					ready++
				}
			}
			return fmt.Sprintf("%d/%d", ready, len(gates))
		}),
}

// podIP is the first of the pod's IPs.
func podIP(o meta.Object) string {
	if ips := meta.AsList(field(o, "status", "podIPs")); len(ips) > 0 {
		m, _ := ips[0].(map[string]any)
		s, _ := m["ip"].(string)
		return s
	}
	return ""
}

// podSummary is what kube's pod printer computes for a row.
type podSummary struct{ ready, reason, restarts string }

// podRow summarises a pod as kube's printer does: ready containers (with
// restartable init containers), the reason that best describes it (an
// init container's progress or failure, a container's waiting or
// terminated reason, Terminating once deleted) and restarts with the age
// of the last one.
func podRow(o meta.Object, now time.Time) podSummary {
	reason := str(o, "status", "phase")
	if r := str(o, "status", "reason"); r != "" {
		reason = r
	}
	for _, c := range meta.AsList(field(o, "status", "conditions")) {
		m, _ := c.(map[string]any)
		if m["type"] == "PodScheduled" && m["reason"] == "SchedulingGated" {
			reason = "SchedulingGated"
		}
	}
	total := len(meta.AsList(field(o, "spec", "containers")))
	restartable := map[string]bool{}
	initContainers := meta.AsList(field(o, "spec", "initContainers"))
	for _, c := range initContainers {
		m, _ := c.(map[string]any)
		if m["restartPolicy"] == "Always" {
			name, _ := m["name"].(string)
			restartable[name] = true
			total++
		}
	}
	ready, restarts, sidecarRestarts := 0, int64(0), int64(0)
	var lastRestart, lastSidecarRestart time.Time
	finished := func(cs map[string]any) time.Time {
		t, _ := time.Parse(time.RFC3339, fmt.Sprint(field(cs, "lastState", "terminated", "finishedAt")))
		return t
	}
	initializing := false
	for i, c := range meta.AsList(field(o, "status", "initContainerStatuses")) {
		cs, _ := c.(map[string]any)
		name, _ := cs["name"].(string)
		n, _ := meta.AsInt64(cs["restartCount"])
		restarts += n
		if t := finished(cs); t.After(lastRestart) {
			lastRestart = t
		}
		if restartable[name] {
			sidecarRestarts += n
			if t := finished(cs); t.After(lastSidecarRestart) {
				lastSidecarRestart = t
			}
		}
		terminated, _ := field(cs, "state", "terminated").(map[string]any)
		waiting, _ := field(cs, "state", "waiting").(map[string]any)
		exitCode, _ := meta.AsInt64(terminated["exitCode"])
		switch {
		case terminated != nil && exitCode == 0:
			continue
		case restartable[name] && cs["started"] == true:
			if cs["ready"] == true {
				ready++
			}
			continue
		case terminated != nil:
			switch r, _ := terminated["reason"].(string); {
			case r != "":
				reason = "Init:" + r
			case terminated["signal"] != nil && fmt.Sprint(terminated["signal"]) != "0":
				reason = fmt.Sprintf("Init:Signal:%v", terminated["signal"])
			default:
				reason = fmt.Sprintf("Init:ExitCode:%d", exitCode)
			}
		case waiting != nil && waiting["reason"] != nil && waiting["reason"] != "" && waiting["reason"] != "PodInitializing":
			reason = fmt.Sprintf("Init:%v", waiting["reason"])
		default:
			reason = fmt.Sprintf("Init:%d/%d", i, len(initContainers))
		}
		initializing = true
		break
	}
	initialized := false
	for _, c := range meta.AsList(field(o, "status", "conditions")) {
		m, _ := c.(map[string]any)
		if m["type"] == "Initialized" {
			initialized = m["status"] == "True"
			break
		}
	}
	if !initializing || initialized {
		restarts, lastRestart = sidecarRestarts, lastSidecarRestart
		hasRunning := false
		statuses := meta.AsList(field(o, "status", "containerStatuses"))
		for i := len(statuses) - 1; i >= 0; i-- {
			cs, _ := statuses[i].(map[string]any)
			n, _ := meta.AsInt64(cs["restartCount"])
			restarts += n
			if t := finished(cs); t.After(lastRestart) {
				lastRestart = t
			}
			waiting, _ := field(cs, "state", "waiting").(map[string]any)
			terminated, _ := field(cs, "state", "terminated").(map[string]any)
			switch {
			case waiting != nil && waiting["reason"] != nil && waiting["reason"] != "":
				reason = fmt.Sprint(waiting["reason"])
			case terminated != nil && terminated["reason"] != nil && terminated["reason"] != "":
				reason = fmt.Sprint(terminated["reason"])
			case terminated != nil:
				if s, _ := meta.AsInt64(terminated["signal"]); s != 0 {
					reason = fmt.Sprintf("Signal:%d", s)
				} else {
					code, _ := meta.AsInt64(terminated["exitCode"])
					reason = fmt.Sprintf("ExitCode:%d", code)
				}
			case cs["ready"] == true && field(cs, "state", "running") != nil:
				hasRunning = true
				ready++
			}
		}
		if reason == "Completed" && hasRunning {
			reason = "NotReady"
			for _, c := range meta.AsList(field(o, "status", "conditions")) {
				m, _ := c.(map[string]any)
				if m["type"] == "Ready" && m["status"] == "True" {
					reason = "Running"
				}
			}
		}
	}
	phase := str(o, "status", "phase")
	if o.DeletionTimestamp() != "" && str(o, "status", "reason") == "NodeLost" {
		reason = "Unknown"
	} else if o.DeletionTimestamp() != "" && phase != "Succeeded" && phase != "Failed" {
		reason = "Terminating"
	}
	restartsText := fmt.Sprint(restarts)
	if restarts != 0 && !lastRestart.IsZero() {
		restartsText = fmt.Sprintf("%d (%s ago)", restarts, apiserver.HumanDuration(now.Sub(lastRestart)))
	}
	return podSummary{ready: fmt.Sprintf("%d/%d", ready, total), reason: reason, restarts: restartsText}
}

var podsGR = meta.GroupResource{Resource: "pods"}

// GracePeriod is kube's CheckGracefulDelete: the DeleteOptions' period,
// else the pod's terminationGracePeriodSeconds; 0 (removed at once) for a
// pod on no node or one that has finished.
func (podStrategy) GracePeriod(_ *apiserver.Write, o meta.Object, requested *int64) int64 {
	period := int64(0)
	if requested != nil {
		period = *requested
	} else if p, ok := meta.AsInt64(field(o, "spec", "terminationGracePeriodSeconds")); ok {
		period = p
	}
	if str(o, "spec", "nodeName") == "" {
		period = 0
	}
	if phase := str(o, "status", "phase"); phase == "Failed" || phase == "Succeeded" {
		period = 0
	}
	return period
}

// Subresources are a pod's, as kube serves them.
func (podStrategy) Subresources() []apiserver.Subresource {
	core := func(kind string) meta.GroupVersionKind { return meta.GroupVersionKind{Kind: kind} }
	connect := []string{"create", "get"}
	return []apiserver.Subresource{
		{Name: "attach", Verbs: connect, Kind: core("PodAttachOptions"), Connect: true, Serve: servePodStream("attach")},
		{Name: "binding", Verbs: []string{"create"}, Kind: core("Binding"), Serve: servePodBinding},
		{Name: "ephemeralcontainers", Verbs: []string{"get", "patch", "update"}},
		{Name: "eviction", Verbs: []string{"create"}, Kind: meta.GroupVersionKind{Group: "policy", Version: "v1", Kind: "Eviction"},
			AcceptedVersions: []string{"policy/v1beta1"}, Serve: servePodEviction},
		{Name: "exec", Verbs: connect, Kind: core("PodExecOptions"), Connect: true, Serve: servePodStream("exec")},
		{Name: "log", Verbs: []string{"get"}, Connect: true, Serve: servePodLog},
		{Name: "portforward", Verbs: connect, Kind: core("PodPortForwardOptions"), Connect: true, Serve: servePodStream("portforward")},
		{Name: "proxy", Verbs: []string{"create", "delete", "get", "patch", "update"}, Kind: core("PodProxyOptions"), Connect: true,
			Serve: servePodProxy},
		{Name: "resize", Verbs: []string{"get", "patch", "update"}},
	}
}

// successStatus is the Status kube answers a binding or an eviction with.
func successStatus(code int) meta.Object {
	return meta.Object{"kind": "Status", "apiVersion": "v1", "metadata": map[string]any{}, "status": "Success", "code": int64(code)}
}
