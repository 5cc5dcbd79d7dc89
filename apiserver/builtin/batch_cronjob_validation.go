package builtin

import (
	"fmt"
	"strings"

	"github.com/kapi-dev/kapi/apiserver"
	"github.com/kapi-dev/kapi/meta"
)

// Validate is kube's ValidateCronJobCreate: the spec, then a name short
// enough for the jobs the controller names after it (name + "-" + a
// ten-digit time fits a 63-character label).
func (cronJobStrategy) Validate(w *apiserver.Write, o meta.Object) meta.FieldErrors {
	e := fieldErrs{release: w.Release()}
	e.cronJobSpec("spec", asMap(o["spec"]), nil)
	if name := o.Name(); len(name) > 52 {
		e.invalid("metadata.name", name, "must be no more than 52 characters")
	}
	return e.all()
}

// ValidateUpdate is kube's ValidateCronJobUpdate (no name length: older
// cron jobs with longer names stay updatable); a status write is not
// validated.
func (cronJobStrategy) ValidateUpdate(w *apiserver.Write, o, old meta.Object) meta.FieldErrors {
	if w.Subresource != "" {
		return nil
	}
	e := fieldErrs{release: w.Release()}
	e.cronJobSpec("spec", asMap(o["spec"]), asMap(old["spec"]))
	return e.all()
}

// cronJobSpec is kube's validateCronJobSpec; oldSpec is nil on create.
func (e *fieldErrs) cronJobSpec(path string, spec, oldSpec map[string]any) {
	schedule, _ := spec["schedule"].(string)
	if schedule == "" {
		e.declarativeRequired(path + ".schedule")
	} else {
		if msg := cronScheduleError(schedule); msg != "" {
			e.invalid(path+".schedule", schedule, msg)
		}
		oldSchedule, _ := oldSpec["schedule"].(string)
		allowTZ := strings.Contains(oldSchedule, "TZ") // kept for cron jobs from before timeZone
		switch {
		case allowTZ && strings.Contains(schedule, "TZ") && spec["timeZone"] != nil:
			e.invalid(path+".schedule", schedule, "cannot use both timeZone field and TZ or CRON_TZ in schedule")
		case !allowTZ && strings.Contains(schedule, "TZ"):
			e.invalid(path+".schedule", schedule, "cannot use TZ or CRON_TZ in schedule, use timeZone field instead")
		}
	}
	e.nonNegative(path+".startingDeadlineSeconds", spec["startingDeadlineSeconds"])
	if oldSpec == nil || !equalJSON(spec["timeZone"], oldSpec["timeZone"]) {
		e.timeZone(path+".timeZone", spec["timeZone"])
	}
	switch p, _ := spec["concurrencyPolicy"].(string); p {
	case "Allow", "Forbid", "Replace":
	case "":
		e.required(path + ".concurrencyPolicy")
	default:
		e.notSupported(path+".concurrencyPolicy", p, "Allow", "Forbid", "Replace")
	}
	e.jobTemplateSpec(path+".jobTemplate", asMap(spec["jobTemplate"]))
	e.nonNegative(path+".successfulJobsHistoryLimit", spec["successfulJobsHistoryLimit"])
	e.nonNegative(path+".failedJobsHistoryLimit", spec["failedJobsHistoryLimit"])
}

// jobTemplateSpec is kube's ValidateJobTemplateSpec: a job spec whose
// selector the job controller generates.
func (e *fieldErrs) jobTemplateSpec(path string, tmpl map[string]any) {
	spec := asMap(tmpl["spec"])
	e.jobSpec(path+".spec", spec)
	if sel, ok := spec["selector"].(map[string]any); ok {
		e.invalid(path+".spec.selector", labelSelectorValue((sel)), "`selector` will be auto-generated")
	}
	if spec["manualSelector"] == true {
		e.notSupported(path+".spec.manualSelector", true, "nil", "false")
	}
}

// jobSpec is the part of kube's validateJobSpec users hit, shared by Jobs
// and the job templates of CronJobs: counts, completion mode, per-index
// backoff, pod replacement, the pod template and its restart policy
// (podFailurePolicy and successPolicy rules are not checked).
func (e *fieldErrs) jobSpec(path string, spec map[string]any) {
	for _, f := range []string{"parallelism", "completions", "activeDeadlineSeconds", "backoffLimit",
		"ttlSecondsAfterFinished", "backoffLimitPerIndex"} {
		e.nonNegative(path+"."+f, spec[f])
	}
	maxFailed, hasMaxFailed := meta.AsInt64(spec["maxFailedIndexes"])
	_, hasPerIndex := meta.AsInt64(spec["backoffLimitPerIndex"])
	if hasMaxFailed {
		e.nonNegative(path+".maxFailedIndexes", maxFailed)
		if !hasPerIndex {
			e.list = append(e.list, meta.FieldError{Type: meta.ErrorRequired, Field: path + ".backoffLimitPerIndex",
				Detail: "when maxFailedIndexes is specified"})
		}
	}
	mode, hasMode := spec["completionMode"].(string)
	if hasMode {
		if mode != "NonIndexed" && mode != "Indexed" {
			e.notSupported(path+".completionMode", mode, "NonIndexed", "Indexed")
		}
		if mode == "Indexed" {
			completions, hasCompletions := meta.AsInt64(spec["completions"])
			if !hasCompletions {
				e.list = append(e.list, meta.FieldError{Type: meta.ErrorRequired, Field: path + ".completions",
					Detail: "when completion mode is Indexed"})
			}
			if p, ok := meta.AsInt64(spec["parallelism"]); ok && p > 100000 {
				e.invalid(path+".parallelism", p, "must be less than or equal to 100000 when completion mode is Indexed")
			}
			if hasCompletions && hasMaxFailed && maxFailed > completions {
				e.invalid(path+".maxFailedIndexes", maxFailed, "must be less than or equal to completions")
			}
			if hasMaxFailed && maxFailed > 100000 {
				e.invalid(path+".maxFailedIndexes", maxFailed, "must be less than or equal to 100000")
			}
		}
	}
	if !hasMode || mode == "NonIndexed" {
		if n, ok := meta.AsInt64(spec["backoffLimitPerIndex"]); ok {
			e.invalid(path+".backoffLimitPerIndex", n, "requires indexed completion mode")
		}
		if hasMaxFailed {
			e.invalid(path+".maxFailedIndexes", maxFailed, "requires indexed completion mode")
		}
	}
	if p, ok := spec["podReplacementPolicy"].(string); ok {
		if spec["podFailurePolicy"] != nil {
			if p != "Failed" {
				e.notSupported(path+".podReplacementPolicy", p, "Failed")
			}
		} else if p != "Failed" && p != "TerminatingOrFailed" {
			e.notSupported(path+".podReplacementPolicy", p, "Failed", "TerminatingOrFailed")
		}
	}
	tmpl := asMap(spec["template"])
	e.podTemplate(path+".template", tmpl)
	e.jobRestartPolicy(path+".template.spec.restartPolicy", asMap(tmpl["spec"])["restartPolicy"], spec["podFailurePolicy"] != nil)
}

// jobRestartPolicy: a job's pods end, so they restart OnFailure or Never
// (only Never with a pod failure policy).
func (e *fieldErrs) jobRestartPolicy(path string, v any, failurePolicy bool) {
	switch rp, _ := v.(string); {
	case rp == "" || rp == "Always":
		e.list = append(e.list, meta.FieldError{Type: meta.ErrorRequired, Field: path,
			Detail: fmt.Sprintf("valid values: %q, %q", "OnFailure", "Never")})
	case rp != "OnFailure" && rp != "Never":
		e.notSupported(path, rp, "OnFailure", "Never")
	case failurePolicy && rp != "Never":
		e.invalid(path, rp, `only "Never" is supported when podFailurePolicy is specified`)
	}
}
