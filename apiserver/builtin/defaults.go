package builtin

import (
	"strings"

	"github.com/kapi-dev/kapi/meta"
)

// The defaults kube-apiserver's Go defaulting functions (and its admission
// plugins enabled by default) give the built-in kinds: what a client reads
// back after creating an object, beyond the schema's own defaults.

func obj(m map[string]any, key string) map[string]any {
	v, _ := m[key].(map[string]any)
	if v == nil {
		v = map[string]any{}
		m[key] = v
	}
	return v
}

func setDefault(m map[string]any, key string, v any) {
	if _, ok := m[key]; !ok {
		m[key] = v
	}
}

// defaultPodSpec mirrors SetDefaults_PodSpec and SetDefaults_Container.
func defaultPodSpec(spec map[string]any) {
	setDefault(spec, "restartPolicy", "Always")
	setDefault(spec, "terminationGracePeriodSeconds", int64(30))
	setDefault(spec, "dnsPolicy", "ClusterFirst")
	setDefault(spec, "securityContext", map[string]any{})
	setDefault(spec, "schedulerName", "default-scheduler")
	for _, key := range []string{"initContainers", "containers"} {
		for _, c := range asList(spec[key]) {
			if c, ok := c.(map[string]any); ok {
				defaultContainer(c)
			}
		}
	}
	for _, v := range asList(spec["volumes"]) {
		vol, _ := v.(map[string]any)
		for _, source := range []string{"secret", "configMap", "downwardAPI", "projected"} {
			if s, ok := vol[source].(map[string]any); ok {
				setDefault(s, "defaultMode", int64(420))
			}
		}
	}
}

func defaultContainer(c map[string]any) {
	setDefault(c, "resources", map[string]any{})
	setDefault(c, "terminationMessagePath", "/dev/termination-log")
	setDefault(c, "terminationMessagePolicy", "File")
	if _, ok := c["imagePullPolicy"]; !ok {
		c["imagePullPolicy"] = pullPolicy(str(c, "image"))
	}
	for _, p := range asList(c["ports"]) {
		if p, ok := p.(map[string]any); ok {
			setDefault(p, "protocol", "TCP")
		}
	}
}

// pullPolicy is Always for an untagged or :latest image, IfNotPresent
// otherwise, as kube defaults it.
func pullPolicy(image string) string {
	if strings.Contains(image, "@") {
		return "IfNotPresent"
	}
	name := image[strings.LastIndex(image, "/")+1:]
	tag := ""
	if i := strings.LastIndex(name, ":"); i >= 0 {
		tag = name[i+1:]
	}
	if tag == "" || tag == "latest" {
		return "Always"
	}
	return "IfNotPresent"
}

// defaultPod adds, besides the pod spec defaults, what kube's default
// admission gives a new pod: the not-ready and unreachable tolerations,
// priority 0, service links, and a Pending status.
func defaultPod(o meta.Object, create bool) {
	spec := obj(o, "spec")
	defaultPodSpec(spec)
	setDefault(spec, "enableServiceLinks", true)
	if !create {
		return
	}
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

// defaultDeployment mirrors SetDefaults_Deployment.
func defaultDeployment(o meta.Object, _ bool) {
	spec := obj(o, "spec")
	setDefault(spec, "replicas", int64(1))
	strategy := obj(spec, "strategy")
	setDefault(strategy, "type", "RollingUpdate")
	if strategy["type"] == "RollingUpdate" {
		ru := obj(strategy, "rollingUpdate")
		setDefault(ru, "maxUnavailable", "25%")
		setDefault(ru, "maxSurge", "25%")
	}
	setDefault(spec, "revisionHistoryLimit", int64(10))
	setDefault(spec, "progressDeadlineSeconds", int64(600))
	template := obj(spec, "template")
	defaultPodSpec(obj(template, "spec"))
}

// defaultService mirrors SetDefaults_Service for the common fields.
func defaultService(o meta.Object, _ bool) {
	spec := obj(o, "spec")
	setDefault(spec, "type", "ClusterIP")
	setDefault(spec, "sessionAffinity", "None")
	if spec["type"] != "ExternalName" {
		setDefault(spec, "internalTrafficPolicy", "Cluster")
		setDefault(spec, "ipFamilyPolicy", "SingleStack")
		setDefault(spec, "ipFamilies", []any{"IPv4"})
	}
	for _, p := range asList(spec["ports"]) {
		if p, ok := p.(map[string]any); ok {
			setDefault(p, "protocol", "TCP")
			if _, ok := p["targetPort"]; !ok {
				p["targetPort"] = p["port"]
			}
		}
	}
	setDefault(o, "status", map[string]any{"loadBalancer": map[string]any{}})
}

// defaultSecret gives a Secret its type.
func defaultSecret(o meta.Object, _ bool) { setDefault(o, "type", "Opaque") }
