package builtin

import "github.com/kapi-dev/kapi/apiserver"

// bindingResource is core/v1 bindings: create-only, answered rather than
// stored (a scheduler binds a pod to a node with one).
func bindingResource() apiserver.Resource {
	return apiserver.Resource{Version: "v1", Kind: "Binding", Plural: "bindings", Namespaced: true,
		Verbs: []string{"create"}, Ephemeral: true, CreateOnly: createBinding}
}
