package builtin

import (
	"time"

	"github.com/kapi-dev/kapi/apiserver"
	"github.com/kapi-dev/kapi/meta"
)

// priorityClassResource is scheduling.k8s.io/v1 priorityclasses.
func priorityClassResource() apiserver.Resource {
	return apiserver.Resource{Group: "scheduling.k8s.io", Version: "v1", Kind: "PriorityClass", Plural: "priorityclasses",
		ShortNames: []string{"pc"}, PrinterColumns: priorityClassColumns, Strategy: priorityClassStrategy{}}
}

// priorityClassStrategy is what a PriorityClass does differently.
type priorityClassStrategy struct{ apiserver.GenericStrategy }

// Default mirrors SetDefaults_PriorityClass: pods of the class preempt
// lower priorities.
func (priorityClassStrategy) Default(o meta.Object) {
	setDefault(o, "preemptionPolicy", "PreemptLowerPriority")
}

var priorityClassColumns = []apiserver.PrinterColumn{
	column("Value", "integer", propertyDoc("io.k8s.api.scheduling.v1.PriorityClass", "value"), 0,
		func(o meta.Object, now time.Time) any { return integer(o, "value") }),
	column("Global-Default", "boolean", propertyDoc("io.k8s.api.scheduling.v1.PriorityClass", "globalDefault"), 0,
		func(o meta.Object, now time.Time) any { return flag(o["globalDefault"], false) }),
	apiserver.AgeColumn(),
	column("PreemptionPolicy", "string", propertyDoc("io.k8s.api.scheduling.v1.PriorityClass", "preemptionPolicy"), 0,
		func(o meta.Object, now time.Time) any { return stringOr(o["preemptionPolicy"], "") }),
}
