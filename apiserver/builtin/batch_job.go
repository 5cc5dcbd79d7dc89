package builtin

import (
	"fmt"
	"strconv"
	"time"

	"github.com/kapi-dev/kapi/apiserver"
	"github.com/kapi-dev/kapi/meta"
)

// jobResource is batch/v1 jobs.
func jobResource() apiserver.Resource {
	return apiserver.Resource{Group: "batch", Version: "v1", Kind: "Job", Plural: "jobs", Namespaced: true,
		Categories: []string{"all"}, StatusSubresource: true, PrinterColumns: jobColumns, GenericDelete: true, Strategy: jobStrategy{},
		SelectableFields: []string{"status.successful"},
		FieldValues: func(o meta.Object) map[string]string {
			return map[string]string{"status.successful": strconv.FormatInt(integer(o, "status", "succeeded"), 10)}
		}}
}

// jobStrategy is what a Job does differently.
type jobStrategy struct{ apiserver.GenericStrategy }

// Default mirrors SetDefaults_Job: one completion at a time, six retries
// (all of them when retried per index), non-indexed, running, pods
// replaced once terminating or failed (failed only under a pod failure
// policy), a generated selector; pod template defaults.
func (jobStrategy) Default(o meta.Object) {
	spec := obj(o, "spec")
	_, hasCompletions := spec["completions"]
	if _, hasParallelism := spec["parallelism"]; !hasCompletions && !hasParallelism {
		spec["completions"] = int64(1)
	}
	setDefault(spec, "parallelism", int64(1))
	if _, ok := spec["backoffLimitPerIndex"]; ok {
		setDefault(spec, "backoffLimit", int64(2147483647))
	} else {
		setDefault(spec, "backoffLimit", int64(6))
	}
	template := obj(spec, "template")
	if labels, ok := field(template, "metadata", "labels").(map[string]any); ok && len(o.Labels()) == 0 {
		o.SetMetadataField("labels", meta.DeepCopyValue(labels))
	}
	setDefault(spec, "completionMode", "NonIndexed")
	setDefault(spec, "suspend", false)
	if policy, ok := spec["podFailurePolicy"].(map[string]any); ok {
		for _, r := range meta.AsList(policy["rules"]) {
			rule, _ := r.(map[string]any)
			for _, p := range meta.AsList(rule["onPodConditions"]) {
				if pm, ok := p.(map[string]any); ok {
					setDefault(pm, "status", "True")
				}
			}
		}
		setDefault(spec, "podReplacementPolicy", "Failed")
	}
	setDefault(spec, "podReplacementPolicy", "TerminatingOrFailed")
	setDefault(spec, "manualSelector", false)
	defaultPodSpec(obj(template, "spec"))
}

// PrepareForCreate gives a job its generated selector and the pod labels
// it matches (the job's uid and name, under both label names), unless the
// selector is manual; the job's labels default to its pods'.
func (jobStrategy) PrepareForCreate(_ *apiserver.Write, o meta.Object) {
	spec := obj(o, "spec")
	if !flag(spec["manualSelector"], false) {
		tmd := obj(obj(spec, "template"), "metadata")
		labels := obj(tmd, "labels")
		for _, k := range []string{"job-name", "batch.kubernetes.io/job-name"} {
			setDefault(labels, k, o.Name())
		}
		for _, k := range []string{"controller-uid", "batch.kubernetes.io/controller-uid"} {
			setDefault(labels, k, o.UID())
		}
		setDefault(obj(obj(spec, "selector"), "matchLabels"), "batch.kubernetes.io/controller-uid", o.UID())
		if len(o.Labels()) == 0 {
			o.SetMetadataField("labels", meta.DeepCopyValue(labels))
		}
	}
	o["status"] = map[string]any{}
}

var jobColumns = []apiserver.PrinterColumn{
	column("Status", "string", "Status of the job.", 0, func(o meta.Object, _ time.Time) any {
		conditions := map[string]string{}
		for _, c := range meta.AsList(field(o, "status", "conditions")) {
			m, _ := c.(map[string]any)
			t, _ := m["type"].(string)
			if _, seen := conditions[t]; !seen {
				conditions[t], _ = m["status"].(string)
			}
		}
		switch {
		case conditions["Complete"] == "True":
			return "Complete"
		case conditions["Failed"] == "True":
			return "Failed"
		case o.DeletionTimestamp() != "":
			return "Terminating"
		case conditions["Suspended"] == "True":
			return "Suspended"
		case conditions["FailureTarget"] == "True":
			return "FailureTarget"
		}
		return "Running"
	}),
	column("Completions", "string", propertyDoc("io.k8s.api.batch.v1.JobStatus", "succeeded"), 0,
		func(o meta.Object, _ time.Time) any {
			succeeded := integer(o, "status", "succeeded")
			if c, ok := meta.AsInt64(field(o, "spec", "completions")); ok {
				return fmt.Sprintf("%d/%d", succeeded, c)
			}
			if p := integer(o, "spec", "parallelism"); p > 1 {
				return fmt.Sprintf("%d/1 of %d", succeeded, p)
			}
			return fmt.Sprintf("%d/1", succeeded)
		}),
	column("Duration", "string", "Time required to complete the job.", 0, func(o meta.Object, now time.Time) any {
		start, err := time.Parse(time.RFC3339, str(o, "status", "startTime"))
		if err != nil {
			return ""
		}
		if end, err := time.Parse(time.RFC3339, str(o, "status", "completionTime")); err == nil {
			return apiserver.HumanDuration(end.Sub(start))
		}
		return apiserver.HumanDuration(now.Sub(start))
	}),
	apiserver.AgeColumn(),
	containersColumn(1, "spec", "template", "spec"),
	imagesColumn(1, "spec", "template", "spec"),
	column("Selector", "string", propertyDoc("io.k8s.api.batch.v1.JobSpec", "selector"), 1,
		func(o meta.Object, _ time.Time) any { return formatLabelSelector(field(o, "spec", "selector")) }),
}
