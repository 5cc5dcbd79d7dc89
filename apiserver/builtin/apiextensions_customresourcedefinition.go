package builtin

import "github.com/kapi-dev/kapi/apiserver"

// customResourceDefinitionResource is apiextensions.k8s.io/v1
// customresourcedefinitions with kube's schema: the server's own CRD
// strategy (apiserver.CRDStrategy: establishing, serving, cleanup) with
// kube's defaults applied as a typed kind's are, before fields are tracked.
func customResourceDefinitionResource() apiserver.Resource {
	return apiserver.Resource{StoredVersion: "v1beta1", Group: "apiextensions.k8s.io", Version: "v1", Kind: "CustomResourceDefinition",
		Plural: "customresourcedefinitions", ShortNames: []string{"crd", "crds"}, Categories: []string{"api-extensions"},
		StatusSubresource: true, ReturnDeletedObject: true, Strategy: crdStrategy{}, Scheme: "apiextensions-apiserver"}
}

// crdStrategy is the server's CRD strategy, whose Default is kube's CRD
// defaulting (singular, listKind, conversion None).
type crdStrategy struct{ apiserver.CRDStrategy }
