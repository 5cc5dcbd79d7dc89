package apiserver

import (
	"context"
	"fmt"
	"net/http"
	"time"

	"github.com/kapi-dev/kapi/meta"
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
}

// initialNamespaces exist in every new server, as in a fresh cluster.
var initialNamespaces = []string{"default", "kube-system", "kube-public", "kube-node-lease"}

func (reg *registry) namespaces() *Resource { return reg.lookup("", "v1", "namespaces") }

func isNamespaceResource(res *Resource) bool { return res.Group == "" && res.Plural == "namespaces" }

// prepareNamespace sets what kube-apiserver sets on a new namespace: the
// "kubernetes" finalizer, phase Active and the metadata.name label.
func prepareNamespace(obj meta.Object) {
	spec, _ := obj["spec"].(map[string]any)
	if spec == nil {
		spec = map[string]any{}
		obj["spec"] = spec
	}
	if _, ok := spec["finalizers"]; !ok {
		spec["finalizers"] = []any{"kubernetes"}
	}
	obj["status"] = map[string]any{"phase": "Active"}
	labels, _ := obj.Metadata()["labels"].(map[string]any)
	if labels == nil {
		labels = map[string]any{}
		obj.SetMetadataField("labels", labels)
	}
	labels["kubernetes.io/metadata.name"] = obj.Name()
}

func namespaceSpecFinalizers(obj meta.Object) []any {
	list, _ := meta.NestedField(obj, "spec", "finalizers")
	l, _ := list.([]any)
	return l
}

func markNamespaceTerminating(obj meta.Object) {
	status, _ := obj["status"].(map[string]any)
	if status == nil {
		status = map[string]any{}
		obj["status"] = status
	}
	status["phase"] = "Terminating"
}

// checkNamespaceOpen refuses writes into a namespace that does not exist
// (404 for the namespace) or is being deleted (403), as kube-apiserver's
// NamespaceLifecycle admission does.
func (s *Server) checkNamespaceOpen(r *http.Request, ns string) error {
	nsRes := s.registry.Load().namespaces()
	obj, err := s.store.Get(r.Context(), nsRes.key("", ns))
	if err != nil {
		return storeError(err, nsRes.GroupResource(), ns)
	}
	if obj.Data().DeletionTimestamp() != "" {
		return meta.Forbidden(meta.GroupResource{Resource: "namespaces"}, ns,
			fmt.Sprintf("unable to create new content in namespace %s because it is being terminated", ns))
	}
	return nil
}

// createInitialNamespaces makes sure the standard namespaces exist.
func (s *Server) createInitialNamespaces() error {
	nsRes := s.registry.Load().namespaces()
	for _, name := range initialNamespaces {
		obj := meta.Object{"apiVersion": "v1", "kind": "Namespace", "metadata": map[string]any{"name": name}}
		obj.MetadataForWrite()["uid"] = newUID()
		obj.MetadataForWrite()["creationTimestamp"] = meta.FormatTime(s.now())
		prepareNamespace(obj)
		_, err := s.store.Create(context.Background(), nsRes.key("", name), obj)
		if err != nil && err != store.ErrExists {
			return fmt.Errorf("apiserver: creating namespace %s: %w", name, err)
		}
	}
	return nil
}
