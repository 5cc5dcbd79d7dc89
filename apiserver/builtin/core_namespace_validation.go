package builtin

import (
	"fmt"
	"strings"

	"github.com/kapi-dev/kapi/apiserver"
	"github.com/kapi-dev/kapi/meta"
	"github.com/kapi-dev/kapi/schema"
	"github.com/kapi-dev/kapi/selectors"
)

// namespaceStrategy is the server's namespace strategy with kube's
// validation of spec.finalizers.
type namespaceStrategy struct{ apiserver.NamespaceStrategy }

// Validate is kube's ValidateNamespace: each of spec.finalizers a
// finalizer name (kube reports them without their index).
func (namespaceStrategy) Validate(_ *apiserver.Write, o meta.Object) meta.FieldErrors {
	var e fieldErrs
	for _, f := range stringList(field(o, "spec", "finalizers")) {
		e.finalizerName("spec.finalizers", f)
	}
	return e.list
}

// ValidateUpdate: a write to /status is kube's
// ValidateNamespaceStatusUpdate (the phase); a write to /finalize is kube's
// ValidateNamespaceFinalizeUpdate (each finalizer by its index); the
// others keep spec.finalizers (PrepareForUpdate) and check nothing more.
func (namespaceStrategy) ValidateUpdate(w *apiserver.Write, o, _ meta.Object) meta.FieldErrors {
	var e fieldErrs
	if w.Subresource == "status" {
		e.namespacePhase(o)
		return e.list
	}
	if w.Subresource != "finalize" {
		return nil
	}
	for i, f := range stringList(field(o, "spec", "finalizers")) {
		e.finalizerName(fmt.Sprintf("spec.finalizers[%d]", i), f)
	}
	return e.list
}

// finalizerName is kube's validateFinalizerName: a qualified name, and
// one of kube's own unless it has a domain.
func (e *fieldErrs) finalizerName(path, f string) {
	e.invalidAll(path, f, selectors.QualifiedNameErrors(f))
	if !strings.Contains(f, "/") && f != "kubernetes" && f != "orphan" && f != "foregroundDeletion" {
		e.invalid(path, f, "name is neither a standard finalizer name nor is it fully qualified")
	}
}

// namespacePhase is kube's check of a namespace's phase: Active, or
// Terminating once it is being deleted (kube names the field
// status.Phase).
func (e *fieldErrs) namespacePhase(o meta.Object) {
	phase := str(o, "status", "phase")
	if o.DeletionTimestamp() == "" {
		if phase != "Active" {
			e.invalid("status.Phase", phase, "may only be 'Active' if `deletionTimestamp` is empty")
		}
	} else if phase != "Terminating" {
		e.invalid("status.Phase", phase, "may only be 'Terminating' if `deletionTimestamp` is not empty")
	}
}

// namespaceSchema is the published schema without the enum of
// status.phase: kube checks the phase itself (namespacePhase), under
// another name.
func namespaceSchema(r apiserver.Release) *schema.Schema {
	return schemaEdited(SchemaFor(r, meta.GroupVersionKind{Version: "v1", Kind: "Namespace"}), []string{"status", "phase"},
		func(s *schema.Schema) { s.Enum = nil })
}
