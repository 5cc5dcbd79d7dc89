package builtin

import (
	"context"

	"github.com/kapi-dev/kapi/apiserver"
	"github.com/kapi-dev/kapi/meta"
)

// kube-apiserver's scheduling/bootstrap-system-priority-classes post-start
// hook stores the two system PriorityClasses; its storage refuses to
// delete them.

// systemPriorityClassDescriptions are kube's descriptions of its classes.
var systemPriorityClassDescriptions = map[string]string{
	"system-node-critical":    "Used for system critical pods that must not be moved from their current node.",
	"system-cluster-critical": "Used for system critical pods that must run in the cluster, but can be moved to another node if necessary.",
}

// bootstrapSystemPriorityClasses stores system-node-critical and
// system-cluster-critical as kube's hook leaves them (stored directly, as
// the default/kubernetes Service is); existing ones stay.
func bootstrapSystemPriorityClasses(_ context.Context, s *apiserver.Server) error {
	now := meta.FormatTime(s.Now())
	empty := map[string]any{}
	for _, name := range []string{"system-node-critical", "system-cluster-critical"} {
		pc := meta.Object{"apiVersion": "scheduling.k8s.io/v1", "kind": "PriorityClass",
			"metadata": map[string]any{"name": name, "generation": int64(1),
				"managedFields": []any{map[string]any{"manager": "kube-apiserver", "operation": "Update",
					"apiVersion": "scheduling.k8s.io/v1", "time": now, "fieldsType": "FieldsV1", "fieldsV1": map[string]any{
						"f:description": empty, "f:preemptionPolicy": empty, "f:value": empty}}}},
			"description": systemPriorityClassDescriptions[name], "preemptionPolicy": "PreemptLowerPriority",
			"value": systemPriorityClasses[name]}
		if err := s.Preload(priorityClassesGR, pc); err != nil {
			if meta.IsNotFound(err) {
				return nil // a server without PriorityClasses
			}
			return err
		}
	}
	return nil
}

// PrepareForDelete refuses a DELETE of a system class, as kube's storage
// does. kube's deletecollection bypasses that check and removes them;
// kapi's, which deletes each object through this hook, refuses too.
func (priorityClassStrategy) PrepareForDelete(_ *apiserver.Write, o meta.Object) (bool, error) {
	if _, ok := systemPriorityClasses[o.Name()]; ok {
		return false, meta.Forbidden(priorityClassesGR, o.Name(), "this is a system priority class and cannot be deleted")
	}
	return false, nil
}
