package builtin

import (
	"fmt"
	"math"
	"net/http"
	"reflect"
	"strconv"
	"strings"
	"time"

	"github.com/kapi-dev/kapi/apiserver"
	"github.com/kapi-dev/kapi/meta"
	"github.com/kapi-dev/kapi/selectors"
	"github.com/kapi-dev/kapi/store"
)

// pods/eviction as kube's EvictionREST (pkg/registry/core/pod/storage/
// eviction.go), with the PodDisruptionBudget's status brought up to date
// first as kube's disruption controller would have it (kapi runs no
// controller): the pods it selects, how many are healthy, how many it
// needs, how many may go.

var pdbGR = meta.GroupResource{Group: "policy", Resource: "poddisruptionbudgets"}

// pdbDeletionTimeout is how long a pod the eviction let go counts as
// going, as kube's disruption controller's DeletionTimeout.
const pdbDeletionTimeout = 2 * time.Minute

// servePodEviction deletes a pod unless its disruption budget forbids it
// (429).
func servePodEviction(c *apiserver.SubresourceCall) (int, meta.Object, error) {
	ev := c.Body
	if ev.Name() != c.Name {
		return 0, nil, meta.BadRequest("name in URL does not match name in Eviction object")
	}
	do := asMap(ev["deleteOptions"])
	if do["ignoreStoreReadErrorWithClusterBreakingPotential"] == true {
		return 0, nil, meta.Invalid(meta.GroupKind{Group: "policy", Kind: "Eviction"}, c.Name, meta.FieldErrors{{
			Type: meta.ErrorInvalid, Field: "deleteOptions.ignoreStoreReadErrorWithClusterBreakingPotential", Value: true,
			Detail: "can not be set for pod eviction, try after removing the option"}})
	}
	if list := stringList(do["dryRun"]); len(list) > 0 {
		if q := c.Query["dryRun"]; len(q) > 0 && !reflect.DeepEqual(q, list) {
			return 0, nil, meta.Internal(fmt.Errorf("Non-matching dry-run options in request and content: %v and %v", q, list))
		}
		c.DryRun = true
	}
	var grace *int64
	if g, ok := meta.AsInt64(do["gracePeriodSeconds"]); ok {
		grace = &g
	}
	pre := store.Preconditions{}
	if p := asMap(do["preconditions"]); p != nil {
		pre.UID, _ = p["uid"].(string)
		pre.ResourceVersion, _ = p["resourceVersion"].(string)
	}
	cur, err := c.Object()
	if err != nil {
		return 0, nil, err
	}
	pod := cur.Data()
	phase := str(pod, "status", "phase")
	if phase == "Succeeded" || phase == "Failed" || phase == "Pending" || pod.DeletionTimestamp() != "" {
		p := pre
		if phase != "Succeeded" && phase != "Failed" && pod.DeletionTimestamp() == "" && p.ResourceVersion == "" {
			p.ResourceVersion = pod.ResourceVersion()
		}
		return evictPod(c, grace, p)
	}
	pdbs, err := pdbsOf(c.Write, pod)
	if err != nil {
		return 0, nil, err
	}
	switch len(pdbs) {
	case 0:
		return evictPod(c, grace, pre)
	case 1:
	default:
		return http.StatusInternalServerError, meta.Object{"kind": "Status", "apiVersion": "v1", "metadata": map[string]any{},
			"status": "Failure", "code": int64(500),
			"message": "This pod has more than one PodDisruptionBudget, which the eviction subresource does not support."}, nil
	}
	pdb := pdbs[0]
	status, err := pdbStatus(c.Write, pdb, c.Now)
	if err != nil {
		return 0, nil, err
	}
	healthyEnough := false
	if !podReady(pod) {
		policy, _ := field(pdb, "spec", "unhealthyPodEvictionPolicy").(string)
		current, _ := meta.AsInt64(status["currentHealthy"])
		desired, _ := meta.AsInt64(status["desiredHealthy"])
		healthyEnough = policy == "AlwaysAllow" || current >= desired && desired > 0
	}
	if !healthyEnough {
		if err := takeDisruption(pdb.Name(), status, pod.Name(), c.Now); err != nil {
			_ = writePDBStatus(c.Write, pdb, status) // the controller's view stands
			return 0, nil, err
		}
	}
	if err := writePDBStatus(c.Write, pdb, status); err != nil {
		return 0, nil, err
	}
	p := pre
	if healthyEnough {
		p.ResourceVersion = pod.ResourceVersion()
	}
	code, out, err := evictPod(c, grace, p)
	if err != nil && meta.IsConflict(err) && healthyEnough && pre.ResourceVersion == "" {
		return 0, nil, tooManyRequests(pdb.Name(), fmt.Sprintf("The disruption budget %s is still being processed by the server.", pdb.Name()), 10)
	}
	return code, out, err
}

// evictPod marks the pod a DisruptionTarget and deletes it, as kube's
// addConditionAndDeletePod.
func evictPod(c *apiserver.SubresourceCall, grace *int64, pre store.Preconditions) (int, meta.Object, error) {
	if !c.DryRun {
		updated, err := c.UpdateObject(func(pod meta.Object) (meta.Object, error) {
			if pre.UID != "" && pre.UID != pod.UID() {
				return nil, meta.Conflict(meta.GroupResource{Resource: "Pod"}, pod.Name(), fmt.Sprintf(
					"the UID in the precondition (%s) does not match the UID in record (%s). The object might have been deleted and then recreated",
					pre.UID, pod.UID()))
			}
			if pre.ResourceVersion != "" && pre.ResourceVersion != pod.ResourceVersion() {
				return nil, meta.Conflict(meta.GroupResource{Resource: "Pod"}, pod.Name(), fmt.Sprintf(
					"the ResourceVersion in the precondition (%s) does not match the ResourceVersion in record (%s). The object might have been modified",
					pre.ResourceVersion, pod.ResourceVersion()))
			}
			setPodCondition(pod, map[string]any{"type": "DisruptionTarget", "status": "True",
				"reason": "EvictionByEvictionAPI", "message": "Eviction API: evicting"}, c.Now)
			return pod, nil
		})
		if err != nil {
			return 0, nil, err
		}
		if pre.ResourceVersion != "" {
			pre.ResourceVersion = updated.Data().ResourceVersion()
		}
	}
	if _, _, err := c.DeleteObject(grace, pre); err != nil {
		return 0, nil, err
	}
	return http.StatusCreated, successStatus(http.StatusCreated), nil
}

func tooManyRequests(pdbName, cause string, retryAfter int) error {
	st := meta.TooManyRequests("Cannot evict pod as it would violate the pod's disruption budget.", retryAfter)
	st.Details.Causes = append(st.Details.Causes, meta.StatusCause{Type: "DisruptionBudget", Message: cause})
	return st
}

// takeDisruption is kube's checkAndDecrement on an up-to-date status: one
// disruption fewer, the pod listed as going.
func takeDisruption(pdbName string, status map[string]any, podName string, now time.Time) error {
	allowed, _ := meta.AsInt64(status["disruptionsAllowed"])
	if allowed < 0 {
		return meta.Forbidden(meta.GroupResource{Group: "policy", Resource: "poddisruptionbudget"}, pdbName,
			"pdb disruptions allowed is negative")
	}
	if len(asMap(status["disruptedPods"])) > 2000 {
		return meta.Forbidden(meta.GroupResource{Group: "policy", Resource: "poddisruptionbudget"}, pdbName,
			"DisruptedPods map too big - too many evictions not confirmed by PDB controller")
	}
	if allowed == 0 {
		desired, _ := meta.AsInt64(status["desiredHealthy"])
		current, _ := meta.AsInt64(status["currentHealthy"])
		return tooManyRequests(pdbName, fmt.Sprintf("The disruption budget %s needs %d healthy pods and has %d currently",
			pdbName, desired, current), 0)
	}
	status["disruptionsAllowed"] = allowed - 1
	if allowed-1 == 0 {
		setDisruptionAllowedCondition(status, now)
	}
	disrupted := asMap(status["disruptedPods"])
	if disrupted == nil {
		disrupted = map[string]any{}
	}
	disrupted[podName] = meta.FormatTime(now)
	status["disruptedPods"] = disrupted
	return nil
}

// writePDBStatus stores a budget's status through the server's own
// pipeline, as kube's eviction writes it (manager kube-apiserver), unless
// it is unchanged or the eviction is a dry run.
func writePDBStatus(w *apiserver.Write, pdb meta.Object, status map[string]any) error {
	if w.DryRun || reflect.DeepEqual(map[string]any(asMap(pdb["status"])), status) {
		return nil
	}
	next := pdb.DeepCopy()
	next["status"] = status
	path := "/apis/policy/v1/namespaces/" + pdb.Namespace() + "/poddisruptionbudgets/" + pdb.Name() + "/status"
	_, _, err := w.Do(http.MethodPut, path, next)
	return err
}

// pdbsOf are the PodDisruptionBudgets of the pod's namespace selecting it
// (none when the server serves none).
func pdbsOf(w *apiserver.Write, pod meta.Object) ([]meta.Object, error) {
	list, err := w.List(pdbGR, pod.Namespace())
	if meta.IsNotFound(err) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var out []meta.Object
	for _, o := range list {
		if selectorMatches(field(o.Data(), "spec", "selector"), pod.Metadata()["labels"]) {
			out = append(out, o.Data())
		}
	}
	return out, nil
}

// pdbStatus is what kube's disruption controller makes of a budget's
// status now: expected and healthy pods, disruptions allowed, the pods
// still going, the DisruptionAllowed condition.
func pdbStatus(w *apiserver.Write, pdb meta.Object, now time.Time) (map[string]any, error) {
	old := asMap(pdb["status"])
	status := map[string]any{"observedGeneration": pdb.Generation()}
	if conds := meta.AsList(old["conditions"]); conds != nil {
		status["conditions"] = meta.DeepCopyValue(conds)
	}
	pods, err := podsOf(w, pdb.Namespace(), field(pdb, "spec", "selector"))
	if err != nil {
		return nil, err
	}
	expected, desired, err := expectedPods(w, pdb, pods)
	if err != nil {
		// kube's failSafe: no disruption until the controller can count.
		for k, v := range old {
			if k != "conditions" {
				status[k] = meta.DeepCopyValue(v)
			}
		}
		status["disruptionsAllowed"] = int64(0)
		setCondition(status, "False", "SyncFailed", err.Error(), now)
		return status, nil
	}
	disrupted := map[string]any{}
	for name, t := range asMap(old["disruptedPods"]) {
		when, err := time.Parse(time.RFC3339, fmt.Sprint(t))
		if err != nil || !when.Add(pdbDeletionTimeout).After(now) {
			continue
		}
		for _, p := range pods {
			if p.Data().Name() == name && p.Data().DeletionTimestamp() == "" {
				disrupted[name] = t
			}
		}
	}
	healthy := int64(0)
	for _, p := range pods {
		if p.Data().DeletionTimestamp() != "" || disrupted[p.Data().Name()] != nil {
			continue
		}
		if podReady(p.Data()) {
			healthy++
		}
	}
	allowed := healthy - desired
	if expected <= 0 || allowed <= 0 {
		allowed = 0
	}
	status["currentHealthy"], status["desiredHealthy"], status["expectedPods"] = healthy, desired, expected
	status["disruptionsAllowed"] = allowed
	if len(disrupted) > 0 {
		status["disruptedPods"] = disrupted
	}
	setDisruptionAllowedCondition(status, now)
	return status, nil
}

// expectedPods is kube's getExpectedPodCount: an integer minAvailable
// counts the selected pods; a percentage, or maxUnavailable, the replicas
// of the pods' controllers.
func expectedPods(w *apiserver.Write, pdb meta.Object, pods []*store.Object) (expected, desired int64, err error) {
	spec := asMap(pdb["spec"])
	if maxU, ok := spec["maxUnavailable"]; ok && maxU != nil {
		if expected, err = controllersScale(w, pods); err != nil {
			return 0, 0, err
		}
		n, err := scaledValue(maxU, expected)
		if err != nil {
			return 0, 0, err
		}
		return expected, max(0, expected-n), nil
	}
	minA, ok := spec["minAvailable"]
	if !ok || minA == nil {
		return 0, 0, nil
	}
	if n, ok := meta.AsInt64(minA); ok {
		return int64(len(pods)), n, nil
	}
	if expected, err = controllersScale(w, pods); err != nil {
		return 0, 0, err
	}
	n, err := scaledValue(minA, expected)
	return expected, n, err
}

// scaledValue is an int-or-percent of total, a percentage rounded up.
func scaledValue(v any, total int64) (int64, error) {
	if n, ok := meta.AsInt64(v); ok {
		return n, nil
	}
	s, _ := v.(string)
	pct, err := strconv.Atoi(strings.TrimSuffix(s, "%"))
	if err != nil || !strings.HasSuffix(s, "%") {
		return 0, fmt.Errorf("invalid value for IntOrString: invalid value %q: %v", s, err)
	}
	return int64(math.Ceil(float64(pct) * float64(total) / 100)), nil
}

// controllersScale adds up the replicas of the controllers of pods, as
// kube's getExpectedScale: a ReplicaSet's (its Deployment's when it has
// one), a StatefulSet's, a ReplicationController's.
func controllersScale(w *apiserver.Write, pods []*store.Object) (int64, error) {
	scales := map[string]int64{}
	for _, p := range pods {
		ref := controllerRef(p.Data())
		if ref == nil {
			continue // kube counts unmanaged pods out, with a warning event
		}
		uid, _ := ref["uid"].(string)
		if _, ok := scales[uid]; ok {
			continue
		}
		uid, n, found := controllerReplicas(w, p.Data().Namespace(), ref)
		if !found {
			return 0, fmt.Errorf("found no controllers for pod %q", p.Data().Name())
		}
		scales[uid] = n
	}
	var total int64
	for _, n := range scales {
		total += n
	}
	return total, nil
}

// controllerReplicas finds the controller ref names and its replicas.
func controllerReplicas(w *apiserver.Write, ns string, ref map[string]any) (string, int64, bool) {
	name, _ := ref["name"].(string)
	uid, _ := ref["uid"].(string)
	gr := map[string]meta.GroupResource{
		"apps/v1/ReplicaSet":       {Group: "apps", Resource: "replicasets"},
		"apps/v1/StatefulSet":      {Group: "apps", Resource: "statefulsets"},
		"v1/ReplicationController": {Resource: "replicationcontrollers"},
		"apps/v1/Deployment":       {Group: "apps", Resource: "deployments"},
	}[fmt.Sprint(ref["apiVersion"], "/", ref["kind"])]
	if gr.Resource == "" {
		return "", 0, false
	}
	o, err := w.Get(gr, ns, name)
	if err != nil || o.Data().UID() != uid {
		return "", 0, false
	}
	if gr.Resource == "replicasets" {
		if owner := controllerRef(o.Data()); owner != nil && owner["kind"] == "Deployment" {
			if dUID, n, ok := controllerReplicas(w, ns, owner); ok {
				return dUID, n, true
			}
		}
	}
	n, ok := meta.AsInt64(field(o.Data(), "spec", "replicas"))
	if !ok {
		n = 1
	}
	return uid, n, true
}

func controllerRef(o meta.Object) map[string]any {
	for _, r := range meta.AsList(o.Metadata()["ownerReferences"]) {
		if m := asMap(r); m["controller"] == true {
			return m
		}
	}
	return nil
}

// podReady is a Ready condition that is True.
func podReady(pod meta.Object) bool {
	for _, c := range meta.AsList(field(pod, "status", "conditions")) {
		if m := asMap(c); m["type"] == "Ready" {
			return m["status"] == "True"
		}
	}
	return false
}

// setDisruptionAllowedCondition is kube's UpdateDisruptionAllowedCondition.
func setDisruptionAllowedCondition(status map[string]any, now time.Time) {
	if n, _ := meta.AsInt64(status["disruptionsAllowed"]); n > 0 {
		setCondition(status, "True", "SufficientPods", "", now)
	} else {
		setCondition(status, "False", "InsufficientPods", "", now)
	}
}

// setCondition sets the DisruptionAllowed condition as metav1's
// SetStatusCondition: lastTransitionTime moves with its status.
func setCondition(status map[string]any, value, reason, message string, now time.Time) {
	cond := map[string]any{"type": "DisruptionAllowed", "status": value, "reason": reason, "message": message,
		"observedGeneration": status["observedGeneration"], "lastTransitionTime": meta.FormatTime(now)}
	list := meta.AsList(status["conditions"])
	for i, c := range list {
		old := asMap(c)
		if old["type"] != "DisruptionAllowed" {
			continue
		}
		if old["status"] == value && old["lastTransitionTime"] != nil {
			cond["lastTransitionTime"] = old["lastTransitionTime"]
		}
		list[i] = cond
		status["conditions"] = list
		return
	}
	status["conditions"] = append(list, cond)
}

// podsOf lists the pods of a namespace a label selector (in its
// metav1.LabelSelector form) selects; a nil selector selects none, an empty
// one all, as a policy/v1 PodDisruptionBudget's.
func podsOf(w *apiserver.Write, namespace string, selector any) ([]*store.Object, error) {
	if selector == nil {
		return nil, nil
	}
	sel, err := selectors.LabelSelectorFromObject(selector)
	if err != nil {
		return nil, nil
	}
	pods, err := w.List(podsGR, namespace)
	if err != nil {
		return nil, err
	}
	var out []*store.Object
	for _, p := range pods {
		if sel.Matches(p.Labels()) {
			out = append(out, p)
		}
	}
	return out, nil
}
