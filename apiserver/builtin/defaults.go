package builtin

import (
	"strings"

	"github.com/kapi-dev/kapi/apiserver"
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

// keepMetadata sets metadata[field] of o to old's (absent when old has
// none), for the status strategies that reset a metadata field.
func keepMetadata(o, old meta.Object, field string) {
	if v, ok := old.Metadata()[field]; ok {
		o.SetMetadataField(field, meta.DeepCopyValue(v))
	} else {
		delete(o.MetadataForWrite(), field)
	}
}

// workloadScale is the scale subresource of kube's workloads (Deployment,
// ReplicaSet, StatefulSet): spec.replicas,
// status.replicas and spec.selector in its string form.
var workloadScale = &apiserver.Scale{SpecReplicasPath: ".spec.replicas", StatusReplicasPath: ".status.replicas",
	Selector: func(o meta.Object) string { return labelSelectorString(field(o, "spec", "selector")) }}
