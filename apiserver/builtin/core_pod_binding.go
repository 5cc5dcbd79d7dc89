package builtin

import (
	"fmt"
	"net/http"
	"time"

	"github.com/kapi-dev/kapi/apiserver"
	"github.com/kapi-dev/kapi/meta"
	"github.com/kapi-dev/kapi/store"
)

// servePodBinding assigns a pod to a node as a scheduler does (kube's
// BindingREST): spec.nodeName, the binding's annotations and a
// PodScheduled condition, without the update pipeline; 409 when the pod is
// bound or being deleted.
func servePodBinding(c *apiserver.SubresourceCall) (int, meta.Object, error) {
	return bindPod(c.Write, c.Namespace, c.Name, c.Body)
}

// bindPod is pods/binding and core bindings.
func bindPod(w *apiserver.Write, namespace, name string, b meta.Object) (int, meta.Object, error) {
	if b.Name() != name {
		return 0, nil, meta.BadRequest("name in URL does not match name in Binding object")
	}
	target := asMap(b["target"])
	var errs meta.FieldErrors
	if k, _ := target["kind"].(string); k != "" && k != "Node" {
		errs = append(errs, meta.FieldError{Type: meta.ErrorNotSupported, Field: "target.kind", Value: k,
			Detail: `supported values: "Node", "<empty>"`})
	}
	node, _ := target["name"].(string)
	if node == "" {
		errs = append(errs, meta.FieldError{Type: meta.ErrorRequired, Field: "target.name"})
	}
	if len(errs) > 0 {
		// kube returns the validation's aggregate as a plain error: a 500
		// without reason.
		return 0, nil, &meta.Status{Kind: "Status", APIVersion: "v1", Status: "Failure", Message: errs.Error(), Code: 500}
	}
	uid, rv := b.UID(), b.ResourceVersion()
	key := store.KubeKey("", "pods", namespace, name)
	_, err := w.Update(podsGR, namespace, name, func(pod meta.Object) (meta.Object, error) {
		if err := storagePrecondition(key, pod, uid, rv); err != nil {
			return nil, err
		}
		if pod.DeletionTimestamp() != "" {
			return nil, bindingConflict(name, fmt.Sprintf("pod %s is being deleted, cannot be assigned to a host", name))
		}
		if bound := str(pod, "spec", "nodeName"); bound != "" {
			return nil, bindingConflict(name, fmt.Sprintf("pod %s is already assigned to node %q", name, bound))
		}
		if len(meta.AsList(field(pod, "spec", "schedulingGates"))) > 0 {
			return nil, bindingConflict(name, fmt.Sprintf("pod %s has non-empty .spec.schedulingGates", name))
		}
		obj(pod, "spec")["nodeName"] = node
		if ann := asMap(b.Metadata()["annotations"]); len(ann) > 0 {
			podAnn := obj(pod.MetadataForWrite(), "annotations")
			for k, v := range ann {
				podAnn[k] = v
			}
		}
		setPodCondition(pod, map[string]any{"type": "PodScheduled", "status": "True"}, w.Now)
		return pod, nil
	})
	if err != nil {
		return 0, nil, err
	}
	return http.StatusCreated, successStatus(http.StatusCreated), nil
}

func bindingConflict(name, why string) error {
	return meta.Conflict(meta.GroupResource{Resource: "pods/binding"}, name, why)
}

// storagePrecondition checks a uid and resourceVersion a binding carries,
// failing as kube's storage does.
func storagePrecondition(key string, pod meta.Object, uid, rv string) error {
	why := ""
	switch {
	case uid != "" && uid != pod.UID():
		why = fmt.Sprintf("Precondition failed: UID in precondition: %s, UID in object meta: %s", uid, pod.UID())
	case rv != "" && rv != pod.ResourceVersion():
		why = fmt.Sprintf("Precondition failed: ResourceVersion in precondition: %s, ResourceVersion in object meta: %s", rv,
			pod.ResourceVersion())
	default:
		return nil
	}
	return meta.Conflict(podsGR, pod.Name(), fmt.Sprintf(
		"StorageError: invalid object, Code: 4, Key: %s, ResourceVersion: 0, AdditionalErrorMsg: %s", key, why))
}

// setPodCondition sets a condition as kube's UpdatePodCondition: its
// lastTransitionTime moves only when its status changes.
func setPodCondition(pod meta.Object, cond map[string]any, now time.Time) {
	status := obj(pod, "status")
	list := meta.AsList(status["conditions"])
	for i, c := range list {
		old := asMap(c)
		if old["type"] != cond["type"] {
			continue
		}
		next := map[string]any{"lastProbeTime": old["lastProbeTime"], "lastTransitionTime": old["lastTransitionTime"]}
		for k, v := range cond {
			next[k] = v
		}
		if old["status"] != cond["status"] {
			next["lastTransitionTime"] = meta.FormatTime(now)
		}
		list[i] = next
		status["conditions"] = list
		return
	}
	next := map[string]any{"lastProbeTime": nil, "lastTransitionTime": meta.FormatTime(now)}
	for k, v := range cond {
		next[k] = v
	}
	status["conditions"] = append(list, next)
}
