package builtin

import (
	"time"

	"github.com/kapi-dev/kapi/apiserver"
	"github.com/kapi-dev/kapi/meta"
)

// cronJobResource is batch/v1 cronjobs.
func cronJobResource() apiserver.Resource {
	return apiserver.Resource{Group: "batch", Version: "v1", Kind: "CronJob", Plural: "cronjobs", Namespaced: true,
		ShortNames: []string{"cj"}, Categories: []string{"all"}, StatusSubresource: true,
		PrinterColumns: cronJobColumns, GenericDelete: true, Strategy: cronJobStrategy{}}
}

// cronJobStrategy is what a CronJob does differently.
type cronJobStrategy struct{ apiserver.GenericStrategy }

// Default mirrors SetDefaults_CronJob: concurrent runs allowed, not
// suspended, three successful and one failed job kept; pod template
// defaults in the job template.
func (cronJobStrategy) Default(o meta.Object) {
	spec := obj(o, "spec")
	setDefault(spec, "concurrencyPolicy", "Allow")
	setDefault(spec, "suspend", false)
	setDefault(spec, "successfulJobsHistoryLimit", int64(3))
	setDefault(spec, "failedJobsHistoryLimit", int64(1))
	defaultPodSpec(obj(obj(obj(obj(spec, "jobTemplate"), "spec"), "template"), "spec"))
}

// PrepareForCreate starts a cron job with an empty status.
func (cronJobStrategy) PrepareForCreate(_ *apiserver.Write, o meta.Object) {
	o["status"] = map[string]any{}
}

var cronJobColumns = []apiserver.PrinterColumn{
	column("Schedule", "string", propertyDoc("io.k8s.api.batch.v1.CronJobSpec", "schedule"), 0,
		func(o meta.Object, _ time.Time) any { return str(o, "spec", "schedule") }),
	column("Timezone", "string", propertyDoc("io.k8s.api.batch.v1.CronJobSpec", "timeZone"), 0,
		func(o meta.Object, _ time.Time) any { return stringOr(field(o, "spec", "timeZone"), "<none>") }),
	column("Suspend", "boolean", propertyDoc("io.k8s.api.batch.v1.CronJobSpec", "suspend"), 0,
		func(o meta.Object, _ time.Time) any { return boolPtr(field(o, "spec", "suspend")) }),
	column("Active", "integer", propertyDoc("io.k8s.api.batch.v1.CronJobStatus", "active"), 0,
		func(o meta.Object, _ time.Time) any { return count(field(o, "status", "active")) }),
	column("Last Schedule", "string", propertyDoc("io.k8s.api.batch.v1.CronJobStatus", "lastScheduleTime"), 0, func(o meta.Object, now time.Time) any {
		if t := str(o, "status", "lastScheduleTime"); t != "" {
			return since(t, now)
		}
		return "<none>"
	}),
	apiserver.AgeColumn(),
	containersColumn(1, "spec", "jobTemplate", "spec", "template", "spec"),
	imagesColumn(1, "spec", "jobTemplate", "spec", "template", "spec"),
	column("Selector", "string", propertyDoc("io.k8s.api.batch.v1.JobSpec", "selector"), 1,
		func(o meta.Object, _ time.Time) any {
			return formatLabelSelector(field(o, "spec", "jobTemplate", "spec", "selector"))
		}),
}
