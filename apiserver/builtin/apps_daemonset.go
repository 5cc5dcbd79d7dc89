package builtin

import (
	"strconv"
	"time"

	"github.com/kapi-dev/kapi/apiserver"
	"github.com/kapi-dev/kapi/meta"
)

// daemonSetResource is apps/v1 daemonsets.
func daemonSetResource() apiserver.Resource {
	return apiserver.Resource{Group: "apps", Version: "v1", Kind: "DaemonSet", Plural: "daemonsets", Namespaced: true,
		ShortNames: []string{"ds"}, Categories: []string{"all"}, StatusSubresource: true,
		PrinterColumns: daemonSetColumns, GenericDelete: true, Strategy: daemonSetStrategy{}}
}

// daemonSetStrategy is what a DaemonSet does differently.
type daemonSetStrategy struct{ apiserver.GenericStrategy }

// templateGenerationAnnotation carries the internal template generation
// apps/v1 has no field for.
const templateGenerationAnnotation = "deprecated.daemonset.template.generation"

// Default mirrors SetDefaults_DaemonSet: a rolling update of one pod at a
// time without surge, ten revisions kept; pod template defaults.
func (daemonSetStrategy) Default(o meta.Object) {
	spec := obj(o, "spec")
	us := obj(spec, "updateStrategy")
	setDefault(us, "type", "RollingUpdate")
	if us["type"] == "RollingUpdate" {
		ru := obj(us, "rollingUpdate")
		setDefault(ru, "maxUnavailable", int64(1))
		setDefault(ru, "maxSurge", int64(0))
	}
	setDefault(spec, "revisionHistoryLimit", int64(10))
	defaultPodSpec(obj(obj(spec, "template"), "spec"))
	// The template generation starts at 1 (an update has its own by now);
	// kube's conversion writes it before fields are tracked, so the writer
	// owns the annotation.
	if n, _ := strconv.ParseInt(o.Annotations()[templateGenerationAnnotation], 10, 64); n < 1 {
		setAnnotation(o, templateGenerationAnnotation, "1")
	}
}

// PrepareForCreate starts the status at zero.
func (daemonSetStrategy) PrepareForCreate(_ *apiserver.Write, o meta.Object) {
	o["status"] = map[string]any{"currentNumberScheduled": int64(0), "desiredNumberScheduled": int64(0),
		"numberMisscheduled": int64(0), "numberReady": int64(0)}
}

// PrepareForUpdate keeps the template generation, counting one more when
// the template changes.
func (daemonSetStrategy) PrepareForUpdate(w *apiserver.Write, o, old meta.Object) meta.Object {
	o = apiserver.PrepareStatusUpdate(w, o, old)
	gen := old.Annotations()[templateGenerationAnnotation]
	if w.Subresource == "" && !meta.EqualValues(field(o, "spec", "template"), field(old, "spec", "template")) {
		n, _ := strconv.ParseInt(gen, 10, 64)
		gen = strconv.FormatInt(n+1, 10)
	}
	if gen != "" {
		setAnnotation(o, templateGenerationAnnotation, gen)
	}
	return o
}

var daemonSetColumns = []apiserver.PrinterColumn{
	column("Desired", "integer", propertyDoc("io.k8s.api.apps.v1.DaemonSetStatus", "desiredNumberScheduled"), 0,
		func(o meta.Object, _ time.Time) any { return integer(o, "status", "desiredNumberScheduled") }),
	column("Current", "integer", propertyDoc("io.k8s.api.apps.v1.DaemonSetStatus", "currentNumberScheduled"), 0,
		func(o meta.Object, _ time.Time) any { return integer(o, "status", "currentNumberScheduled") }),
	column("Ready", "integer", sinceRelease(36, "The number of nodes that should be running the daemon pod and have one or more of the daemon pod running and ready.",
		propertyDoc("io.k8s.api.apps.v1.DaemonSetStatus", "numberReady")), 0,
		func(o meta.Object, _ time.Time) any { return integer(o, "status", "numberReady") }),
	column("Up-to-date", "integer", propertyDoc("io.k8s.api.apps.v1.DaemonSetStatus", "updatedNumberScheduled"), 0,
		func(o meta.Object, _ time.Time) any { return integer(o, "status", "updatedNumberScheduled") }),
	column("Available", "integer", propertyDoc("io.k8s.api.apps.v1.DaemonSetStatus", "numberAvailable"), 0,
		func(o meta.Object, _ time.Time) any { return integer(o, "status", "numberAvailable") }),
	column("Node Selector", "string", propertyDoc("io.k8s.api.core.v1.PodSpec", "nodeSelector"), 0,
		func(o meta.Object, _ time.Time) any {
			return selectorString(field(o, "spec", "template", "spec", "nodeSelector"))
		}),
	apiserver.AgeColumn(),
	containersColumn(1, "spec", "template", "spec"),
	imagesColumn(1, "spec", "template", "spec"),
	column("Selector", "string", sinceRelease(36, "A label query over pods that are managed by the daemon set. Must match in order to be controlled. If empty, defaulted to labels on Pod template. More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/labels/#label-selectors",
		propertyDoc("io.k8s.api.apps.v1.DaemonSetSpec", "selector")), 1,
		func(o meta.Object, _ time.Time) any { return formatLabelSelector(field(o, "spec", "selector")) }),
}
