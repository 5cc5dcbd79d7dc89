// Package builtin registers the built-in resource types of kube-apiserver
// 1.33 for an apiserver.Server: every resource it serves by default, with
// kube's names, scopes, short names, categories, verbs and subresources,
// the schema kube publishes for each, its defaults, printer columns and
// field selectors. Each kind lives in a file of its own, named after its
// group and kind (apps_deployment.go), holding its registration and its
// strategy; defaults.go and printers.go hold what several kinds share.
//
//	srv, err := apiserver.New(apiserver.Config{Resources: builtin.Resources(),
//		OpenAPIComponents: builtin.OpenAPIComponents()})
package builtin

import (
	"slices"
	"sync"

	"github.com/kapi-dev/kapi/apiserver"
)

// Resources returns the registrations of the 60 built-in resources of
// kube-apiserver 1.33 (61 registrations: autoscaling's in both versions),
// in kube's discovery order (CustomResourceDefinitions: the server's own
// strategy with kube's schema and defaults), each with the schema kube publishes for it (pass
// OpenAPIComponents() as Config.OpenAPIComponents for the OpenAPI
// documents). Both versions of autoscaling and both Event APIs are views
// of one stored object each, as in kube. The review kinds answer as
// Reviews{} does (AlwaysAllow, no token known): WithReviews answers them
// from a server's own authentication and authorization, WithTokenRequest
// issues ServiceAccount tokens. Each call returns a fresh slice
// whose elements the caller may change or replace; the slices and
// strategies they hold are shared between calls and must not be changed
// in place.
func Resources() []apiserver.Resource { return slices.Clone(resources()) }

// resources builds the registrations once: servers start from a copy.
var resources = sync.OnceValue(func() []apiserver.Resource {
	reviews := Reviews{}.answers()
	rs := []apiserver.Resource{
		// core/v1
		bindingResource(),
		componentStatusResource(),
		configMapResource(),
		endpointsResource(),
		eventResource(),
		limitRangeResource(),
		namespaceResource(),
		nodeResource(),
		persistentVolumeClaimResource(),
		persistentVolumeResource(),
		podResource(),
		podTemplateResource(),
		replicationControllerResource(),
		resourceQuotaResource(),
		secretResource(),
		serviceAccountResource(),
		serviceResource(),
		// the API groups, in kube's discovery order
		apiServiceResource(),
		controllerRevisionResource(),
		daemonSetResource(),
		deploymentResource(),
		replicaSetResource(),
		statefulSetResource(),
		eventsEventResource(),
		selfSubjectReviewResource(reviews),
		tokenReviewResource(reviews),
		localSubjectAccessReviewResource(reviews),
		selfSubjectAccessReviewResource(reviews),
		selfSubjectRulesReviewResource(reviews),
		subjectAccessReviewResource(reviews),
		horizontalPodAutoscalerResource(),
		horizontalPodAutoscalerV1Resource(),
		cronJobResource(),
		jobResource(),
		certificateSigningRequestResource(),
		ingressClassResource(),
		ingressResource(),
		ipAddressResource(),
		networkPolicyResource(),
		serviceCIDRResource(),
		podDisruptionBudgetResource(),
		clusterRoleBindingResource(),
		clusterRoleResource(),
		roleBindingResource(),
		roleResource(),
		csiDriverResource(),
		csiNodeResource(),
		csiStorageCapacityResource(),
		storageClassResource(),
		volumeAttachmentResource(),
		mutatingWebhookConfigurationResource(),
		validatingAdmissionPolicyResource(),
		validatingAdmissionPolicyBindingResource(),
		validatingWebhookConfigurationResource(),
		customResourceDefinitionResource(),
		priorityClassResource(),
		leaseResource(),
		runtimeClassResource(),
		endpointSliceResource(),
		flowSchemaResource(),
		priorityLevelConfigurationResource(),
	}
	for i := range rs {
		gvk := rs[i].GroupVersionKind()
		rs[i].Schema = Schema(gvk)
		rs[i].OpenAPIComponent = ComponentName(gvk)
		withKubeEncoding(&rs[i])
	}
	return rs
})
