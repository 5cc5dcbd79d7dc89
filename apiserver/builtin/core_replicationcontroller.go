package builtin

import (
	"strconv"
	"time"

	"github.com/kapi-dev/kapi/apiserver"
	"github.com/kapi-dev/kapi/meta"
)

// replicationControllerResource is core/v1 replicationcontrollers.
func replicationControllerResource() apiserver.Resource {
	return apiserver.Resource{Version: "v1", Kind: "ReplicationController", Plural: "replicationcontrollers", Namespaced: true,
		ShortNames: []string{"rc"}, Categories: []string{"all"}, StatusSubresource: true,
		PrinterColumns: replicationControllerColumns, GenericDelete: true, Strategy: replicationControllerStrategy{},
		SelectableFields: []string{"status.replicas"}, FieldValues: replicasFieldValues,
		Scale: &apiserver.Scale{SpecReplicasPath: ".spec.replicas", StatusReplicasPath: ".status.replicas",
			Selector: func(o meta.Object) string {
				return labelSelectorString(map[string]any{"matchLabels": field(o, "spec", "selector")})
			}}}
}

// replicasFieldValues is status.replicas as kube compares it: "0" unset.
func replicasFieldValues(o meta.Object) map[string]string {
	return map[string]string{"status.replicas": strconv.FormatInt(integer(o, "status", "replicas"), 10)}
}

// replicationControllerStrategy is what a ReplicationController does
// differently.
type replicationControllerStrategy struct {
	apiserver.GenericStrategy
	// release is the kube release served (empty: the default);
	// ResourcesFor sets it.
	release apiserver.Release
}

// Default mirrors SetDefaults_ReplicationController: the selector and the
// labels default to the template's labels; the template gets the pod spec
// defaults.
func (s replicationControllerStrategy) Default(o meta.Object) {
	spec := obj(o, "spec")
	setDefault(spec, "replicas", int64(1))
	template, ok := spec["template"].(map[string]any)
	if !ok {
		return
	}
	if labels, ok := field(template, "metadata", "labels").(map[string]any); ok {
		if len(asMap(spec["selector"])) == 0 {
			spec["selector"] = meta.DeepCopyValue(labels)
		}
		if len(o.Labels()) == 0 {
			o.SetMetadataField("labels", meta.DeepCopyValue(labels))
		}
	}
	defaultPodSpec(obj(template, "spec"))
	// kube 1.33's field tracking sees a controller's template with its null
	// creationTimestamp (the writer owns it), unlike other templates'. From
	// 1.34 on ObjectMeta leaves out a zero creationTimestamp, there too.
	if !s.release.AtLeast(34) {
		setDefault(obj(template, "metadata"), "creationTimestamp", nil)
	}
}

// PrepareForCreate starts a controller with no replicas observed.
func (replicationControllerStrategy) PrepareForCreate(_ *apiserver.Write, o meta.Object) {
	o["status"] = map[string]any{"replicas": int64(0)}
}

var replicationControllerColumns = []apiserver.PrinterColumn{
	column("Desired", "integer", propertyDoc("io.k8s.api.core.v1.ReplicationControllerSpec", "replicas"), 0,
		func(o meta.Object, _ time.Time) any { return integer(o, "spec", "replicas") }),
	column("Current", "integer", propertyDoc("io.k8s.api.core.v1.ReplicationControllerStatus", "replicas"), 0,
		func(o meta.Object, _ time.Time) any { return integer(o, "status", "replicas") }),
	column("Ready", "integer", propertyDoc("io.k8s.api.core.v1.ReplicationControllerStatus", "readyReplicas"), 0,
		func(o meta.Object, _ time.Time) any { return integer(o, "status", "readyReplicas") }),
	apiserver.AgeColumn(),
	containersColumn(1, "spec", "template", "spec"),
	imagesColumn(1, "spec", "template", "spec"),
	column("Selector", "string", propertyDoc("io.k8s.api.core.v1.ReplicationControllerSpec", "selector"), 1,
		func(o meta.Object, _ time.Time) any { return selectorString(field(o, "spec", "selector")) }),
}
