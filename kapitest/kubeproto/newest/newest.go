//go:build kubeproto_newest

package newest

// Package newest holds the Go types of the kinds kube-apiserver serves by
// default since 1.34, in versions that k8s.io/api v0.33 (the oldest set
// kapitest/go.mod requires) does not have. It is compiled only at the
// newest end of the supported range, where the library's data is generated
// and compared (go generate and compat/test.sh newest set the tag
// kubeproto_newest), and only protogen, encodinggen and kubeproto's tests
// import it: no package a user imports does, so a user's go mod tidy,
// which reads files of every tag, never sees these k8s.io/api packages.

import (
	admissionregistrationv1 "k8s.io/api/admissionregistration/v1"
	certificatesv1 "k8s.io/api/certificates/v1"
	resourcev1 "k8s.io/api/resource/v1"
	storagev1 "k8s.io/api/storage/v1"
	storagemigrationv1 "k8s.io/api/storagemigration/v1"

	"github.com/kapi-dev/kapi/meta"
)

// Types are the kinds' Go types, by kind, to add to kubeproto.Types.
func Types() map[meta.GroupVersionKind]any {
	return map[meta.GroupVersionKind]any{
		{Group: "admissionregistration.k8s.io", Version: "v1", Kind: "MutatingAdmissionPolicy"}:            &admissionregistrationv1.MutatingAdmissionPolicy{},
		{Group: "admissionregistration.k8s.io", Version: "v1", Kind: "MutatingAdmissionPolicyList"}:        &admissionregistrationv1.MutatingAdmissionPolicyList{},
		{Group: "admissionregistration.k8s.io", Version: "v1", Kind: "MutatingAdmissionPolicyBinding"}:     &admissionregistrationv1.MutatingAdmissionPolicyBinding{},
		{Group: "admissionregistration.k8s.io", Version: "v1", Kind: "MutatingAdmissionPolicyBindingList"}: &admissionregistrationv1.MutatingAdmissionPolicyBindingList{},
		{Group: "certificates.k8s.io", Version: "v1", Kind: "ClusterTrustBundle"}:                          &certificatesv1.ClusterTrustBundle{},
		{Group: "certificates.k8s.io", Version: "v1", Kind: "ClusterTrustBundleList"}:                      &certificatesv1.ClusterTrustBundleList{},
		{Group: "certificates.k8s.io", Version: "v1", Kind: "PodCertificateRequest"}:                       &certificatesv1.PodCertificateRequest{},
		{Group: "certificates.k8s.io", Version: "v1", Kind: "PodCertificateRequestList"}:                   &certificatesv1.PodCertificateRequestList{},
		{Group: "resource.k8s.io", Version: "v1", Kind: "DeviceClass"}:                                     &resourcev1.DeviceClass{},
		{Group: "resource.k8s.io", Version: "v1", Kind: "DeviceClassList"}:                                 &resourcev1.DeviceClassList{},
		{Group: "resource.k8s.io", Version: "v1", Kind: "DeviceTaintRule"}:                                 &resourcev1.DeviceTaintRule{},
		{Group: "resource.k8s.io", Version: "v1", Kind: "DeviceTaintRuleList"}:                             &resourcev1.DeviceTaintRuleList{},
		{Group: "resource.k8s.io", Version: "v1", Kind: "ResourceClaim"}:                                   &resourcev1.ResourceClaim{},
		{Group: "resource.k8s.io", Version: "v1", Kind: "ResourceClaimList"}:                               &resourcev1.ResourceClaimList{},
		{Group: "resource.k8s.io", Version: "v1", Kind: "ResourceClaimTemplate"}:                           &resourcev1.ResourceClaimTemplate{},
		{Group: "resource.k8s.io", Version: "v1", Kind: "ResourceClaimTemplateList"}:                       &resourcev1.ResourceClaimTemplateList{},
		{Group: "resource.k8s.io", Version: "v1", Kind: "ResourceSlice"}:                                   &resourcev1.ResourceSlice{},
		{Group: "resource.k8s.io", Version: "v1", Kind: "ResourceSliceList"}:                               &resourcev1.ResourceSliceList{},
		{Group: "storage.k8s.io", Version: "v1", Kind: "VolumeAttributesClass"}:                            &storagev1.VolumeAttributesClass{},
		{Group: "storage.k8s.io", Version: "v1", Kind: "VolumeAttributesClassList"}:                        &storagev1.VolumeAttributesClassList{},
		{Group: "storagemigration.k8s.io", Version: "v1", Kind: "StorageVersionMigration"}:                 &storagemigrationv1.StorageVersionMigration{},
		{Group: "storagemigration.k8s.io", Version: "v1", Kind: "StorageVersionMigrationList"}:             &storagemigrationv1.StorageVersionMigrationList{},
	}
}
