// Package kubeproto gives kapi's protobuf codec the descriptors of the
// built-in kinds the example server serves, built by reflection from the
// k8s.io/api Go types (codec/protobuf.DescriptorsFromGoTypes). Only this
// examples module imports k8s.io/api; the kapi library never does.
//
//	c := protobuf.New(kubeproto.Resolver())
//	codecs := append(codec.Default(), c)
package kubeproto

import (
	"fmt"
	"reflect"
	"sync"

	"google.golang.org/protobuf/reflect/protoreflect"
	appsv1 "k8s.io/api/apps/v1"
	authenticationv1 "k8s.io/api/authentication/v1"
	authorizationv1 "k8s.io/api/authorization/v1"
	coordinationv1 "k8s.io/api/coordination/v1"
	corev1 "k8s.io/api/core/v1"
	rbacv1 "k8s.io/api/rbac/v1"

	"github.com/kapi-dev/kapi/codec/protobuf"
	"github.com/kapi-dev/kapi/meta"
)

// Types lists the Go type of each kind served in protobuf: the example
// server's kinds and their lists (the codec would also derive XList from X
// on its own), and PersistentVolume, whose spec inlines a struct.
var Types = map[meta.GroupVersionKind]any{
	{Version: "v1", Kind: "ConfigMap"}:                               &corev1.ConfigMap{},
	{Version: "v1", Kind: "ConfigMapList"}:                           &corev1.ConfigMapList{},
	{Version: "v1", Kind: "Secret"}:                                  &corev1.Secret{},
	{Version: "v1", Kind: "SecretList"}:                              &corev1.SecretList{},
	{Version: "v1", Kind: "ServiceAccount"}:                          &corev1.ServiceAccount{},
	{Version: "v1", Kind: "ServiceAccountList"}:                      &corev1.ServiceAccountList{},
	{Version: "v1", Kind: "Service"}:                                 &corev1.Service{},
	{Version: "v1", Kind: "ServiceList"}:                             &corev1.ServiceList{},
	{Version: "v1", Kind: "Pod"}:                                     &corev1.Pod{},
	{Version: "v1", Kind: "PodList"}:                                 &corev1.PodList{},
	{Version: "v1", Kind: "Event"}:                                   &corev1.Event{},
	{Version: "v1", Kind: "EventList"}:                               &corev1.EventList{},
	{Version: "v1", Kind: "Namespace"}:                               &corev1.Namespace{},
	{Version: "v1", Kind: "NamespaceList"}:                           &corev1.NamespaceList{},
	{Version: "v1", Kind: "PersistentVolume"}:                        &corev1.PersistentVolume{},
	{Group: "apps", Version: "v1", Kind: "Deployment"}:               &appsv1.Deployment{},
	{Group: "apps", Version: "v1", Kind: "DeploymentList"}:           &appsv1.DeploymentList{},
	{Group: "coordination.k8s.io", Version: "v1", Kind: "Lease"}:     &coordinationv1.Lease{},
	{Group: "coordination.k8s.io", Version: "v1", Kind: "LeaseList"}: &coordinationv1.LeaseList{},

	{Group: "rbac.authorization.k8s.io", Version: "v1", Kind: "Role"}:                   &rbacv1.Role{},
	{Group: "rbac.authorization.k8s.io", Version: "v1", Kind: "RoleList"}:               &rbacv1.RoleList{},
	{Group: "rbac.authorization.k8s.io", Version: "v1", Kind: "ClusterRole"}:            &rbacv1.ClusterRole{},
	{Group: "rbac.authorization.k8s.io", Version: "v1", Kind: "ClusterRoleList"}:        &rbacv1.ClusterRoleList{},
	{Group: "rbac.authorization.k8s.io", Version: "v1", Kind: "RoleBinding"}:            &rbacv1.RoleBinding{},
	{Group: "rbac.authorization.k8s.io", Version: "v1", Kind: "RoleBindingList"}:        &rbacv1.RoleBindingList{},
	{Group: "rbac.authorization.k8s.io", Version: "v1", Kind: "ClusterRoleBinding"}:     &rbacv1.ClusterRoleBinding{},
	{Group: "rbac.authorization.k8s.io", Version: "v1", Kind: "ClusterRoleBindingList"}: &rbacv1.ClusterRoleBindingList{},
	{Group: "authorization.k8s.io", Version: "v1", Kind: "SubjectAccessReview"}:         &authorizationv1.SubjectAccessReview{},
	{Group: "authorization.k8s.io", Version: "v1", Kind: "LocalSubjectAccessReview"}:    &authorizationv1.LocalSubjectAccessReview{},
	{Group: "authorization.k8s.io", Version: "v1", Kind: "SelfSubjectAccessReview"}:     &authorizationv1.SelfSubjectAccessReview{},
	{Group: "authorization.k8s.io", Version: "v1", Kind: "SelfSubjectRulesReview"}:      &authorizationv1.SelfSubjectRulesReview{},
	{Group: "authentication.k8s.io", Version: "v1", Kind: "TokenReview"}:                &authenticationv1.TokenReview{},
	{Group: "authentication.k8s.io", Version: "v1", Kind: "SelfSubjectReview"}:          &authenticationv1.SelfSubjectReview{},
	{Group: "authentication.k8s.io", Version: "v1", Kind: "TokenRequest"}:               &authenticationv1.TokenRequest{},
}

var descriptors = sync.OnceValues(func() (map[meta.GroupVersionKind]protoreflect.MessageDescriptor, error) {
	gvks := make([]meta.GroupVersionKind, 0, len(Types))
	types := make([]reflect.Type, 0, len(Types))
	for gvk, v := range Types {
		gvks = append(gvks, gvk)
		types = append(types, reflect.TypeOf(v))
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
})

// Descriptors returns the descriptor of every kind in Types.
func Descriptors() (map[meta.GroupVersionKind]protoreflect.MessageDescriptor, error) {
	return descriptors()
}

// Resolver returns a protobuf.TypeResolver over Descriptors, built on the
// first protobuf request rather than at start-up (a few milliseconds). It
// panics if the descriptors cannot be built (a programming error, covered
// by tests).
func Resolver() protobuf.TypeResolver {
	return func(gvk meta.GroupVersionKind) protoreflect.MessageDescriptor {
		mds, err := descriptors()
		if err != nil {
			panic(fmt.Sprintf("kubeproto: %v", err))
		}
		return mds[gvk]
	}
}
