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
	"fmt"
	"slices"
	"sync"

	"github.com/kapi-dev/kapi/apiserver"
	"github.com/kapi-dev/kapi/apiserver/flowcontrol"
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
// issues ServiceAccount tokens, WithFlowControlV1beta3 adds the flowcontrol
// kinds' v1beta3 (which kube 1.33 does not serve). Each call returns a fresh slice
// whose elements the caller may change or replace; the slices and
// strategies they hold are shared between calls and must not be changed
// in place.
func Resources() []apiserver.Resource { return ResourcesFor(apiserver.DefaultRelease) }

// ResourcesFor is Resources as kube-apiserver release r serves them by
// default: its kinds (1.37 adds resource.k8s.io's, VolumeAttributesClass,
// the MutatingAdmissionPolicies and StorageVersionMigration), their
// schemas as r publishes them, and what r prints and stores differently.
// Serve them with Config.Release r and OpenAPIComponentsFor(r). It panics
// on a release kapi has no data for (apiserver.Releases lists them).
func ResourcesFor(r apiserver.Release) []apiserver.Resource {
	f, ok := releaseResources[r.OrDefault()]
	if !ok {
		panic(fmt.Sprintf("builtin: no data for release %q", r))
	}
	return slices.Clone(f())
}

// releaseResources builds each release's registrations once: servers
// start from a copy.
var releaseResources = func() map[apiserver.Release]func() []apiserver.Resource {
	m := map[apiserver.Release]func() []apiserver.Resource{}
	for _, r := range apiserver.Releases() {
		m[r] = sync.OnceValue(func() []apiserver.Resource { return buildResources(r) })
	}
	return m
}()

func buildResources(rel apiserver.Release) []apiserver.Resource {
	reviews := Reviews{}.answers()
	reviews.release = rel
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
	rs = withReleaseKinds(rel, rs)
	for i := range rs {
		gvk := rs[i].GroupVersionKind()
		if adapt := adaptedSchemas[gvk]; adapt != nil { // a kind may adapt its schema (RuntimeClass, ControllerRevision, Node, Namespace)
			rs[i].Schema = adapt(rel)
		} else {
			rs[i].Schema = SchemaFor(rel, gvk)
		}
		rs[i].OpenAPIComponent = ComponentNameFor(rel, gvk)
		withReleaseChanges(rel, &rs[i])
		rs[i].PrinterColumns = describeColumns(rel, rs[i].PrinterColumns)
		withKubeEncoding(&rs[i], rel)
	}
	return rs
}

// WithFlowControlV1beta3 returns rs (as Resources() has them) with
// flowcontrol.apiserver.k8s.io/v1beta3 FlowSchemas and
// PriorityLevelConfigurations added after their v1 registrations: the
// version API Priority and Fairness was documented in, which kube 1.33 no
// longer serves by default (kube-apiserver's
// --runtime-config=flowcontrol.apiserver.k8s.io/v1beta3=true). Both are
// views of the stored v1 objects, as in kube; v1 stays the preferred
// version. Like append, it may reuse rs's array.
func WithFlowControlV1beta3(rs []apiserver.Resource) []apiserver.Resource {
	beta := []apiserver.Resource{flowSchemaV1beta3Resource(), priorityLevelConfigurationV1beta3Resource()}
	for i := range beta {
		// v1beta3's schema is v1's (the release's, as rs has it): the two
		// differ in defaults only.
		gvk := beta[i].GroupVersionKind()
		gvk.Version = "v1"
		for _, v1 := range rs {
			if v1.GroupVersionKind() == gvk {
				beta[i].Schema, beta[i].OpenAPIComponent = v1.Schema, v1.OpenAPIComponent
				beta[i].PrinterColumns = v1.PrinterColumns // v1's, described as rs's release describes them
			}
		}
		if beta[i].Schema == nil {
			beta[i].Schema, beta[i].OpenAPIComponent = Schema(gvk), ComponentName(gvk)
			beta[i].PrinterColumns = describeColumns(apiserver.DefaultRelease, beta[i].PrinterColumns)
		}
		withKubeEncoding(&beta[i], apiserver.DefaultRelease)
	}
	at := len(rs)
	for i := len(rs) - 1; i >= 0; i-- {
		if rs[i].Group == flowcontrol.Group {
			at = i + 1
			break
		}
	}
	return slices.Insert(rs, at, beta...)
}
