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
	column("Schedule", "string", "The schedule in Cron format, see https://en.wikipedia.org/wiki/Cron.", 0,
		func(o meta.Object, _ time.Time) any { return str(o, "spec", "schedule") }),
	column("Timezone", "string", "The time zone name for the given schedule, see https://en.wikipedia.org/wiki/List_of_tz_database_time_zones. If not specified, this will default to the time zone of the kube-controller-manager process. The set of valid time zone names and the time zone offset is loaded from the system-wide time zone database by the API server during CronJob validation and the controller manager during execution. If no system-wide time zone database can be found a bundled version of the database is used instead. If the time zone name becomes invalid during the lifetime of a CronJob or due to a change in host configuration, the controller will stop creating new new Jobs and will create a system event with the reason UnknownTimeZone. More information can be found in https://kubernetes.io/docs/concepts/workloads/controllers/cron-jobs/#time-zones", 0,
		func(o meta.Object, _ time.Time) any { return stringOr(field(o, "spec", "timeZone"), "<none>") }),
	column("Suspend", "boolean", "This flag tells the controller to suspend subsequent executions, it does not apply to already started executions.  Defaults to false.", 0,
		func(o meta.Object, _ time.Time) any { return boolPtr(field(o, "spec", "suspend")) }),
	column("Active", "integer", "A list of pointers to currently running jobs.", 0,
		func(o meta.Object, _ time.Time) any { return count(field(o, "status", "active")) }),
	column("Last Schedule", "string", "Information when was the last time the job was successfully scheduled.", 0, func(o meta.Object, now time.Time) any {
		if t := str(o, "status", "lastScheduleTime"); t != "" {
			return since(t, now)
		}
		return "<none>"
	}),
	apiserver.AgeColumn(),
	containersColumn(1, "spec", "jobTemplate", "spec", "template", "spec"),
	imagesColumn(1, "spec", "jobTemplate", "spec", "template", "spec"),
	column("Selector", "string", jobSelectorDescription, 1,
		func(o meta.Object, _ time.Time) any {
			return formatLabelSelector(field(o, "spec", "jobTemplate", "spec", "selector"))
		}),
}
