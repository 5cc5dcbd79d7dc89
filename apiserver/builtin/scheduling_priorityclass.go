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
	column("Value", "integer", "value represents the integer value of this priority class. This is the actual priority that pods receive when they have the name of this class in their pod spec.", 0,
		func(o meta.Object, now time.Time) any { return integer(o, "value") }),
	column("Global-Default", "boolean", "globalDefault specifies whether this PriorityClass should be considered as the default priority for pods that do not have any priority class. Only one PriorityClass can be marked as `globalDefault`. However, if more than one PriorityClasses exists with their `globalDefault` field set to true, the smallest value of such global default PriorityClasses will be used as the default priority.", 0,
		func(o meta.Object, now time.Time) any { return flag(o["globalDefault"], false) }),
	apiserver.AgeColumn(),
	column("PreemptionPolicy", "string", "preemptionPolicy is the Policy for preempting pods with lower priority. One of Never, PreemptLowerPriority. Defaults to PreemptLowerPriority if unset.", 0,
		func(o meta.Object, now time.Time) any { return stringOr(o["preemptionPolicy"], "") }),
}
