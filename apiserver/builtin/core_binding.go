package builtin

import (
	"context"
	"fmt"

	"github.com/kapi-dev/kapi/apiserver"
	"github.com/kapi-dev/kapi/meta"
)

// bindingResource is core/v1 bindings: create-only, answered rather than
// stored (a scheduler binds a pod to a node with one).
func bindingResource() apiserver.Resource {
	return apiserver.Resource{Version: "v1", Kind: "Binding", Plural: "bindings", Namespaced: true,
		Verbs: []string{"create"}, Ephemeral: true, CreateOnly: createBinding}
}

// createBinding answers a create of core v1 bindings (kube's
// LegacyBindingREST): the Binding names the pod it binds. It is the
// bindings resource's apiserver.CreateOnlyFunc.
func createBinding(ctx context.Context, namespace string, b meta.Object) (meta.Object, error) {
	w, ok := apiserver.WriteFrom(ctx)
	if !ok {
		return nil, meta.Internal(fmt.Errorf("a binding needs its write"))
	}
	_, out, err := bindPod(w, namespace, b.Name(), b)
	return out, err
}
