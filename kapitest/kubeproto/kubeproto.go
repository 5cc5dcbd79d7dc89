// Package kubeproto gives kapi's protobuf codec the descriptors of the
// built-in kinds, so that clients which send built-in kinds as protobuf
// (controller-runtime, client-go's typed clientsets) are understood. The
// descriptors are the library's (codec/protobuf/builtinproto, data
// embedded in the library, which never imports k8s.io/api); Types lists the
// k8s.io/api Go types they are generated from (FromGoTypes, protogen), and
// the tests hold the two equal.
//
//	c := protobuf.New(kubeproto.Resolver())
//	codecs := append(codec.Default(), c)
package kubeproto

//go:generate go run -tags kubeproto_newest ./encodinggen -out ../../apiserver/builtin/encoding.json
//go:generate go run -tags kubeproto_newest ./protogen -out ../../codec/protobuf/builtinproto

import (
	"reflect"
	"sort"

	"google.golang.org/protobuf/reflect/protoreflect"
	admissionregistrationv1 "k8s.io/api/admissionregistration/v1"
	appsv1 "k8s.io/api/apps/v1"
	authenticationv1 "k8s.io/api/authentication/v1"
	authorizationv1 "k8s.io/api/authorization/v1"
	autoscalingv1 "k8s.io/api/autoscaling/v1"
	autoscalingv2 "k8s.io/api/autoscaling/v2"
	batchv1 "k8s.io/api/batch/v1"
	certificatesv1 "k8s.io/api/certificates/v1"
	coordinationv1 "k8s.io/api/coordination/v1"
	corev1 "k8s.io/api/core/v1"
	discoveryv1 "k8s.io/api/discovery/v1"
	eventsv1 "k8s.io/api/events/v1"
	flowcontrolv1 "k8s.io/api/flowcontrol/v1"
	networkingv1 "k8s.io/api/networking/v1"
	nodev1 "k8s.io/api/node/v1"
	policyv1 "k8s.io/api/policy/v1"
	rbacv1 "k8s.io/api/rbac/v1"
	schedulingv1 "k8s.io/api/scheduling/v1"
	storagev1 "k8s.io/api/storage/v1"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"

	"github.com/kapi-dev/kapi/codec/protobuf"
	"github.com/kapi-dev/kapi/codec/protobuf/builtinproto"
	"github.com/kapi-dev/kapi/meta"
)

// Types lists the Go type of each kind served in protobuf: every kind
// kube-apiserver 1.33 serves and its list (the codec would also derive
// XList from X on its own), and the kinds of the scale, eviction and token
// subresources; built with the tag kubeproto_newest, also the kinds served
// since 1.34 (package newest).
var Types = map[meta.GroupVersionKind]any{
	{Version: "v1", Kind: "Binding"}:                                                                     &corev1.Binding{},
	{Version: "v1", Kind: "ComponentStatus"}:                                                             &corev1.ComponentStatus{},
	{Version: "v1", Kind: "ComponentStatusList"}:                                                         &corev1.ComponentStatusList{},
	{Version: "v1", Kind: "ConfigMap"}:                                                                   &corev1.ConfigMap{},
	{Version: "v1", Kind: "ConfigMapList"}:                                                               &corev1.ConfigMapList{},
	{Version: "v1", Kind: "Endpoints"}:                                                                   &corev1.Endpoints{},
	{Version: "v1", Kind: "EndpointsList"}:                                                               &corev1.EndpointsList{},
	{Version: "v1", Kind: "Event"}:                                                                       &corev1.Event{},
	{Version: "v1", Kind: "EventList"}:                                                                   &corev1.EventList{},
	{Version: "v1", Kind: "LimitRange"}:                                                                  &corev1.LimitRange{},
	{Version: "v1", Kind: "LimitRangeList"}:                                                              &corev1.LimitRangeList{},
	{Version: "v1", Kind: "Namespace"}:                                                                   &corev1.Namespace{},
	{Version: "v1", Kind: "NamespaceList"}:                                                               &corev1.NamespaceList{},
	{Version: "v1", Kind: "Node"}:                                                                        &corev1.Node{},
	{Version: "v1", Kind: "NodeList"}:                                                                    &corev1.NodeList{},
	{Version: "v1", Kind: "PersistentVolumeClaim"}:                                                       &corev1.PersistentVolumeClaim{},
	{Version: "v1", Kind: "PersistentVolumeClaimList"}:                                                   &corev1.PersistentVolumeClaimList{},
	{Version: "v1", Kind: "PersistentVolume"}:                                                            &corev1.PersistentVolume{},
	{Version: "v1", Kind: "PersistentVolumeList"}:                                                        &corev1.PersistentVolumeList{},
	{Version: "v1", Kind: "Pod"}:                                                                         &corev1.Pod{},
	{Version: "v1", Kind: "PodList"}:                                                                     &corev1.PodList{},
	{Version: "v1", Kind: "PodTemplate"}:                                                                 &corev1.PodTemplate{},
	{Version: "v1", Kind: "PodTemplateList"}:                                                             &corev1.PodTemplateList{},
	{Version: "v1", Kind: "ReplicationController"}:                                                       &corev1.ReplicationController{},
	{Version: "v1", Kind: "ReplicationControllerList"}:                                                   &corev1.ReplicationControllerList{},
	{Version: "v1", Kind: "ResourceQuota"}:                                                               &corev1.ResourceQuota{},
	{Version: "v1", Kind: "ResourceQuotaList"}:                                                           &corev1.ResourceQuotaList{},
	{Version: "v1", Kind: "Secret"}:                                                                      &corev1.Secret{},
	{Version: "v1", Kind: "SecretList"}:                                                                  &corev1.SecretList{},
	{Version: "v1", Kind: "ServiceAccount"}:                                                              &corev1.ServiceAccount{},
	{Version: "v1", Kind: "ServiceAccountList"}:                                                          &corev1.ServiceAccountList{},
	{Version: "v1", Kind: "Service"}:                                                                     &corev1.Service{},
	{Version: "v1", Kind: "ServiceList"}:                                                                 &corev1.ServiceList{},
	{Group: "apps", Version: "v1", Kind: "ControllerRevision"}:                                           &appsv1.ControllerRevision{},
	{Group: "apps", Version: "v1", Kind: "ControllerRevisionList"}:                                       &appsv1.ControllerRevisionList{},
	{Group: "apps", Version: "v1", Kind: "DaemonSet"}:                                                    &appsv1.DaemonSet{},
	{Group: "apps", Version: "v1", Kind: "DaemonSetList"}:                                                &appsv1.DaemonSetList{},
	{Group: "apps", Version: "v1", Kind: "Deployment"}:                                                   &appsv1.Deployment{},
	{Group: "apps", Version: "v1", Kind: "DeploymentList"}:                                               &appsv1.DeploymentList{},
	{Group: "apps", Version: "v1", Kind: "ReplicaSet"}:                                                   &appsv1.ReplicaSet{},
	{Group: "apps", Version: "v1", Kind: "ReplicaSetList"}:                                               &appsv1.ReplicaSetList{},
	{Group: "apps", Version: "v1", Kind: "StatefulSet"}:                                                  &appsv1.StatefulSet{},
	{Group: "apps", Version: "v1", Kind: "StatefulSetList"}:                                              &appsv1.StatefulSetList{},
	{Group: "events.k8s.io", Version: "v1", Kind: "Event"}:                                               &eventsv1.Event{},
	{Group: "events.k8s.io", Version: "v1", Kind: "EventList"}:                                           &eventsv1.EventList{},
	{Group: "authentication.k8s.io", Version: "v1", Kind: "SelfSubjectReview"}:                           &authenticationv1.SelfSubjectReview{},
	{Group: "authentication.k8s.io", Version: "v1", Kind: "TokenReview"}:                                 &authenticationv1.TokenReview{},
	{Group: "authorization.k8s.io", Version: "v1", Kind: "LocalSubjectAccessReview"}:                     &authorizationv1.LocalSubjectAccessReview{},
	{Group: "authorization.k8s.io", Version: "v1", Kind: "SelfSubjectAccessReview"}:                      &authorizationv1.SelfSubjectAccessReview{},
	{Group: "authorization.k8s.io", Version: "v1", Kind: "SelfSubjectRulesReview"}:                       &authorizationv1.SelfSubjectRulesReview{},
	{Group: "authorization.k8s.io", Version: "v1", Kind: "SubjectAccessReview"}:                          &authorizationv1.SubjectAccessReview{},
	{Group: "autoscaling", Version: "v2", Kind: "HorizontalPodAutoscaler"}:                               &autoscalingv2.HorizontalPodAutoscaler{},
	{Group: "autoscaling", Version: "v2", Kind: "HorizontalPodAutoscalerList"}:                           &autoscalingv2.HorizontalPodAutoscalerList{},
	{Group: "autoscaling", Version: "v1", Kind: "HorizontalPodAutoscaler"}:                               &autoscalingv1.HorizontalPodAutoscaler{},
	{Group: "autoscaling", Version: "v1", Kind: "HorizontalPodAutoscalerList"}:                           &autoscalingv1.HorizontalPodAutoscalerList{},
	{Group: "batch", Version: "v1", Kind: "CronJob"}:                                                     &batchv1.CronJob{},
	{Group: "batch", Version: "v1", Kind: "CronJobList"}:                                                 &batchv1.CronJobList{},
	{Group: "batch", Version: "v1", Kind: "Job"}:                                                         &batchv1.Job{},
	{Group: "batch", Version: "v1", Kind: "JobList"}:                                                     &batchv1.JobList{},
	{Group: "certificates.k8s.io", Version: "v1", Kind: "CertificateSigningRequest"}:                     &certificatesv1.CertificateSigningRequest{},
	{Group: "certificates.k8s.io", Version: "v1", Kind: "CertificateSigningRequestList"}:                 &certificatesv1.CertificateSigningRequestList{},
	{Group: "networking.k8s.io", Version: "v1", Kind: "IngressClass"}:                                    &networkingv1.IngressClass{},
	{Group: "networking.k8s.io", Version: "v1", Kind: "IngressClassList"}:                                &networkingv1.IngressClassList{},
	{Group: "networking.k8s.io", Version: "v1", Kind: "Ingress"}:                                         &networkingv1.Ingress{},
	{Group: "networking.k8s.io", Version: "v1", Kind: "IngressList"}:                                     &networkingv1.IngressList{},
	{Group: "networking.k8s.io", Version: "v1", Kind: "IPAddress"}:                                       &networkingv1.IPAddress{},
	{Group: "networking.k8s.io", Version: "v1", Kind: "IPAddressList"}:                                   &networkingv1.IPAddressList{},
	{Group: "networking.k8s.io", Version: "v1", Kind: "NetworkPolicy"}:                                   &networkingv1.NetworkPolicy{},
	{Group: "networking.k8s.io", Version: "v1", Kind: "NetworkPolicyList"}:                               &networkingv1.NetworkPolicyList{},
	{Group: "networking.k8s.io", Version: "v1", Kind: "ServiceCIDR"}:                                     &networkingv1.ServiceCIDR{},
	{Group: "networking.k8s.io", Version: "v1", Kind: "ServiceCIDRList"}:                                 &networkingv1.ServiceCIDRList{},
	{Group: "policy", Version: "v1", Kind: "PodDisruptionBudget"}:                                        &policyv1.PodDisruptionBudget{},
	{Group: "policy", Version: "v1", Kind: "PodDisruptionBudgetList"}:                                    &policyv1.PodDisruptionBudgetList{},
	{Group: "rbac.authorization.k8s.io", Version: "v1", Kind: "ClusterRoleBinding"}:                      &rbacv1.ClusterRoleBinding{},
	{Group: "rbac.authorization.k8s.io", Version: "v1", Kind: "ClusterRoleBindingList"}:                  &rbacv1.ClusterRoleBindingList{},
	{Group: "rbac.authorization.k8s.io", Version: "v1", Kind: "ClusterRole"}:                             &rbacv1.ClusterRole{},
	{Group: "rbac.authorization.k8s.io", Version: "v1", Kind: "ClusterRoleList"}:                         &rbacv1.ClusterRoleList{},
	{Group: "rbac.authorization.k8s.io", Version: "v1", Kind: "RoleBinding"}:                             &rbacv1.RoleBinding{},
	{Group: "rbac.authorization.k8s.io", Version: "v1", Kind: "RoleBindingList"}:                         &rbacv1.RoleBindingList{},
	{Group: "rbac.authorization.k8s.io", Version: "v1", Kind: "Role"}:                                    &rbacv1.Role{},
	{Group: "rbac.authorization.k8s.io", Version: "v1", Kind: "RoleList"}:                                &rbacv1.RoleList{},
	{Group: "storage.k8s.io", Version: "v1", Kind: "CSIDriver"}:                                          &storagev1.CSIDriver{},
	{Group: "storage.k8s.io", Version: "v1", Kind: "CSIDriverList"}:                                      &storagev1.CSIDriverList{},
	{Group: "storage.k8s.io", Version: "v1", Kind: "CSINode"}:                                            &storagev1.CSINode{},
	{Group: "storage.k8s.io", Version: "v1", Kind: "CSINodeList"}:                                        &storagev1.CSINodeList{},
	{Group: "storage.k8s.io", Version: "v1", Kind: "CSIStorageCapacity"}:                                 &storagev1.CSIStorageCapacity{},
	{Group: "storage.k8s.io", Version: "v1", Kind: "CSIStorageCapacityList"}:                             &storagev1.CSIStorageCapacityList{},
	{Group: "storage.k8s.io", Version: "v1", Kind: "StorageClass"}:                                       &storagev1.StorageClass{},
	{Group: "storage.k8s.io", Version: "v1", Kind: "StorageClassList"}:                                   &storagev1.StorageClassList{},
	{Group: "storage.k8s.io", Version: "v1", Kind: "VolumeAttachment"}:                                   &storagev1.VolumeAttachment{},
	{Group: "storage.k8s.io", Version: "v1", Kind: "VolumeAttachmentList"}:                               &storagev1.VolumeAttachmentList{},
	{Group: "admissionregistration.k8s.io", Version: "v1", Kind: "MutatingWebhookConfiguration"}:         &admissionregistrationv1.MutatingWebhookConfiguration{},
	{Group: "admissionregistration.k8s.io", Version: "v1", Kind: "MutatingWebhookConfigurationList"}:     &admissionregistrationv1.MutatingWebhookConfigurationList{},
	{Group: "admissionregistration.k8s.io", Version: "v1", Kind: "ValidatingAdmissionPolicy"}:            &admissionregistrationv1.ValidatingAdmissionPolicy{},
	{Group: "admissionregistration.k8s.io", Version: "v1", Kind: "ValidatingAdmissionPolicyList"}:        &admissionregistrationv1.ValidatingAdmissionPolicyList{},
	{Group: "admissionregistration.k8s.io", Version: "v1", Kind: "ValidatingAdmissionPolicyBinding"}:     &admissionregistrationv1.ValidatingAdmissionPolicyBinding{},
	{Group: "admissionregistration.k8s.io", Version: "v1", Kind: "ValidatingAdmissionPolicyBindingList"}: &admissionregistrationv1.ValidatingAdmissionPolicyBindingList{},
	{Group: "admissionregistration.k8s.io", Version: "v1", Kind: "ValidatingWebhookConfiguration"}:       &admissionregistrationv1.ValidatingWebhookConfiguration{},
	{Group: "admissionregistration.k8s.io", Version: "v1", Kind: "ValidatingWebhookConfigurationList"}:   &admissionregistrationv1.ValidatingWebhookConfigurationList{},
	{Group: "scheduling.k8s.io", Version: "v1", Kind: "PriorityClass"}:                                   &schedulingv1.PriorityClass{},
	{Group: "scheduling.k8s.io", Version: "v1", Kind: "PriorityClassList"}:                               &schedulingv1.PriorityClassList{},
	{Group: "coordination.k8s.io", Version: "v1", Kind: "Lease"}:                                         &coordinationv1.Lease{},
	{Group: "coordination.k8s.io", Version: "v1", Kind: "LeaseList"}:                                     &coordinationv1.LeaseList{},
	{Group: "node.k8s.io", Version: "v1", Kind: "RuntimeClass"}:                                          &nodev1.RuntimeClass{},
	{Group: "node.k8s.io", Version: "v1", Kind: "RuntimeClassList"}:                                      &nodev1.RuntimeClassList{},
	{Group: "discovery.k8s.io", Version: "v1", Kind: "EndpointSlice"}:                                    &discoveryv1.EndpointSlice{},
	{Group: "discovery.k8s.io", Version: "v1", Kind: "EndpointSliceList"}:                                &discoveryv1.EndpointSliceList{},
	{Group: "flowcontrol.apiserver.k8s.io", Version: "v1", Kind: "FlowSchema"}:                           &flowcontrolv1.FlowSchema{},
	{Group: "flowcontrol.apiserver.k8s.io", Version: "v1", Kind: "FlowSchemaList"}:                       &flowcontrolv1.FlowSchemaList{},
	{Group: "flowcontrol.apiserver.k8s.io", Version: "v1", Kind: "PriorityLevelConfiguration"}:           &flowcontrolv1.PriorityLevelConfiguration{},
	{Group: "flowcontrol.apiserver.k8s.io", Version: "v1", Kind: "PriorityLevelConfigurationList"}:       &flowcontrolv1.PriorityLevelConfigurationList{},
	{Group: "autoscaling", Version: "v1", Kind: "Scale"}:                                                 &autoscalingv1.Scale{},
	{Group: "policy", Version: "v1", Kind: "Eviction"}:                                                   &policyv1.Eviction{},
	{Group: "authentication.k8s.io", Version: "v1", Kind: "TokenRequest"}:                                &authenticationv1.TokenRequest{},
	{Group: "apiregistration.k8s.io", Version: "v1", Kind: "APIService"}:                                 &APIService{},
	{Group: "apiregistration.k8s.io", Version: "v1", Kind: "APIServiceList"}:                             &APIServiceList{},
	{Group: "apiextensions.k8s.io", Version: "v1", Kind: "CustomResourceDefinition"}:                     &apiextensionsv1.CustomResourceDefinition{},
	{Group: "apiextensions.k8s.io", Version: "v1", Kind: "CustomResourceDefinitionList"}:                 &apiextensionsv1.CustomResourceDefinitionList{},
}

// FromGoTypes builds the descriptor of every kind in Types from its Go
// type (protobuf.DescriptorsFromGoTypes): what protogen writes into the
// library, and what the library's descriptors are tested against.
func FromGoTypes() (map[meta.GroupVersionKind]protoreflect.MessageDescriptor, error) {
	gvks := make([]meta.GroupVersionKind, 0, len(Types))
	for gvk := range Types {
		gvks = append(gvks, gvk)
	}
	sort.Slice(gvks, func(i, j int) bool {
		a, b := gvks[i], gvks[j]
		return a.Group+"/"+a.Version+"/"+a.Kind < b.Group+"/"+b.Version+"/"+b.Kind
	})
	types := make([]reflect.Type, len(gvks))
	for i, gvk := range gvks {
		types[i] = reflect.TypeOf(Types[gvk])
	}
	mds, err := protobuf.DescriptorsFromGoTypes(types...)
	if err != nil {
		return nil, err
	}
	out := make(map[meta.GroupVersionKind]protoreflect.MessageDescriptor, len(gvks))
	for i, gvk := range gvks {
		out[gvk] = mds[i]
	}
	return out, nil
}

// Descriptors returns the descriptor of every kind in Types, from the
// library's data (builtinproto.Descriptors).
func Descriptors() (map[meta.GroupVersionKind]protoreflect.MessageDescriptor, error) {
	return builtinproto.Descriptors()
}

// Resolver returns a protobuf.TypeResolver over Descriptors
// (builtinproto.Resolver), read on the first protobuf request rather than
// at start-up.
func Resolver() protobuf.TypeResolver {
	return builtinproto.Resolver()
}
