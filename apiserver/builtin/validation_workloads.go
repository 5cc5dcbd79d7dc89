package builtin

import (
	"github.com/kapi-dev/kapi/apiserver"
	"github.com/kapi-dev/kapi/meta"
)

// Checks the workload kinds share (Deployment, ReplicaSet, DaemonSet,
// StatefulSet, ReplicationController, Job): their selector and pod
// template, as kube's pkg/apis/apps and batch validation makes them.

// specWrite reports whether a write reaches a workload's spec: the object
// itself or /scale (a status write keeps the spec it would check).
func specWrite(w *apiserver.Write) bool { return w.Subresource == "" || w.Subresource == "scale" }

// workloadSelector: a workload's selector is required, valid, not empty.
func (e *fieldErrs) workloadSelector(path string, spec map[string]any, kind string) {
	sel, ok := spec["selector"].(map[string]any)
	if !ok {
		e.required(path + ".selector")
		return
	}
	e.labelSelector(path+".selector", sel)
	if len(asMap(sel["matchLabels"]))+len(meta.AsList(sel["matchExpressions"])) == 0 {
		e.invalid(path+".selector", labelSelectorValue((sel)), "empty selector is invalid for "+kind)
	}
}

// replicaTemplate is kube's ValidatePodTemplateSpecForReplicaSet: labels
// the selector selects, a valid pod template that always restarts.
func (e *fieldErrs) replicaTemplate(path string, spec map[string]any) {
	tmpl := asMap(spec["template"])
	sel := spec["selector"]
	labels := asMap(tmpl["metadata"])["labels"]
	if sel == nil || len(asMap(asMap(sel)["matchLabels"]))+len(meta.AsList(asMap(sel)["matchExpressions"])) > 0 {
		if !selectorMatches(sel, labels) {
			e.invalid(path+".metadata.labels", stringMapValue((labels)), "`selector` does not match template `labels`")
		}
	}
	e.podTemplate(path, tmpl)
	podSpec := asMap(tmpl["spec"])
	if rp, _ := podSpec["restartPolicy"].(string); rp != "Always" {
		e.notSupported(path+".spec.restartPolicy", rp, "Always")
	}
	if _, ok := podSpec["activeDeadlineSeconds"]; ok {
		e.forbidden(path+".spec.activeDeadlineSeconds", "activeDeadlineSeconds in ReplicaSet is not Supported")
	}
}

// immutableSelector is kube's ValidateImmutableField on a selector.
func (e *fieldErrs) immutableSelector(path string, sel, old any) {
	if !equalJSON(sel, old) {
		e.invalid(path, labelSelectorValue((sel)), "field is immutable")
	}
}
