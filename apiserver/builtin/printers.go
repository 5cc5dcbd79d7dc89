package builtin

import (
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/kapi-dev/kapi/apiserver"
	"github.com/kapi-dev/kapi/meta"
)

// The Table columns kube-apiserver's built-in printers show for these kinds
// (kubectl get, and -o wide for priority 1).

func column(name, typ, description string, priority int32, cell func(meta.Object, time.Time) any) apiserver.PrinterColumn {
	return apiserver.PrinterColumn{Name: name, Type: typ, Description: description, Priority: priority, Cell: cell}
}

func field(o meta.Object, path ...string) any {
	v, _ := meta.NestedField(o, path...)
	return v
}

func str(o meta.Object, path ...string) string {
	s, _ := field(o, path...).(string)
	return s
}

func count(v any) int64 {
	switch c := v.(type) {
	case map[string]any:
		return int64(len(c))
	case []any:
		return int64(len(c))
	}
	return 0
}

func integer(o meta.Object, path ...string) int64 {
	n, _ := meta.AsInt64(field(o, path...))
	return n
}

var configMapColumns = []apiserver.PrinterColumn{
	column("Data", "integer", "Data contains the configuration data", 0, func(o meta.Object, _ time.Time) any {
		return count(field(o, "data")) + count(field(o, "binaryData"))
	}),
	apiserver.AgeColumn(),
}

var secretColumns = []apiserver.PrinterColumn{
	column("Type", "string", "The type of the secret", 0, func(o meta.Object, _ time.Time) any { return str(o, "type") }),
	column("Data", "integer", "The number of entries in the secret", 0, func(o meta.Object, _ time.Time) any {
		return count(field(o, "data"))
	}),
	apiserver.AgeColumn(),
}

var serviceAccountColumns = []apiserver.PrinterColumn{
	column("Secrets", "integer", "Secrets is a list of the secrets in the same namespace that pods running using this ServiceAccount are allowed to use.", 0,
		func(o meta.Object, _ time.Time) any { return count(field(o, "secrets")) }),
	apiserver.AgeColumn(),
}

var serviceColumns = []apiserver.PrinterColumn{
	column("Type", "string", "The type of the service", 0, func(o meta.Object, _ time.Time) any { return str(o, "spec", "type") }),
	column("Cluster-IP", "string", "The cluster IP of the service", 0, func(o meta.Object, _ time.Time) any {
		if ip := str(o, "spec", "clusterIP"); ip != "" {
			return ip
		}
		return "<none>"
	}),
	column("External-IP", "string", "The external IP of the service", 0, func(o meta.Object, _ time.Time) any {
		var ips []string
		for _, ing := range asList(field(o, "status", "loadBalancer", "ingress")) {
			if m, ok := ing.(map[string]any); ok {
				if ip, _ := m["ip"].(string); ip != "" {
					ips = append(ips, ip)
				} else if h, _ := m["hostname"].(string); h != "" {
					ips = append(ips, h)
				}
			}
		}
		for _, ip := range asList(field(o, "spec", "externalIPs")) {
			if s, ok := ip.(string); ok {
				ips = append(ips, s)
			}
		}
		if name := str(o, "spec", "externalName"); name != "" {
			ips = append(ips, name)
		}
		if len(ips) == 0 {
			if str(o, "spec", "type") == "LoadBalancer" {
				return "<pending>"
			}
			return "<none>"
		}
		return strings.Join(ips, ",")
	}),
	column("Port(s)", "string", "The ports of the service", 0, func(o meta.Object, _ time.Time) any {
		var ports []string
		for _, p := range asList(field(o, "spec", "ports")) {
			m, _ := p.(map[string]any)
			port, _ := meta.AsInt64(m["port"])
			proto, _ := m["protocol"].(string)
			if proto == "" {
				proto = "TCP"
			}
			s := fmt.Sprintf("%d", port)
			if np, ok := meta.AsInt64(m["nodePort"]); ok && np != 0 {
				s += fmt.Sprintf(":%d", np)
			}
			ports = append(ports, s+"/"+proto)
		}
		if len(ports) == 0 {
			return "<none>"
		}
		return strings.Join(ports, ",")
	}),
	apiserver.AgeColumn(),
	column("Selector", "string", "The selector of the service", 1, func(o meta.Object, _ time.Time) any {
		return selectorString(field(o, "spec", "selector"))
	}),
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

var deploymentColumns = []apiserver.PrinterColumn{
	column("Ready", "string", "Number of the pod with ready state", 0, func(o meta.Object, _ time.Time) any {
		return fmt.Sprintf("%d/%d", integer(o, "status", "readyReplicas"), integer(o, "spec", "replicas"))
	}),
	column("Up-to-date", "integer", "Total number of non-terminated pods targeted by this deployment that have the desired template spec.", 0,
		func(o meta.Object, _ time.Time) any { return integer(o, "status", "updatedReplicas") }),
	column("Available", "integer", "Total number of available pods (ready for at least minReadySeconds) targeted by this deployment.", 0,
		func(o meta.Object, _ time.Time) any { return integer(o, "status", "availableReplicas") }),
	apiserver.AgeColumn(),
	column("Containers", "string", "Names of each container in the template.", 1, func(o meta.Object, _ time.Time) any {
		return containerField(o, "name")
	}),
	column("Images", "string", "Images referenced by each container in the template.", 1, func(o meta.Object, _ time.Time) any {
		return containerField(o, "image")
	}),
	column("Selector", "string", "Label selector for pods. Existing ReplicaSets whose pods are selected by this will be the ones affected by this deployment.", 1,
		func(o meta.Object, _ time.Time) any {
			return selectorString(field(o, "spec", "selector", "matchLabels"))
		}),
}

var namespaceColumns = []apiserver.PrinterColumn{
	column("Status", "string", "The status of the namespace", 0, func(o meta.Object, _ time.Time) any {
		return str(o, "status", "phase")
	}),
	apiserver.AgeColumn(),
}

var leaseColumns = []apiserver.PrinterColumn{
	column("Holder", "string", "The holder of the lease", 0, func(o meta.Object, _ time.Time) any {
		return str(o, "spec", "holderIdentity")
	}),
	apiserver.AgeColumn(),
}

var eventColumns = []apiserver.PrinterColumn{
	column("Type", "string", "Type of this event (Normal, Warning), new types could be added in the future.", 0,
		func(o meta.Object, _ time.Time) any { return str(o, "type") }),
	column("Reason", "string", "The reason this event is generated, if available.", 0,
		func(o meta.Object, _ time.Time) any { return str(o, "reason") }),
	column("Object", "string", "The object that this event is about.", 0, func(o meta.Object, _ time.Time) any {
		return strings.ToLower(str(o, "involvedObject", "kind")) + "/" + str(o, "involvedObject", "name")
	}),
	column("Message", "string", "A human-readable description of the status of this operation.", 0,
		func(o meta.Object, _ time.Time) any { return strings.TrimSpace(str(o, "message")) }),
	apiserver.AgeColumn(),
}

func containerField(o meta.Object, name string) string {
	var out []string
	for _, c := range asList(field(o, "spec", "template", "spec", "containers")) {
		if m, ok := c.(map[string]any); ok {
			s, _ := m[name].(string)
			out = append(out, s)
		}
	}
	return strings.Join(out, ",")
}

func selectorString(v any) string {
	m, _ := v.(map[string]any)
	if len(m) == 0 {
		return "<none>"
	}
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = fmt.Sprintf("%s=%v", k, m[k])
	}
	return strings.Join(parts, ",")
}

func asList(v any) []any {
	l, _ := v.([]any)
	return l
}

func orNone(s string) string {
	if s == "" {
		return "<none>"
	}
	return s
}
