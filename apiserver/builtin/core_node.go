package builtin

import (
	"sort"
	"strings"
	"time"

	"github.com/kapi-dev/kapi/apiserver"
	"github.com/kapi-dev/kapi/meta"
)

// nodeResource is core/v1 nodes. kube's node strategy keeps the status a
// node is created with, and validates it (KeepsStatusOnCreate).
func nodeResource() apiserver.Resource {
	return apiserver.Resource{Version: "v1", Kind: "Node", Plural: "nodes", ShortNames: []string{"no"},
		StatusSubresource: true, WithoutGeneration: true, PrinterColumns: nodeColumns, GenericDelete: true, KeepsStatusOnCreate: true, Strategy: nodeStrategy{},
		SelectableFields: []string{"spec.unschedulable"},
		FieldValues: func(o meta.Object) map[string]string {
			if flag(field(o, "spec", "unschedulable"), false) {
				return map[string]string{"spec.unschedulable": "true"}
			}
			return map[string]string{"spec.unschedulable": "false"}
		}}
}

// nodeStrategy is what a Node does differently.
type nodeStrategy struct{ apiserver.GenericStrategy }

// Default mirrors SetDefaults_NodeStatus (allocatable defaults to
// capacity) and kube's conversion of spec.podCIDR and spec.podCIDRs.
func (nodeStrategy) Default(o meta.Object) {
	if spec, ok := o["spec"].(map[string]any); ok {
		singleAndPlural(spec, "podCIDR", "podCIDRs", "")
	}
	status, _ := o["status"].(map[string]any)
	if capacity, ok := status["capacity"].(map[string]any); ok {
		if _, has := status["allocatable"]; !has {
			status["allocatable"] = meta.DeepCopyValue(capacity)
		}
	}
}

// PrepareForCreate taints a new node not-ready (NoSchedule), as kube's
// TaintNodesByCondition admission plugin does until a node controller
// sees it ready.
func (nodeStrategy) PrepareForCreate(_ *apiserver.Write, o meta.Object) {
	// kube drops the removed dynamic kubelet configuration on create.
	if status, ok := o["status"].(map[string]any); ok {
		delete(status, "config")
	}
	spec := obj(o, "spec")
	delete(spec, "configSource")
	taints := meta.AsList(spec["taints"])
	for _, t := range taints {
		if m, _ := t.(map[string]any); m["key"] == "node.kubernetes.io/not-ready" && m["effect"] == "NoSchedule" {
			return
		}
	}
	spec["taints"] = append(taints, map[string]any{"key": "node.kubernetes.io/not-ready", "effect": "NoSchedule"})
}

// PrepareForUpdate is the generic split, and kube's dropping of
// spec.configSource unless the node had one.
func (nodeStrategy) PrepareForUpdate(w *apiserver.Write, o, old meta.Object) meta.Object {
	next := apiserver.PrepareStatusUpdate(w, o, old)
	if spec, ok := next["spec"].(map[string]any); ok && field(old, "spec", "configSource") == nil {
		delete(spec, "configSource")
	}
	return next
}

// Subresources are a node's proxy.
func (nodeStrategy) Subresources() []apiserver.Subresource {
	return nodeSubresources
}

var nodeColumns = []apiserver.PrinterColumn{
	column("Status", "string", "The status of the node", 0, func(o meta.Object, _ time.Time) any {
		var status []string
		for _, c := range meta.AsList(field(o, "status", "conditions")) {
			m, _ := c.(map[string]any)
			if m["type"] == "Ready" {
				if m["status"] == "True" {
					status = append(status, "Ready")
				} else {
					status = append(status, "NotReady")
				}
			}
		}
		if len(status) == 0 {
			status = append(status, "Unknown")
		}
		if flag(field(o, "spec", "unschedulable"), false) {
			status = append(status, "SchedulingDisabled")
		}
		return strings.Join(status, ",")
	}),
	column("Roles", "string", "The roles of the node", 0, func(o meta.Object, _ time.Time) any {
		roles := map[string]bool{}
		for k, v := range o.Labels() {
			switch {
			case strings.HasPrefix(k, "node-role.kubernetes.io/"):
				if role := strings.TrimPrefix(k, "node-role.kubernetes.io/"); role != "" {
					roles[role] = true
				}
			case k == "kubernetes.io/role" && v != "":
				roles[v] = true
			}
		}
		if len(roles) == 0 {
			return "<none>"
		}
		list := make([]string, 0, len(roles))
		for r := range roles {
			list = append(list, r)
		}
		sort.Strings(list)
		return strings.Join(list, ",")
	}),
	apiserver.AgeColumn(),
	column("Version", "string", propertyDoc("io.k8s.api.core.v1.NodeSystemInfo", "kubeletVersion"), 0,
		func(o meta.Object, _ time.Time) any { return str(o, "status", "nodeInfo", "kubeletVersion") }),
	column("Internal-IP", "string", propertyDoc("io.k8s.api.core.v1.NodeStatus", "addresses"), 1, func(o meta.Object, _ time.Time) any { return nodeAddress(o, "InternalIP") }),
	column("External-IP", "string", propertyDoc("io.k8s.api.core.v1.NodeStatus", "addresses"), 1, func(o meta.Object, _ time.Time) any { return nodeAddress(o, "ExternalIP") }),
	column("OS-Image", "string", propertyDoc("io.k8s.api.core.v1.NodeSystemInfo", "osImage"), 1,
		func(o meta.Object, _ time.Time) any { return orUnknown(str(o, "status", "nodeInfo", "osImage")) }),
	column("Kernel-Version", "string", propertyDoc("io.k8s.api.core.v1.NodeSystemInfo", "kernelVersion"), 1,
		func(o meta.Object, _ time.Time) any { return orUnknown(str(o, "status", "nodeInfo", "kernelVersion")) }),
	column("Container-Runtime", "string", propertyDoc("io.k8s.api.core.v1.NodeSystemInfo", "containerRuntimeVersion"), 1,
		func(o meta.Object, _ time.Time) any {
			return orUnknown(str(o, "status", "nodeInfo", "containerRuntimeVersion"))
		}),
}

func nodeAddress(o meta.Object, typ string) string {
	for _, a := range meta.AsList(field(o, "status", "addresses")) {
		m, _ := a.(map[string]any)
		if m["type"] == typ {
			s, _ := m["address"].(string)
			return s
		}
	}
	return "<none>"
}

func orUnknown(s string) string {
	if s == "" {
		return "<unknown>"
	}
	return s
}

var (
	nodesGR = meta.GroupResource{Resource: "nodes"}
)
