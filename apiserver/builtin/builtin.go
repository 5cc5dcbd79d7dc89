// Package builtin registers common Kubernetes built-in resource types for an
// apiserver.Server, with the names, scopes, short names, categories and
// subresources kube-apiserver 1.33 serves them with.
//
//	srv, err := apiserver.New(apiserver.Config{Resources: builtin.Resources()})
package builtin

import "github.com/kapi-dev/kapi/apiserver"

// Resources returns the registrations of the built-in kinds kapi's example
// server serves: core/v1 namespaces, configmaps, secrets, serviceaccounts,
// services, pods, events, apps/v1 deployments and coordination.k8s.io/v1
// leases, each with the schema kube-apiserver 1.33 publishes for it (pass
// OpenAPIComponents() as Config.OpenAPIComponents for the OpenAPI
// documents). Each call returns fresh values the caller may change.
func Resources() []apiserver.Resource {
	rs := []apiserver.Resource{
		{Version: "v1", Kind: "Namespace", Plural: "namespaces", ShortNames: []string{"ns"},
			Verbs:             []string{"create", "delete", "get", "list", "patch", "update", "watch"},
			StatusSubresource: true, ReturnDeletedObject: true, WithoutGeneration: true, PrinterColumns: namespaceColumns},
		{Version: "v1", Kind: "ConfigMap", PrinterColumns: configMapColumns, WithoutGeneration: true, Plural: "configmaps", Namespaced: true, ShortNames: []string{"cm"}},
		{Version: "v1", Kind: "Secret", Default: defaultSecret, PrinterColumns: secretColumns, WithoutGeneration: true, Plural: "secrets", Namespaced: true, SelectableFields: []string{"type"}},
		{Version: "v1", Kind: "ServiceAccount", PrinterColumns: serviceAccountColumns, WithoutGeneration: true, Plural: "serviceaccounts", Namespaced: true, ShortNames: []string{"sa"}},
		{Version: "v1", Kind: "Service", Default: defaultService, PrinterColumns: serviceColumns, WithoutGeneration: true, Plural: "services", Namespaced: true, ShortNames: []string{"svc"},
			Categories: []string{"all"}, StatusSubresource: true, ReturnDeletedObject: true},
		{Version: "v1", Kind: "Pod", Default: defaultPod, PrinterColumns: podColumns, Plural: "pods", Namespaced: true, ShortNames: []string{"po"},
			Categories: []string{"all"}, StatusSubresource: true, ReturnDeletedObject: true,
			SelectableFields: []string{"spec.nodeName", "spec.restartPolicy", "spec.schedulerName",
				"spec.serviceAccountName", "spec.hostNetwork", "status.phase", "status.podIP", "status.nominatedNodeName"},
			IndexedFields: []string{"spec.nodeName"}},
		{Version: "v1", Kind: "Event", PrinterColumns: eventColumns, WithoutGeneration: true, Plural: "events", Namespaced: true, ShortNames: []string{"ev"},
			AllowCreateOnUpdate: true,
			SelectableFields: []string{"involvedObject.kind", "involvedObject.namespace", "involvedObject.name",
				"involvedObject.uid", "involvedObject.apiVersion", "involvedObject.resourceVersion",
				"involvedObject.fieldPath", "reason", "reportingComponent", "source", "type"}},
		{Group: "apps", Version: "v1", Kind: "Deployment", Default: defaultDeployment, PrinterColumns: deploymentColumns, Plural: "deployments", Namespaced: true,
			AnnotationsBumpGeneration: true,
			ShortNames:                []string{"deploy"}, Categories: []string{"all"}, StatusSubresource: true},
		{Group: "coordination.k8s.io", Version: "v1", Kind: "Lease", PrinterColumns: leaseColumns, WithoutGeneration: true, Plural: "leases", Namespaced: true,
			AllowCreateOnUpdate: true},
	}
	for i := range rs {
		gvk := rs[i].GroupVersionKind()
		rs[i].Schema = Schema(gvk)
		rs[i].OpenAPIComponent = ComponentName(gvk)
	}
	return rs
}
