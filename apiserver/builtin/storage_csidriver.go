package builtin

import (
	"strings"
	"time"

	"github.com/kapi-dev/kapi/apiserver"
	"github.com/kapi-dev/kapi/meta"
)

// csiDriverResource is storage.k8s.io/v1 csidrivers.
func csiDriverResource() apiserver.Resource {
	return apiserver.Resource{ReturnDeletedObject: true, Group: "storage.k8s.io", Version: "v1", Kind: "CSIDriver", Plural: "csidrivers",
		WithoutGeneration: true, PrinterColumns: csiDriverColumns, GenericDelete: true, Strategy: csiDriverStrategy{}}
}

// csiDriverStrategy is what a CSIDriver does differently; release is the
// kube release served.
type csiDriverStrategy struct {
	apiserver.GenericStrategy
	release apiserver.Release
}

// Default mirrors SetDefaults_CSIDriver: attach required, no pod info, no
// capacity tracking, fsGroup for ReadWriteOnce volumes with an fsType,
// persistent volumes, no republishing, no SELinux mounts; from 1.37 Pods
// are not kept from scheduling when the driver is missing on a node
// (preventPodSchedulingIfMissing false, recorded from kube-apiserver 1.37.2).
func (s csiDriverStrategy) Default(o meta.Object) {
	spec := obj(o, "spec")
	setDefault(spec, "attachRequired", true)
	setDefault(spec, "podInfoOnMount", false)
	setDefault(spec, "storageCapacity", false)
	setDefault(spec, "fsGroupPolicy", "ReadWriteOnceWithFSType")
	if len(meta.AsList(spec["volumeLifecycleModes"])) == 0 {
		spec["volumeLifecycleModes"] = []any{"Persistent"}
	}
	setDefault(spec, "requiresRepublish", false)
	setDefault(spec, "seLinuxMount", false)
	if s.release.AtLeast(37) {
		setDefault(spec, "preventPodSchedulingIfMissing", false)
	}
}

var csiDriverColumns = []apiserver.PrinterColumn{
	column("AttachRequired", "boolean", propertyDoc("io.k8s.api.storage.v1.CSIDriverSpec", "attachRequired"), 0,
		func(o meta.Object, now time.Time) any { return flag(field(o, "spec", "attachRequired"), true) }),
	column("PodInfoOnMount", "boolean", propertyDoc("io.k8s.api.storage.v1.CSIDriverSpec", "podInfoOnMount"), 0,
		func(o meta.Object, now time.Time) any { return flag(field(o, "spec", "podInfoOnMount"), false) }),
	column("StorageCapacity", "boolean", propertyDoc("io.k8s.api.storage.v1.CSIDriverSpec", "storageCapacity"), 0,
		func(o meta.Object, now time.Time) any { return flag(field(o, "spec", "storageCapacity"), false) }),
	column("TokenRequests", "string", propertyDoc("io.k8s.api.storage.v1.CSIDriverSpec", "tokenRequests"), 0,
		func(o meta.Object, now time.Time) any {
			reqs, ok := field(o, "spec", "tokenRequests").([]any)
			if !ok {
				return "<unset>"
			}
			var audiences []string
			for _, r := range reqs {
				m, _ := r.(map[string]any)
				audiences = append(audiences, stringOr(m["audience"], ""))
			}
			return strings.Join(audiences, ",")
		}),
	column("RequiresRepublish", "boolean", propertyDoc("io.k8s.api.storage.v1.CSIDriverSpec", "requiresRepublish"), 0,
		func(o meta.Object, now time.Time) any { return flag(field(o, "spec", "requiresRepublish"), false) }),
	column("Modes", "string", propertyDoc("io.k8s.api.storage.v1.CSIDriverSpec", "volumeLifecycleModes"), 0,
		func(o meta.Object, now time.Time) any {
			var modes []string
			for _, m := range meta.AsList(field(o, "spec", "volumeLifecycleModes")) {
				modes = append(modes, stringOr(m, ""))
			}
			if len(modes) == 0 {
				return "<none>"
			}
			return strings.Join(modes, ",")
		}),
	apiserver.AgeColumn(),
}
