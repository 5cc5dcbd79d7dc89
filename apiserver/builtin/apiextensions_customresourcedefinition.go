package builtin

import (
	"github.com/kapi-dev/kapi/apiserver"
	"github.com/kapi-dev/kapi/meta"
)

// customResourceDefinitionResource is apiextensions.k8s.io/v1
// customresourcedefinitions with kube's schema: the server's own CRD
// strategy (apiserver.CRDStrategy: establishing, serving, cleanup) with
// kube's defaults applied as a typed kind's are, before fields are tracked.
func customResourceDefinitionResource() apiserver.Resource {
	return apiserver.Resource{StoredVersion: "v1beta1", Group: "apiextensions.k8s.io", Version: "v1", Kind: "CustomResourceDefinition",
		Plural: "customresourcedefinitions", ShortNames: []string{"crd", "crds"}, Categories: []string{"api-extensions"},
		StatusSubresource: true, ReturnDeletedObject: true, Strategy: crdStrategy{}}
}

// crdStrategy is the server's CRD strategy with kube's CRD defaults.
type crdStrategy struct{ apiserver.CRDStrategy }

// Default mirrors the apiextensions/v1 defaults: conversion None, the
// list kind named after the kind.
func (crdStrategy) Default(o meta.Object) {
	spec := obj(o, "spec")
	setDefault(spec, "conversion", map[string]any{"strategy": "None"})
	names := obj(spec, "names")
	if kind, _ := names["kind"].(string); kind != "" {
		setDefault(names, "listKind", kind+"List")
	}
}
