package controllers

import (
	"context"
	"errors"
	"strings"

	"github.com/kapi-dev/kapi/apiserver"
	"github.com/kapi-dev/kapi/meta"
	"github.com/kapi-dev/kapi/store"
)

// The finalizers kube-apiserver's StorageObjectInUseProtection admission
// puts on every PersistentVolumeClaim and PersistentVolume, which the two
// controllers below remove once the object is no longer in use.
const (
	pvcProtectionFinalizer = "kubernetes.io/pvc-protection"
	pvProtectionFinalizer  = "kubernetes.io/pv-protection"
)

var (
	pvcKind = meta.GroupKind{Kind: "PersistentVolumeClaim"}
	pvKind  = meta.GroupKind{Kind: "PersistentVolume"}
	podKind = meta.GroupKind{Kind: "Pod"}
)

// pvcProtectionController is kube-controller-manager's pvc-protection
// controller: a claim marked for deletion keeps its
// kubernetes.io/pvc-protection finalizer while a pod that has not
// terminated uses it (a persistentVolumeClaim volume naming it, or an
// ephemeral volume whose claim it is), and loses it once none does, so
// that the deletion completes.
type pvcProtectionController struct {
	srv    *apiserver.Server
	client *client
}

func newPVCProtectionController(srv *apiserver.Server) *pvcProtectionController {
	return &pvcProtectionController{srv: srv, client: newClient(srv, "pvc-protection-controller")}
}

func (c *pvcProtectionController) workers() int { return 1 }

func (c *pvcProtectionController) prefixes() []string {
	served := c.srv.Served()
	var out []string
	for _, k := range []meta.GroupKind{pvcKind, podKind} {
		if r, ok := served.ForKind(k); ok {
			out = append(out, r.Prefix(""))
		}
	}
	return out
}

func (c *pvcProtectionController) reset() {}

// observe queues a claim ("namespace/name") when it is marked for deletion
// with the finalizer, and the claims of a pod when the pod terminates or
// goes.
func (c *pvcProtectionController) observe(q *queue, events []store.Event) {
	served := c.srv.Served()
	for _, ev := range events {
		r, ns, name, ok := served.ForKey(ev.Object.Key())
		if !ok || r.Group != "" {
			continue
		}
		switch r.Kind {
		case pvcKind.Kind:
			if ev.Type != store.Deleted && markedWith(ev.Object.Data(), pvcProtectionFinalizer) {
				q.add(ns + "/" + name)
			}
		case podKind.Kind:
			pod := ev.Object.Data()
			if ev.Type == store.Deleted || podTerminated(pod) {
				for _, claim := range podClaims(pod) {
					q.add(ns + "/" + claim)
				}
			}
		}
	}
}

// sync removes the finalizer of a claim marked for deletion that no pod
// uses.
func (c *pvcProtectionController) sync(ctx context.Context, item any) error {
	ns, name, _ := strings.Cut(item.(string), "/")
	served := c.srv.Served()
	pvcs, ok := served.ForKind(pvcKind)
	if !ok {
		return nil
	}
	cur, err := c.srv.Store().Get(ctx, pvcs.Key(ns, name))
	if errors.Is(err, store.ErrNotFound) {
		return nil
	}
	if err != nil {
		return err
	}
	claim := cur.Data()
	if !markedWith(claim, pvcProtectionFinalizer) {
		return nil
	}
	if pods, ok := served.ForKind(podKind); ok {
		page, err := c.srv.Store().List(ctx, pods.Prefix(ns), store.ListOptions{})
		if err != nil {
			return err
		}
		for _, it := range page.Items {
			pod := it.Data()
			if !podTerminated(pod) && containsString(podClaims(pod), name) {
				return nil // queued again when that pod terminates or goes
			}
		}
	}
	return removeFinalizer(ctx, c.srv, c.client, pvcs, ns, name, claim.UID(), pvcProtectionFinalizer)
}

// pvProtectionController is kube-controller-manager's pv-protection
// controller: a volume marked for deletion keeps its
// kubernetes.io/pv-protection finalizer while it is Bound to a claim, and
// loses it once it is not.
type pvProtectionController struct {
	srv    *apiserver.Server
	client *client
}

func newPVProtectionController(srv *apiserver.Server) *pvProtectionController {
	return &pvProtectionController{srv: srv, client: newClient(srv, "pv-protection-controller")}
}

func (c *pvProtectionController) workers() int { return 1 }

func (c *pvProtectionController) prefixes() []string {
	if r, ok := c.srv.Served().ForKind(pvKind); ok {
		return []string{r.Prefix("")}
	}
	return nil
}

func (c *pvProtectionController) reset() {}

func (c *pvProtectionController) observe(q *queue, events []store.Event) {
	served := c.srv.Served()
	for _, ev := range events {
		r, _, name, ok := served.ForKey(ev.Object.Key())
		if ok && r.Group == "" && r.Kind == pvKind.Kind && ev.Type != store.Deleted &&
			markedWith(ev.Object.Data(), pvProtectionFinalizer) {
			q.add(name)
		}
	}
}

// sync removes the finalizer of a volume marked for deletion that is not
// Bound (a later update that unbinds it queues it again).
func (c *pvProtectionController) sync(ctx context.Context, item any) error {
	name := item.(string)
	pvs, ok := c.srv.Served().ForKind(pvKind)
	if !ok {
		return nil
	}
	cur, err := c.srv.Store().Get(ctx, pvs.Key("", name))
	if errors.Is(err, store.ErrNotFound) {
		return nil
	}
	if err != nil {
		return err
	}
	pv := cur.Data()
	if !markedWith(pv, pvProtectionFinalizer) {
		return nil
	}
	if phase, _ := meta.NestedField(pv, "status", "phase"); phase == "Bound" {
		return nil
	}
	return removeFinalizer(ctx, c.srv, c.client, pvs, "", name, pv.UID(), pvProtectionFinalizer)
}

// markedWith reports whether obj is marked for deletion and holds
// finalizer.
func markedWith(obj meta.Object, finalizer string) bool {
	return obj.DeletionTimestamp() != "" && containsString(obj.Finalizers(), finalizer)
}

// podTerminated reports whether a pod has run to completion (Succeeded or
// Failed): it no longer uses its volumes.
func podTerminated(pod meta.Object) bool {
	phase, _ := meta.NestedField(pod, "status", "phase")
	return phase == "Succeeded" || phase == "Failed"
}

// podClaims names the claims a pod uses: its persistentVolumeClaim volumes'
// claims and its ephemeral volumes' ("<pod>-<volume>").
func podClaims(pod meta.Object) []string {
	var out []string
	volumes, _ := meta.NestedField(pod, "spec", "volumes")
	for _, v := range meta.AsMaps(volumes) {
		if pvc, ok := v["persistentVolumeClaim"].(map[string]any); ok {
			if n, _ := pvc["claimName"].(string); n != "" {
				out = append(out, n)
			}
		}
		if _, ok := v["ephemeral"].(map[string]any); ok {
			if n, _ := v["name"].(string); n != "" {
				out = append(out, pod.Name()+"-"+n)
			}
		}
	}
	return out
}
