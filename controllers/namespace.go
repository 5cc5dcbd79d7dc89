package controllers

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/kapi-dev/kapi/apiserver"
	"github.com/kapi-dev/kapi/meta"
	"github.com/kapi-dev/kapi/store"
)

// namespaceFinalizer is the spec finalizer the namespace controller owns.
const namespaceFinalizer = "kubernetes"

// finalizerEstimateSeconds is kube's guess of how long objects held by
// finalizers take to go: a namespace waiting for such objects is not done.
const finalizerEstimateSeconds = 15

// namespaceController is kube-controller-manager's namespace controller: a
// namespace being deleted has every object of every namespaced kind it
// serves deleted (custom resources included), pods first, with propagation
// Background, as kube's does through each kind's deletecollection; its
// status conditions say what remains and why (kube's five conditions,
// messages and reasons); once nothing remains its "kubernetes" finalizer
// is removed through /finalize, which deletes it when it was the last one.
//
// As kube's controller, it waits a while (Options.NamespaceDeletionDelay,
// kube's 5 s) after it sees a deletion before its first pass: kube waits
// for HA API servers and etcd members to see it, and clients rely on the
// time it leaves them (reading the Terminating namespace, finalizing it
// themselves). Kube then polls while content remains; kapi passes again
// when something in the namespace changes (an object held by a finalizer
// goes).
type namespaceController struct {
	srv    *apiserver.Server
	client *client
	// terminating are the namespaces being deleted, as observe saw them:
	// a write in one of them queues it again.
	terminating map[string]bool
	// now and delay: a namespace first seen marked for deletion is worked
	// on once now reads delay later.
	now   func() time.Time
	delay time.Duration
}

func newNamespaceController(srv *apiserver.Server, now func() time.Time, delay time.Duration) *namespaceController {
	return &namespaceController{srv: srv, client: newClient(srv, "namespace-controller"), terminating: map[string]bool{},
		now: now, delay: delay}
}

func (c *namespaceController) workers() int { return 1 }

func (c *namespaceController) prefixes() []string {
	ns, _ := c.srv.Served().ForKind(namespaceKind)
	return []string{ns.Prefix("")}
}

func (c *namespaceController) reset() { clear(c.terminating) }

// observe queues a namespace being deleted, after the controller's delay
// the first time it sees it so, and again whenever something in it
// changes (nothing while it waits out the delay).
func (c *namespaceController) observe(q *queue, events []store.Event) {
	served := c.srv.Served()
	queued := "" // the namespace this batch queued last: a teardown's events come by the thousand
	for _, ev := range events {
		r, ns, name, ok := served.ForKey(ev.Object.Key())
		if !ok {
			continue
		}
		if r.Group == "" && r.Kind == namespaceKind.Kind {
			if ev.Type != store.Deleted && ev.Object.Data().DeletionTimestamp() != "" {
				if !c.terminating[name] && c.delay > 0 {
					q.addAfter(name, c.waitUntil(ev.Object.Data()))
				} else {
					q.add(name)
				}
				c.terminating[name] = true
			} else {
				delete(c.terminating, name)
			}
			continue
		}
		if ns != "" && ns != queued && c.terminating[ns] {
			q.add(ns)
			queued = ns
		}
	}
}

// waitUntil is when the first pass over a namespace marked for deletion
// may start: the controller's delay after it sees the deletion, or after
// the deletionTimestamp when that is earlier (a deletion seen late, or
// the clock moved on before it was seen).
func (c *namespaceController) waitUntil(ns meta.Object) time.Time {
	at := c.now().Add(c.delay)
	if deleted, err := time.Parse(time.RFC3339, ns.DeletionTimestamp()); err == nil && deleted.Add(c.delay).Before(at) {
		at = deleted.Add(c.delay)
	}
	return at
}

// sync makes one pass over a namespace being deleted.
func (c *namespaceController) sync(ctx context.Context, item any) error {
	name := item.(string)
	served := c.srv.Served()
	nsRes, _ := served.ForKind(namespaceKind)
	cur, err := c.srv.Store().Get(ctx, nsRes.Key("", name))
	if errors.Is(err, store.ErrNotFound) {
		return nil
	}
	if err != nil {
		return err
	}
	ns := cur.Data()
	if ns.DeletionTimestamp() == "" {
		return nil
	}
	if phase, _ := meta.NestedField(ns, "status", "phase"); phase != "Terminating" {
		next := ns.DeepCopy()
		setNested(next, "Terminating", "status", "phase")
		if ns, err = c.writeNamespace(ctx, nsRes, name, "/status", next); err != nil {
			return notFoundIsDone(err)
		}
	}
	if len(specFinalizers(ns)) == 0 {
		return nil
	}
	remaining, err := c.deleteAllContent(ctx, served, nsRes, ns)
	if err != nil || remaining {
		return err // remaining content sends events that queue the namespace again
	}
	return notFoundIsDone(c.finalize(ctx, nsRes, name))
}

// finalize removes the "kubernetes" finalizer through /finalize, reading
// the namespace again after a conflict.
func (c *namespaceController) finalize(ctx context.Context, nsRes apiserver.ServedResource, name string) error {
	for {
		cur, err := c.srv.Store().Get(ctx, nsRes.Key("", name))
		if errors.Is(err, store.ErrNotFound) {
			return nil
		}
		if err != nil {
			return err
		}
		next := cur.Data().DeepCopy()
		var kept []string
		for _, f := range specFinalizers(next) {
			if f != namespaceFinalizer && !slices.Contains(kept, f) {
				kept = append(kept, f)
			}
		}
		sort.Strings(kept)
		spec, _ := next["spec"].(map[string]any)
		if spec == nil {
			spec = map[string]any{}
			next["spec"] = spec
		}
		spec["finalizers"] = toAny(kept)
		_, err = c.writeNamespace(ctx, nsRes, name, "/finalize", next)
		if !meta.IsConflict(err) {
			return err
		}
	}
}

// writeNamespace PUTs a namespace (or one of its subresources) and returns
// what was stored.
func (c *namespaceController) writeNamespace(ctx context.Context, nsRes apiserver.ServedResource, name, sub string, obj meta.Object) (meta.Object, error) {
	body, err := c.client.do(ctx, "PUT", objectPath(nsRes, "", name)+sub, contentJSON, obj, false)
	if err != nil {
		return nil, err
	}
	var out meta.Object
	if err := json.Unmarshal(body, &out); err != nil {
		return nil, err
	}
	return out, nil
}

// deletionMetadata is what one resource's deletion left in a namespace.
type deletionMetadata struct {
	estimate   int64
	remaining  int
	finalizers map[string]int
}

// deleteAllContent deletes every namespaced object of the namespace (pods
// first, and nothing else while pods remain, as kube 1.33 orders it),
// updates the namespace's conditions and reports whether content remains.
func (c *namespaceController) deleteAllContent(ctx context.Context, served *apiserver.Served, nsRes apiserver.ServedResource, ns meta.Object) (bool, error) {
	name := ns.Name()
	deletedAt, _ := time.Parse(time.RFC3339, ns.DeletionTimestamp())
	var errs []error
	totals := map[meta.GroupVersionResource]int{}
	finalizers := map[string]int{}
	var estimate int64
	add := func(r apiserver.ServedResource, md deletionMetadata, err error) {
		if err != nil {
			errs = append(errs, err)
		}
		estimate = max(estimate, md.estimate)
		if md.remaining > 0 {
			totals[r.GroupVersionResource] = md.remaining
			for f, n := range md.finalizers {
				finalizers[f] += n
			}
		}
	}
	resources := deletableResources(served)
	podsFirst := slices.IndexFunc(resources, isPods)
	if podsFirst >= 0 {
		pods := resources[podsFirst]
		resources = slices.Delete(resources, podsFirst, podsFirst+1)
		md, err := c.deleteResource(ctx, pods, name, deletedAt)
		if err != nil {
			err = fmt.Errorf("failed to delete pods for namespace: %s, err: %w", name, err)
		}
		add(pods, md, err)
		if md.remaining > 0 {
			resources = nil // the rest waits for the pods
		}
	}
	for _, r := range resources {
		md, err := c.deleteResource(ctx, r, name, deletedAt)
		add(r, md, err)
	}
	if podsFirst < 0 || totals[podsGVR] == 0 {
		// Kube reports the totals once every kind has been through.
		c.updateConditions(ctx, nsRes, ns, contentConditions(totals, finalizers), errs)
	} else {
		c.updateConditions(ctx, nsRes, ns, nil, errs)
	}
	if len(errs) > 0 {
		return true, errors.Join(errs...)
	}
	return estimate > 0, nil
}

var podsGVR = meta.GroupVersionResource{Version: "v1", Resource: "pods"}

func isPods(r apiserver.ServedResource) bool { return r.Group == "" && r.Resource == "pods" }

// deletableResources are the namespaced resources that can be deleted, one
// version of each (the preferred), as kube's discovery gives them.
func deletableResources(served *apiserver.Served) []apiserver.ServedResource {
	var out []apiserver.ServedResource
	seen := map[meta.GroupResource]bool{}
	for _, r := range served.Resources() {
		gr := meta.GroupResource{Group: r.Group, Resource: r.Resource}
		if !r.Namespaced || !r.Supports(apiserver.VerbDelete) || seen[gr] {
			continue
		}
		seen[gr] = true
		out = append(out, r)
	}
	return out
}

// deleteResource deletes a resource's objects in the namespace, with one
// deletecollection when the resource serves it and one delete each
// otherwise, and counts what remains (and the finalizers holding it).
func (c *namespaceController) deleteResource(ctx context.Context, r apiserver.ServedResource, ns string, deletedAt time.Time) (deletionMetadata, error) {
	var estimate int64
	if isPods(r) {
		estimate = c.podsEstimate(ctx, r, ns, deletedAt)
	}
	background := deleteOptions("Background", "")
	collected := false
	if r.Supports(apiserver.VerbDeleteCollection) {
		_, err := c.client.do(ctx, "DELETE", r.Path(ns), contentJSON, background, true)
		switch {
		case err == nil:
			collected = true
		case meta.ReasonOf(err) != meta.ReasonMethodNotAllowed && !meta.IsNotFound(err):
			return deletionMetadata{estimate: estimate}, err
		}
	}
	if !r.Supports(apiserver.VerbList) {
		return deletionMetadata{estimate: estimate}, nil
	}
	page, err := c.srv.Store().List(ctx, r.Prefix(ns), store.ListOptions{})
	if err != nil {
		return deletionMetadata{estimate: estimate}, err
	}
	if !collected {
		for _, it := range page.Items {
			_, err := c.client.do(ctx, "DELETE", objectPath(r, ns, it.Data().Name()), contentJSON, background, true)
			if err != nil && !meta.IsNotFound(err) && meta.ReasonOf(err) != meta.ReasonMethodNotAllowed {
				return deletionMetadata{estimate: estimate}, err
			}
		}
		if page, err = c.srv.Store().List(ctx, r.Prefix(ns), store.ListOptions{}); err != nil {
			return deletionMetadata{estimate: estimate}, err
		}
	}
	if len(page.Items) == 0 {
		return deletionMetadata{}, nil
	}
	finalizers := map[string]int{}
	for _, it := range page.Items {
		for _, f := range it.Data().Finalizers() {
			finalizers[f]++
		}
	}
	md := deletionMetadata{estimate: estimate, remaining: len(page.Items), finalizers: finalizers}
	switch {
	case estimate != 0:
		return md, nil
	case len(finalizers) > 0:
		md.estimate = finalizerEstimateSeconds
		return md, nil
	}
	return md, fmt.Errorf("unexpected items still remain in namespace: %s for gvr: %s/%s, Resource=%s", ns, r.Group, r.Version, r.Resource)
}

// podsEstimate is kube's estimate of how long the namespace's pods take to
// terminate: the longest grace period of those not finished, unless the
// namespace has been deleted for longer than that.
func (c *namespaceController) podsEstimate(ctx context.Context, r apiserver.ServedResource, ns string, deletedAt time.Time) int64 {
	page, err := c.srv.Store().List(ctx, r.Prefix(ns), store.ListOptions{})
	if err != nil {
		return 0
	}
	var estimate int64
	for _, it := range page.Items {
		pod := it.Data()
		if phase, _ := meta.NestedField(pod, "status", "phase"); phase == "Succeeded" || phase == "Failed" {
			continue
		}
		if v, ok := meta.NestedField(pod, "spec", "terminationGracePeriodSeconds"); ok {
			if g, ok := meta.AsInt64(v); ok && g > estimate {
				estimate = g
			}
		}
	}
	if c.srv.Now().Sub(deletedAt) >= time.Duration(estimate)*time.Second {
		return 0
	}
	return estimate
}

// Namespace condition types the controller maintains, in kube's order,
// with what each says when nothing is wrong.
var namespaceConditions = []struct{ typ, okReason, okMessage string }{
	{"NamespaceDeletionDiscoveryFailure", "ResourcesDiscovered", "All resources successfully discovered"},
	{"NamespaceDeletionGroupVersionParsingFailure", "ParsedGroupVersions", "All legacy kube types successfully parsed"},
	{"NamespaceDeletionContentFailure", "ContentDeleted", "All content successfully deleted, may be waiting on finalization"},
	{"NamespaceContentRemaining", "ContentRemoved", "All content successfully removed"},
	{"NamespaceFinalizersRemaining", "ContentHasNoFinalizers", "All content-preserving finalizers finished"},
}

// condition is one namespace condition as the controller computes it.
type condition struct{ typ, status, reason, message string }

// contentConditions are the conditions about what remains, when something
// does: kube's messages, their entries sorted.
func contentConditions(totals map[meta.GroupVersionResource]int, finalizers map[string]int) []condition {
	var out []condition
	if len(totals) > 0 {
		var parts []string
		for gvr, n := range totals {
			parts = append(parts, fmt.Sprintf("%s.%s has %d resource instances", gvr.Resource, gvr.Group, n))
		}
		sort.Strings(parts)
		out = append(out, condition{"NamespaceContentRemaining", "True", "SomeResourcesRemain",
			"Some resources are remaining: " + strings.Join(parts, ", ")})
	}
	if len(finalizers) > 0 {
		var parts []string
		for f, n := range finalizers {
			parts = append(parts, fmt.Sprintf("%s in %d resource instances", f, n))
		}
		sort.Strings(parts)
		out = append(out, condition{"NamespaceFinalizersRemaining", "True", "SomeFinalizersRemain",
			"Some content in the namespace has finalizers remaining: " + strings.Join(parts, ", ")})
	}
	return out
}

// updateConditions sets the namespace's conditions as kube's condition
// updater does (each type once, in kube's order; the "ok" variant for a
// type with nothing to report; lastTransitionTime kept unless the status
// flips) and writes status when they changed. A failed write is left for
// the next pass, as kube leaves it.
func (c *namespaceController) updateConditions(ctx context.Context, nsRes apiserver.ServedResource, ns meta.Object, conds []condition, errs []error) {
	if len(errs) > 0 {
		msgs := make([]string, len(errs))
		for i, e := range errs {
			msgs[i] = e.Error()
		}
		sort.Strings(msgs)
		conds = append(conds, condition{"NamespaceDeletionContentFailure", "True", "ContentDeletionFailed",
			fmt.Sprintf("Failed to delete all resource types, %d remaining: %s", len(errs), strings.Join(msgs, ", "))})
	}
	next := ns.DeepCopy()
	status, _ := next["status"].(map[string]any)
	if status == nil {
		status = map[string]any{}
		next["status"] = status
	}
	list, _ := status["conditions"].([]any)
	now := meta.FormatTime(c.srv.Now())
	changed := false
	for _, t := range namespaceConditions {
		want := condition{t.typ, "False", t.okReason, t.okMessage}
		for _, c := range conds {
			if c.typ == t.typ {
				want = c
			}
		}
		i := slices.IndexFunc(list, func(v any) bool { m, _ := v.(map[string]any); return m["type"] == t.typ })
		if i < 0 {
			list = append(list, map[string]any{"type": want.typ, "status": want.status, "lastTransitionTime": now,
				"reason": want.reason, "message": want.message})
			changed = true
			continue
		}
		old := list[i].(map[string]any)
		if old["status"] == want.status && old["reason"] == want.reason && old["message"] == want.message {
			continue
		}
		if old["status"] != want.status {
			old["lastTransitionTime"] = now
		}
		old["status"], old["reason"], old["message"] = want.status, want.reason, want.message
		changed = true
	}
	if !changed {
		return
	}
	status["conditions"] = list
	_, _ = c.writeNamespace(ctx, nsRes, ns.Name(), "/status", next)
}

// specFinalizers are a namespace's spec.finalizers.
func specFinalizers(ns meta.Object) []string {
	v, _ := meta.NestedField(ns, "spec", "finalizers")
	list, _ := v.([]any)
	out := make([]string, 0, len(list))
	for _, f := range list {
		if s, ok := f.(string); ok {
			out = append(out, s)
		}
	}
	return out
}

// setNested sets obj's value at path, creating the maps on the way.
func setNested(obj map[string]any, value any, path ...string) {
	for _, p := range path[:len(path)-1] {
		next, _ := obj[p].(map[string]any)
		if next == nil {
			next = map[string]any{}
			obj[p] = next
		}
		obj = next
	}
	obj[path[len(path)-1]] = value
}

func toAny(list []string) []any {
	out := make([]any, len(list))
	for i, s := range list {
		out[i] = s
	}
	return out
}

// notFoundIsDone ends the work on something that is gone.
func notFoundIsDone(err error) error {
	if meta.IsNotFound(err) {
		return nil
	}
	return err
}
