package controllers

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/kapi-dev/kapi/apiserver"
	"github.com/kapi-dev/kapi/meta"
	"github.com/kapi-dev/kapi/store"
)

// Finalizers of the garbage collector, which the API server sets on a
// delete's propagation policy.
const (
	finalizerOrphan     = "orphan"
	finalizerForeground = "foregroundDeletion"
)

// Propagation policies.
const (
	propagationBackground = "Background"
	propagationForeground = "Foreground"
	propagationOrphan     = "Orphan"
)

// garbageCollector is kube-controller-manager's garbage collector, on the
// store's watch instead of one informer per kind:
//
//   - an object whose owners (metadata.ownerReferences, any served kind,
//     namespaced or cluster-scoped, custom resources included) are all gone
//     is deleted, with the propagation its own finalizers ask for
//     (Background otherwise); an owner reference whose uid does not match
//     the object of that name is as gone as a missing owner;
//   - an owner deleted with Foreground (the API server gave it
//     deletionTimestamp and the foregroundDeletion finalizer) has its
//     dependents deleted, and loses the finalizer (and so goes) once no
//     dependent with blockOwnerDeletion is left;
//   - an owner deleted with Orphan (the orphan finalizer) has its
//     reference removed from every dependent, then loses the finalizer;
//   - a reference from a dependent to an owner also being deleted in the
//     foreground with dependents of its own does not hang: the dependent's
//     blocking references are made non-blocking and it is deleted in the
//     foreground, as kube breaks such cycles.
//
// It writes as kube's does: deletes with a uid precondition, strategic
// merge patches (JSON merge patches for custom resources) with its
// User-Agent, and the OwnerRefInvalidNamespace warning event for a
// reference to an owner in another namespace. Events are never collected.
type garbageCollector struct {
	srv    *apiserver.Server
	client *client

	mu sync.Mutex
	q  *queue
	// nodes are the objects with owner references, by storage key.
	nodes map[string]*gcNode
	// dependents are the nodes referencing each owner uid.
	dependents map[string]map[*gcNode]struct{}
	// foreground are the owners being deleted in the foreground (by uid,
	// their key): a change among their dependents looks at them again.
	foreground map[string]string
	// alive are owners found to exist: a new dependent of theirs needs no
	// look at its owners. An owner's deletion removes it.
	alive map[string]bool
	// absent are owners seen deleted while dependents still named them:
	// those references dangle without a look (kube's absentOwnerCache).
	// An entry goes with the last reference to it.
	absent map[string]bool
	// parked are items waiting for their owner's kind to be served.
	parked map[gcItem]bool
	// reported are the dependents (uid and owner uid) already given an
	// OwnerRefInvalidNamespace event.
	reported map[[2]string]bool
	// kinds finds a served resource by group, version and kind, for the
	// served view it was built from.
	kinds  map[meta.GroupVersionKind]apiserver.ServedResource
	served *apiserver.Served
}

// gcNode is an object with owner references.
type gcNode struct {
	key, uid string
	owners   []ownerRef
	// deletingDependents: being deleted in the foreground.
	deletingDependents bool
}

// ownerRef is one entry of metadata.ownerReferences.
type ownerRef struct {
	apiVersion, kind, name, uid string
	controller                  *bool
	block                       bool
}

// gcItem is a unit of the collector's work.
type gcItem struct {
	op       gcOp
	key, uid string
}

type gcOp uint8

const (
	// attemptToDelete looks at an object: a dependent whose owners may be
	// gone, or an owner deleting its dependents in the foreground.
	attemptToDelete gcOp = iota + 1
	// attemptToOrphan removes an owner being deleted with Orphan from its
	// dependents.
	attemptToOrphan
)

func newGarbageCollector(srv *apiserver.Server) *garbageCollector {
	g := &garbageCollector{srv: srv, client: newClient(srv, "generic-garbage-collector")}
	g.reset()
	return g
}

// workers is one: the collector's writes then follow one another in the
// order kube's are seen in (an owner's dependents in name order, a
// cycle's members as kube deletes them), so tests see the same events
// every run.
func (g *garbageCollector) workers() int { return 1 }

func (g *garbageCollector) prefixes() []string { return []string{"/"} }

func (g *garbageCollector) reset() {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.nodes = map[string]*gcNode{}
	g.dependents = map[string]map[*gcNode]struct{}{}
	g.foreground = map[string]string{}
	g.alive = map[string]bool{}
	g.absent = map[string]bool{}
	g.parked = map[gcItem]bool{}
	if g.reported == nil {
		g.reported = map[[2]string]bool{}
	}
}

// ignored are the resources the collector never looks at, as kube's.
func ignored(r apiserver.ServedResource) bool {
	return r.Resource == "events" && (r.Group == "" || r.Group == "events.k8s.io")
}

// observe keeps the graph of owners and dependents and queues the work
// each change calls for.
func (g *garbageCollector) observe(q *queue, events []store.Event) {
	served := g.srv.Served()
	g.mu.Lock()
	defer g.mu.Unlock()
	g.q = q
	if served != g.served {
		g.served, g.kinds = served, nil
		for it := range g.parked {
			q.add(it)
		}
		clear(g.parked)
	}
	for _, ev := range events {
		key := ev.Object.Key()
		if r, _, _, ok := served.ForKey(key); ok && ignored(r) {
			continue
		}
		if ev.Type == store.Deleted {
			g.deletedLocked(key, ev)
		} else {
			g.upsertLocked(key, ev.Object.Data())
		}
	}
}

// upsertLocked takes a new version of an object into the graph.
func (g *garbageCollector) upsertLocked(key string, obj meta.Object) {
	uid := obj.UID()
	refs := ownerRefs(obj)
	n := g.nodes[key]
	if n != nil && n.uid != uid {
		g.removeLocked(n) // replaced by another object of the same name
		n = nil
	}
	deleting := obj.DeletionTimestamp() != ""
	fins := obj.Finalizers()
	foreground := deleting && containsString(fins, finalizerForeground)
	switch {
	case n == nil && len(refs) > 0:
		n = &gcNode{key: key, uid: uid, owners: refs}
		g.nodes[key] = n
		for _, r := range refs {
			g.linkLocked(n, r.uid)
		}
		g.verifyLocked(n, refs)
	case n != nil:
		added, removed, changed := diffRefs(n.owners, refs)
		for _, r := range removed {
			g.unlinkLocked(n, r.uid)
			if r.block {
				g.ownerChangedLocked(r.uid)
			}
		}
		for _, c := range changed {
			if c[0].block && !c[1].block {
				g.ownerChangedLocked(c[0].uid)
			}
		}
		for _, r := range added {
			g.linkLocked(n, r.uid)
		}
		n.owners = refs
		if len(refs) == 0 {
			g.removeLocked(n)
			n = nil
		} else if len(added) > 0 {
			g.verifyLocked(n, added)
		}
	}
	if n != nil {
		n.deletingDependents = foreground
	}
	switch {
	case deleting && containsString(fins, finalizerOrphan):
		g.q.add(gcItem{attemptToOrphan, key, uid})
	case foreground:
		g.foreground[uid] = key
		g.queueDependentsLocked(uid)
		g.q.add(gcItem{attemptToDelete, key, uid})
	default:
		delete(g.foreground, uid)
	}
}

// deletedLocked takes an object's deletion into the graph: its dependents
// are looked at, and so are its owners deleting their dependents. An
// object the graph cannot know (no node at its key, and no owner, alive
// or absent, or foreground deletion known at all) changes nothing: its uid
// is not even read.
func (g *garbageCollector) deletedLocked(key string, ev store.Event) {
	if g.nodes[key] == nil && len(g.alive) == 0 && len(g.foreground) == 0 && len(g.dependents) == 0 {
		return
	}
	// The version deleted has the uid, read without decoding it.
	deleted := ev.Prev
	if deleted == nil {
		deleted = ev.Object
	}
	uid := apiserver.StoredUID(deleted)
	delete(g.alive, uid)
	delete(g.foreground, uid)
	if len(g.dependents[uid]) > 0 {
		g.absent[uid] = true
	}
	g.queueDependentsLocked(uid)
	if n := g.nodes[key]; n != nil && n.uid == uid {
		g.removeLocked(n)
		for _, r := range n.owners {
			g.ownerChangedLocked(r.uid)
		}
	}
}

// queueDependentsLocked queues the dependents of an owner, in key order.
func (g *garbageCollector) queueDependentsLocked(uid string) {
	for _, dep := range sortedNodes(g.dependents[uid]) {
		g.q.add(gcItem{attemptToDelete, dep.key, dep.uid})
	}
}

func sortedNodes(set map[*gcNode]struct{}) []*gcNode {
	out := make([]*gcNode, 0, len(set))
	for n := range set {
		out = append(out, n)
	}
	slices.SortFunc(out, func(a, b *gcNode) int { return strings.Compare(a.key, b.key) })
	return out
}

// ownerChangedLocked looks again at an owner deleting its dependents in the
// foreground when one of them goes or stops blocking it.
func (g *garbageCollector) ownerChangedLocked(uid string) {
	if key, ok := g.foreground[uid]; ok {
		g.q.add(gcItem{attemptToDelete, key, uid})
	}
}

// verifyLocked queues a dependent whose new owners are not known to exist,
// or are being deleted in the foreground.
func (g *garbageCollector) verifyLocked(n *gcNode, refs []ownerRef) {
	for _, r := range refs {
		if _, fg := g.foreground[r.uid]; fg || !g.alive[r.uid] {
			g.q.add(gcItem{attemptToDelete, n.key, n.uid})
			return
		}
	}
}

func (g *garbageCollector) linkLocked(n *gcNode, owner string) {
	deps := g.dependents[owner]
	if deps == nil {
		deps = map[*gcNode]struct{}{}
		g.dependents[owner] = deps
	}
	deps[n] = struct{}{}
}

func (g *garbageCollector) unlinkLocked(n *gcNode, owner string) {
	if deps := g.dependents[owner]; deps != nil {
		delete(deps, n)
		if len(deps) == 0 {
			delete(g.dependents, owner)
			delete(g.absent, owner)
		}
	}
}

func (g *garbageCollector) removeLocked(n *gcNode) {
	delete(g.nodes, n.key)
	for _, r := range n.owners {
		g.unlinkLocked(n, r.uid)
	}
}

// sync does one item of work.
func (g *garbageCollector) sync(ctx context.Context, item any) error {
	it := item.(gcItem)
	if it.op == attemptToOrphan {
		return g.attemptToOrphan(ctx, it)
	}
	return g.attemptToDelete(ctx, it)
}

// Errors that end the work on an item without a retry.
var (
	// errUnknownKind: an owner's kind is not served (yet); the item waits
	// for the served kinds to change.
	errUnknownKind = errors.New("owner kind not served")
	// errNamespacedOwner: a cluster-scoped object names a namespaced owner,
	// which cannot be resolved; kube leaves such objects alone.
	errNamespacedOwner = errors.New("cluster-scoped object with a namespaced owner")
)

// attemptToDelete deletes a dependent whose owners are all gone (or
// removes the references to owners that are gone when others remain), or
// finishes an owner's foreground deletion.
func (g *garbageCollector) attemptToDelete(ctx context.Context, it gcItem) error {
	served := g.srv.Served()
	res, ns, name, ok := served.ForKey(it.key)
	if !ok {
		return nil
	}
	cur, err := g.srv.Store().Get(ctx, it.key)
	if errors.Is(err, store.ErrNotFound) {
		return nil
	}
	if err != nil {
		return err
	}
	obj := cur.Data()
	if obj.UID() != it.uid {
		return nil
	}
	if obj.DeletionTimestamp() != "" {
		if containsString(obj.Finalizers(), finalizerForeground) {
			return g.deletingDependents(ctx, res, ns, name, it)
		}
		return nil // being deleted: its deletion event brings its dependents
	}
	refs := ownerRefs(obj)
	if len(refs) == 0 {
		return nil
	}
	var solid, dangling, waiting []ownerRef
	for _, r := range refs {
		state, err := g.classify(ctx, served, ns, r, obj)
		switch {
		case errors.Is(err, errUnknownKind):
			g.mu.Lock()
			g.parked[it] = true
			g.mu.Unlock()
			return nil
		case errors.Is(err, errNamespacedOwner):
			return nil
		case err != nil:
			return err
		}
		switch state {
		case ownerSolid:
			solid = append(solid, r)
		case ownerDangling:
			dangling = append(dangling, r)
		default:
			waiting = append(waiting, r)
		}
	}
	switch {
	case len(solid) > 0:
		if len(dangling) == 0 && len(waiting) == 0 {
			return nil
		}
		// Owners gone, and owners waiting for their dependents, are no
		// longer this object's owners: it stays for the others.
		drop := map[string]bool{}
		for _, r := range append(dangling, waiting...) {
			drop[r.uid] = true
		}
		return g.removeOwnerRefs(ctx, res, ns, name, it.uid, drop)
	case len(waiting) > 0 && g.hasDependents(it.uid):
		// An owner waits for this object, which has dependents of its
		// own: it goes in the foreground too. If one of its dependents is
		// itself deleting in the foreground, a cycle may hold both: this
		// object's references stop blocking first.
		if g.dependentDeletingDependents(it.uid) {
			if err := g.unblockOwnerRefs(ctx, res, ns, name, it.uid); err != nil {
				return err
			}
		}
		return g.delete(ctx, res, ns, name, it.uid, propagationForeground)
	default:
		policy := propagationBackground
		switch fins := obj.Finalizers(); {
		case containsString(fins, finalizerOrphan):
			policy = propagationOrphan
		case containsString(fins, finalizerForeground):
			policy = propagationForeground
		}
		return g.delete(ctx, res, ns, name, it.uid, policy)
	}
}

// Owner states, as kube classifies an owner reference.
type ownerState uint8

const (
	ownerSolid    ownerState = iota // exists and is not waiting for its dependents
	ownerDangling                   // gone (or another object has its name)
	ownerWaiting                    // being deleted in the foreground
)

// classify looks an owner reference of a dependent in namespace ns up.
func (g *garbageCollector) classify(ctx context.Context, served *apiserver.Served, ns string, r ownerRef, dep meta.Object) (ownerState, error) {
	res, ok := g.kindFor(served, r)
	if !ok {
		return 0, errUnknownKind
	}
	if ns == "" && res.Namespaced {
		return 0, errNamespacedOwner
	}
	g.mu.Lock()
	absent := g.absent[r.uid]
	g.mu.Unlock()
	if absent {
		return ownerDangling, nil
	}
	ownerNS := ""
	if res.Namespaced {
		ownerNS = ns
	}
	cur, err := g.srv.Store().Get(ctx, res.Key(ownerNS, r.name))
	switch {
	case errors.Is(err, store.ErrNotFound):
		if res.Namespaced {
			g.reportOtherNamespace(ctx, res, r, dep)
		}
		return ownerDangling, nil
	case err != nil:
		return 0, err
	}
	owner := cur.Data()
	if owner.UID() != r.uid {
		return ownerDangling, nil
	}
	if owner.DeletionTimestamp() != "" && containsString(owner.Finalizers(), finalizerForeground) {
		return ownerWaiting, nil
	}
	g.mu.Lock()
	g.alive[r.uid] = true
	g.mu.Unlock()
	return ownerSolid, nil
}

// kindFor finds the served resource of an owner reference's apiVersion
// and kind.
func (g *garbageCollector) kindFor(served *apiserver.Served, r ownerRef) (apiserver.ServedResource, bool) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.kinds == nil || g.served != served {
		g.kinds = map[meta.GroupVersionKind]apiserver.ServedResource{}
		for _, res := range served.Resources() {
			gvk := meta.GroupVersionKind{Group: res.Group, Version: res.Version, Kind: res.Kind}
			if _, dup := g.kinds[gvk]; !dup {
				g.kinds[gvk] = res
			}
		}
		g.served = served
	}
	gv := meta.ParseGroupVersion(r.apiVersion)
	res, ok := g.kinds[meta.GroupVersionKind{Group: gv.Group, Version: gv.Version, Kind: r.kind}]
	return res, ok
}

// deletingDependents finishes an owner's foreground deletion once no
// dependent blocks it, and otherwise makes sure each blocking dependent is
// being deleted.
func (g *garbageCollector) deletingDependents(ctx context.Context, res apiserver.ServedResource, ns, name string, it gcItem) error {
	g.mu.Lock()
	var blocking []*gcNode
	for _, dep := range sortedNodes(g.dependents[it.uid]) {
		for _, r := range dep.owners {
			if r.uid == it.uid && r.block {
				blocking = append(blocking, dep)
				break
			}
		}
	}
	for _, dep := range blocking {
		if !dep.deletingDependents {
			g.q.add(gcItem{attemptToDelete, dep.key, dep.uid})
		}
	}
	g.mu.Unlock()
	if len(blocking) > 0 {
		return nil
	}
	return g.removeFinalizer(ctx, res, ns, name, it.uid, finalizerForeground)
}

// attemptToOrphan removes an owner being deleted with Orphan from its
// dependents' references, then its orphan finalizer.
func (g *garbageCollector) attemptToOrphan(ctx context.Context, it gcItem) error {
	res, ns, name, ok := g.srv.Served().ForKey(it.key)
	if !ok {
		return nil
	}
	cur, err := g.srv.Store().Get(ctx, it.key)
	if errors.Is(err, store.ErrNotFound) {
		return nil
	}
	if err != nil {
		return err
	}
	obj := cur.Data()
	if obj.UID() != it.uid || obj.DeletionTimestamp() == "" || !containsString(obj.Finalizers(), finalizerOrphan) {
		return nil
	}
	g.mu.Lock()
	deps := sortedNodes(g.dependents[it.uid])
	g.mu.Unlock()
	var errs []error
	for _, dep := range deps {
		depRes, depNS, depName, ok := g.srv.Served().ForKey(dep.key)
		if !ok {
			continue
		}
		err := g.removeOwnerRefs(ctx, depRes, depNS, depName, dep.uid, map[string]bool{it.uid: true})
		if err != nil && !meta.IsNotFound(err) {
			errs = append(errs, fmt.Errorf("orphaning %s failed, %w", dep.key, err))
		}
	}
	if len(errs) > 0 {
		return errors.Join(errs...)
	}
	return g.removeFinalizer(ctx, res, ns, name, it.uid, finalizerOrphan)
}

func (g *garbageCollector) hasDependents(uid string) bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	return len(g.dependents[uid]) > 0
}

func (g *garbageCollector) dependentDeletingDependents(uid string) bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	for dep := range g.dependents[uid] {
		if dep.deletingDependents {
			return true
		}
	}
	return false
}

// delete deletes an object with a propagation policy and its uid as
// precondition; one already gone, or replaced, is no error.
func (g *garbageCollector) delete(ctx context.Context, res apiserver.ServedResource, ns, name, uid, policy string) error {
	_, err := g.client.do(ctx, "DELETE", objectPath(res, ns, name), contentJSON, deleteOptions(policy, uid), true)
	if err == nil || meta.IsNotFound(err) || meta.IsConflict(err) {
		return nil
	}
	return err
}

// removeOwnerRefs removes the references to some owners from an object,
// with kube's strategic merge patch (the object's uid as a precondition),
// or a JSON merge patch of the remaining references for kinds without
// strategic merge (custom resources).
func (g *garbageCollector) removeOwnerRefs(ctx context.Context, res apiserver.ServedResource, ns, name, uid string, drop map[string]bool) error {
	var deletes []any
	for owner := range drop {
		deletes = append(deletes, map[string]any{"$patch": "delete", "uid": owner})
	}
	patch := map[string]any{"metadata": map[string]any{"ownerReferences": deletes, "uid": uid}}
	return g.patch(ctx, res, ns, name, uid, patch, func(refs []any) []any {
		var kept []any
		for _, r := range refs {
			if m, _ := r.(map[string]any); m == nil || !drop[str(m, "uid")] {
				kept = append(kept, r)
			}
		}
		return kept
	})
}

// unblockOwnerRefs makes an object's blocking owner references
// non-blocking.
func (g *garbageCollector) unblockOwnerRefs(ctx context.Context, res apiserver.ServedResource, ns, name, uid string) error {
	g.mu.Lock()
	var refs []any
	if n := g.nodes[res.Key(ns, name)]; n != nil && n.uid == uid {
		for _, r := range n.owners {
			if r.block {
				refs = append(refs, r.unblocked())
			}
		}
	}
	g.mu.Unlock()
	if len(refs) == 0 {
		return nil
	}
	patch := map[string]any{"metadata": map[string]any{"ownerReferences": refs, "uid": uid}}
	return g.patch(ctx, res, ns, name, uid, patch, func(refs []any) []any {
		out := make([]any, len(refs))
		for i, r := range refs {
			m, _ := r.(map[string]any)
			if b, _ := m["blockOwnerDeletion"].(bool); b {
				m = meta.DeepCopyValue(m).(map[string]any)
				m["blockOwnerDeletion"] = false
			}
			out[i] = m
		}
		return out
	})
}

// patch sends a strategic merge patch to an object, falling back to a JSON
// merge patch of its ownerReferences (computed from the newest version by
// refs, with its resourceVersion) when the kind has no strategic merge.
func (g *garbageCollector) patch(ctx context.Context, res apiserver.ServedResource, ns, name, uid string, smp map[string]any, refs func([]any) []any) error {
	path := objectPath(res, ns, name)
	_, err := g.client.do(ctx, "PATCH", path, contentStrategicPatch, smp, true)
	if meta.ReasonOf(err) != meta.ReasonUnsupportedMediaType {
		return notFoundIsDone(err)
	}
	for {
		cur, err := g.srv.Store().Get(ctx, res.Key(ns, name))
		if errors.Is(err, store.ErrNotFound) {
			return nil
		}
		if err != nil {
			return err
		}
		obj := cur.Data()
		if obj.UID() != uid {
			return nil
		}
		list, _ := obj.Metadata()["ownerReferences"].([]any)
		var next any
		if kept := refs(list); len(kept) > 0 {
			next = kept
		}
		merge := map[string]any{"metadata": map[string]any{"resourceVersion": obj.ResourceVersion(), "ownerReferences": next}}
		_, err = g.client.do(ctx, "PATCH", path, contentMergePatch, merge, true)
		if !meta.IsConflict(err) {
			return notFoundIsDone(err)
		}
	}
}

// removeFinalizer removes one finalizer from an object (see
// removeFinalizer in finalizers.go), as kube's collector does.
func (g *garbageCollector) removeFinalizer(ctx context.Context, res apiserver.ServedResource, ns, name, uid, finalizer string) error {
	return removeFinalizer(ctx, g.srv, g.client, res, ns, name, uid, finalizer)
}

// reportOtherNamespace emits kube's OwnerRefInvalidNamespace warning on a
// dependent whose namespaced owner exists in another namespace (once per
// dependent and owner).
func (g *garbageCollector) reportOtherNamespace(ctx context.Context, res apiserver.ServedResource, r ownerRef, dep meta.Object) {
	id := [2]string{dep.UID(), r.uid}
	g.mu.Lock()
	done := g.reported[id]
	g.mu.Unlock()
	if done {
		return
	}
	page, err := g.srv.Store().List(ctx, res.Prefix(""), store.ListOptions{
		Filter: func(o *store.Object) bool { return o.Data().UID() == r.uid }, Limit: 1})
	if err != nil || len(page.Items) == 0 {
		return
	}
	g.mu.Lock()
	g.reported[id] = true
	g.mu.Unlock()
	ns := dep.Namespace()
	msg := fmt.Sprintf("ownerRef [%s/%s, namespace: %s, name: %s, uid: %s] does not exist in namespace %q",
		r.apiVersion, r.kind, ns, r.name, r.uid, ns)
	emitEvent(ctx, g.srv, g.client, "garbage-collector-controller", dep, "Warning", "OwnerRefInvalidNamespace", msg)
}

// ownerRefs reads metadata.ownerReferences.
func ownerRefs(obj meta.Object) []ownerRef {
	list, _ := obj.Metadata()["ownerReferences"].([]any)
	if len(list) == 0 {
		return nil
	}
	out := make([]ownerRef, 0, len(list))
	for _, v := range list {
		m, ok := v.(map[string]any)
		if !ok {
			continue
		}
		r := ownerRef{apiVersion: str(m, "apiVersion"), kind: str(m, "kind"), name: str(m, "name"), uid: str(m, "uid")}
		r.block, _ = m["blockOwnerDeletion"].(bool)
		if c, ok := m["controller"].(bool); ok {
			r.controller = &c
		}
		out = append(out, r)
	}
	return out
}

// unblocked is the reference with blockOwnerDeletion false, as a patch
// entry.
func (r ownerRef) unblocked() map[string]any {
	m := map[string]any{"apiVersion": r.apiVersion, "kind": r.kind, "name": r.name, "uid": r.uid, "blockOwnerDeletion": false}
	if r.controller != nil {
		m["controller"] = *r.controller
	}
	return m
}

// diffRefs compares two reference lists by uid: added, removed, and
// changed pairs (old, new).
func diffRefs(old, next []ownerRef) (added, removed []ownerRef, changed [][2]ownerRef) {
	byUID := make(map[string]ownerRef, len(old))
	for _, r := range old {
		byUID[r.uid] = r
	}
	for _, r := range next {
		o, ok := byUID[r.uid]
		if !ok {
			added = append(added, r)
			continue
		}
		if o != r && !sameRef(o, r) {
			changed = append(changed, [2]ownerRef{o, r})
		}
		delete(byUID, r.uid)
	}
	for _, r := range old {
		if _, ok := byUID[r.uid]; ok {
			removed = append(removed, r)
		}
	}
	return added, removed, changed
}

func sameRef(a, b ownerRef) bool {
	ca, cb := a.controller != nil && *a.controller, b.controller != nil && *b.controller
	return a.apiVersion == b.apiVersion && a.kind == b.kind && a.name == b.name && a.block == b.block &&
		(a.controller == nil) == (b.controller == nil) && ca == cb
}

func str(m map[string]any, key string) string {
	s, _ := m[key].(string)
	return s
}

func containsString(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}

// formatEventTime is the time format of an Event's timestamps.
func formatEventTime(t time.Time) string { return meta.FormatTime(t) }

// eventName is the name kube's event recorder gives an event about obj.
func eventName(obj meta.Object, t time.Time) string {
	return obj.Name() + "." + strconv.FormatInt(t.UnixNano(), 16)
}
