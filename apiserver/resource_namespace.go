package apiserver

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"time"

	"github.com/kapi-dev/kapi/meta"
	"github.com/kapi-dev/kapi/schema"
	"github.com/kapi-dev/kapi/store"
)

// namespaceResource is the built-in core/v1 Namespace type. Like
// kube-apiserver's it has no deletecollection, and a delete only marks the
// namespace Terminating while spec.finalizers remain.
var namespaceResource = Resource{
	Version: "v1", Kind: "Namespace", Plural: "namespaces", ShortNames: []string{"ns"},
	Verbs:             []string{VerbCreate, VerbDelete, VerbGet, VerbList, VerbPatch, VerbUpdate, VerbWatch},
	StatusSubresource: true, ReturnDeletedObject: true, WithoutGeneration: true,
	PrinterColumns: []PrinterColumn{
		{Name: "Status", Type: "string", Description: "The status of the namespace",
			Cell: func(o meta.Object, _ time.Time) any { s, _ := meta.NestedField(o, "status", "phase"); return s }},
		AgeColumn(),
	},
	Strategy: NamespaceStrategy{},
}

// NamespaceStrategy is what a Namespace does differently, as kube's
// namespace registry does it: a new namespace gets the "kubernetes"
// finalizer, phase Active and its metadata.name label; its name is a DNS
// label; a DELETE turns it Terminating and it stays while spec.finalizers
// remain, which only the finalize subresource changes; default,
// kube-system and kube-public cannot be deleted. A registration of
// core/v1 namespaces with a strategy of its own should embed it.
type NamespaceStrategy struct{ GenericStrategy }

// initialNamespaces exist in every new server, as in a fresh cluster.
var initialNamespaces = []string{"default", "kube-system", "kube-public", "kube-node-lease"}

// protectedNamespaces cannot be deleted, as in kube-apiserver.
var protectedNamespaces = map[string]bool{"default": true, "kube-system": true, "kube-public": true}

// Default gives every namespace its kubernetes.io/metadata.name label, as
// kube's defaulting does on every write; a namespace created with a
// generateName has no name yet, and gets it in PrepareForCreate (kube's
// Canonicalize).
func (NamespaceStrategy) Default(obj meta.Object) {
	if obj.Name() == "" {
		return
	}
	labels, _ := obj.Metadata()["labels"].(map[string]any)
	if labels == nil {
		labels = map[string]any{}
		obj.SetMetadataField("labels", labels)
	}
	labels["kubernetes.io/metadata.name"] = obj.Name()
}

// PrepareForCreate sets what kube-apiserver's namespace strategy sets on a
// new namespace: the "kubernetes" finalizer, appended to those the client
// sent, and phase Active.
func (NamespaceStrategy) PrepareForCreate(_ *Write, obj meta.Object) {
	NamespaceStrategy{}.Default(obj)
	spec, _ := obj["spec"].(map[string]any)
	if spec == nil {
		spec = map[string]any{}
		obj["spec"] = spec
	}
	finalizers, _ := spec["finalizers"].([]any)
	if !slices.Contains(finalizers, any("kubernetes")) {
		spec["finalizers"] = append(finalizers, "kubernetes")
	}
	obj["status"] = map[string]any{"phase": "Active"}
}

// PrepareForUpdate lets /finalize change spec.finalizers and nothing else;
// the object and /status follow the generic split, and an update of the
// object keeps the stored spec.finalizers, as kube's strategy does.
func (NamespaceStrategy) PrepareForUpdate(w *Write, obj, old meta.Object) meta.Object {
	if w.Subresource != "finalize" {
		obj = PrepareStatusUpdate(w, obj, old)
		if w.Subresource == "" {
			keepSpecFinalizers(obj, old)
		}
		return obj
	}
	finalizers, _ := meta.NestedField(obj, "spec", "finalizers")
	kept := old.DeepCopy()
	if mf, ok := obj.Metadata()["managedFields"]; ok {
		kept.MetadataForWrite()["managedFields"] = mf
	}
	spec, _ := kept["spec"].(map[string]any)
	if spec == nil {
		spec = map[string]any{}
		kept["spec"] = spec
	}
	if finalizers == nil {
		delete(spec, "finalizers")
	} else {
		spec["finalizers"] = finalizers
	}
	return kept
}

// NameErrors requires a DNS label.
func (NamespaceStrategy) NameErrors(name string) []string { return schema.DNS1123Label(name) }

// PrepareForDelete refuses the protected namespaces and turns the others
// Terminating. As kube's namespace registry, the first DELETE only marks
// the namespace, even without spec.finalizers (the namespace controller
// then finds it finalized and leaves it: it stays until a later write);
// a DELETE of a namespace already Terminating removes it once no
// spec.finalizers remain.
func (NamespaceStrategy) PrepareForDelete(w *Write, obj meta.Object) (bool, error) {
	if protectedNamespaces[obj.Name()] {
		return false, meta.Forbidden(meta.GroupResource{Resource: "namespaces"}, obj.Name(), "this namespace may not be deleted")
	}
	md := obj.MetadataForWrite()
	delete(md, "deletionGracePeriodSeconds") // kube marks a namespace without one
	status, _ := obj["status"].(map[string]any)
	if status == nil {
		status = map[string]any{}
		obj["status"] = status
	}
	first := status["phase"] != "Terminating"
	status["phase"] = "Terminating"
	return first || len(namespaceSpecFinalizers(obj)) > 0, nil
}

// Held keeps a namespace being deleted while spec.finalizers remain.
func (NamespaceStrategy) Held(obj meta.Object) bool { return len(namespaceSpecFinalizers(obj)) > 0 }

// Subresources: finalize, which updates spec.finalizers only.
func (NamespaceStrategy) Subresources() []Subresource {
	return []Subresource{{Name: "finalize", Verbs: []string{VerbUpdate}}}
}

// keepSpecFinalizers sets obj's spec.finalizers to old's.
func keepSpecFinalizers(obj, old meta.Object) {
	finalizers, ok := meta.NestedField(old, "spec", "finalizers")
	spec, _ := obj["spec"].(map[string]any)
	switch {
	case ok && spec == nil:
		obj["spec"] = map[string]any{"finalizers": meta.DeepCopyValue(finalizers)}
	case ok:
		spec["finalizers"] = meta.DeepCopyValue(finalizers)
	case spec != nil:
		delete(spec, "finalizers")
	}
}

func namespaceSpecFinalizers(obj meta.Object) []any {
	list, _ := meta.NestedField(obj, "spec", "finalizers")
	l, _ := list.([]any)
	return l
}

func (reg *registry) namespaces() *Resource { return reg.lookup("", "v1", "namespaces") }

// checkNamespaceOpen refuses a create into a namespace that does not
// exist (404 for the namespace) or is being deleted, as kube-apiserver's
// NamespaceLifecycle admission does: 403 about the object created (named by
// its generateName when it was sent without a name), with the NamespaceTerminating
// cause that controllers look for to stop retrying.
//
// As kube's plugin looks the namespace up in its informer's cache and asks
// storage only when the cache lacks it, the namespace is read from the
// store's current snapshot, and consistently only when it is not there: a
// store with a cache in front of another (store/etcd) then answers most
// creates without a read of the other.
func (s *Server) checkNamespaceOpen(r *http.Request, res *Resource, ns, name string) error {
	nsRes := s.registry.Load().namespaces()
	key := nsRes.key("", ns)
	cur, err := s.getNotOlderThan(r.Context(), key, 1)
	if errors.Is(err, store.ErrNotFound) {
		cur, err = s.store.Get(r.Context(), key)
	}
	if err != nil {
		return storeError(err, nsRes.GroupResource(), ns)
	}
	if cur.Data().DeletionTimestamp() == "" {
		return nil
	}
	st := meta.Forbidden(res.GroupResource(), name,
		fmt.Sprintf("unable to create new content in namespace %s because it is being terminated", ns))
	st.Details.Causes = append(st.Details.Causes, meta.StatusCause{Type: CauseNamespaceTerminating,
		Message: fmt.Sprintf("namespace %s is being terminated", ns), Field: "metadata.namespace"})
	return st
}

// CauseNamespaceTerminating is the cause of the 403 refusing a create into
// a namespace being deleted.
const CauseNamespaceTerminating meta.CauseType = "NamespaceTerminating"

// createInitialNamespaces makes sure the standard namespaces exist.
func (s *Server) createInitialNamespaces() error {
	nsRes := s.registry.Load().namespaces()
	for _, name := range initialNamespaces {
		obj := meta.Object{"apiVersion": "v1", "kind": "Namespace", "metadata": map[string]any{"name": name}}
		obj.MetadataForWrite()["uid"] = newUID()
		obj.MetadataForWrite()["creationTimestamp"] = meta.FormatTime(s.now())
		NamespaceStrategy{}.Default(obj)
		NamespaceStrategy{}.PrepareForCreate(nil, obj)
		_, err := s.store.Create(context.Background(), nsRes.key("", name), obj)
		if err != nil && err != store.ErrExists {
			return fmt.Errorf("apiserver: creating namespace %s: %w", name, err)
		}
	}
	return nil
}
