//go:build kubeproto_newest

package kubeproto

// Realistic objects of the kinds served since 1.34 (package newest), for
// TestKinds at the newest end of the supported range.

import (
	admissionregistrationv1 "k8s.io/api/admissionregistration/v1"
	certificatesv1 "k8s.io/api/certificates/v1"
	resourcev1 "k8s.io/api/resource/v1"
	storagev1 "k8s.io/api/storage/v1"
	storagemigrationv1 "k8s.io/api/storagemigration/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
)

// The objects are typed; Types gains these kinds only in protogen and
// encodinggen (package newest), which no test of a package a user imports
// may import: go mod tidy follows the tests of dependencies too.
func init() { newestObjects = objectsSince134 }

func objectsSince134() []runtime.Object {
	clusterMeta := func(name string) metav1.ObjectMeta {
		m := objectMeta(name)
		m.Namespace = ""
		return m
	}
	taint := resourcev1.DeviceTaint{Key: "example.com/maintenance", Value: "firmware-upgrade",
		Effect: resourcev1.DeviceTaintEffectNoSchedule, TimeAdded: &created}
	claimSpec := resourcev1.ResourceClaimSpec{Devices: resourcev1.DeviceClaim{
		Requests: []resourcev1.DeviceRequest{{
			Name: "gpu",
			Exactly: &resourcev1.ExactDeviceRequest{DeviceClassName: "gpu.example.com", AllocationMode: resourcev1.DeviceAllocationModeExactCount, Count: 1,
				Selectors:   []resourcev1.DeviceSelector{{CEL: &resourcev1.CELDeviceSelector{Expression: `device.capacity["gpu.example.com"].memory.compareTo(quantity("40Gi")) >= 0`}}},
				Tolerations: []resourcev1.DeviceToleration{{Key: "example.com/maintenance", Operator: resourcev1.DeviceTolerationOpExists, Effect: resourcev1.DeviceTaintEffectNoSchedule}}},
		}, {
			Name:           "alt",
			FirstAvailable: []resourcev1.DeviceSubRequest{{Name: "large", DeviceClassName: "gpu.example.com", AllocationMode: resourcev1.DeviceAllocationModeAll}},
		}},
		Config: []resourcev1.DeviceClaimConfiguration{{Requests: []string{"gpu"}, DeviceConfiguration: resourcev1.DeviceConfiguration{
			Opaque: &resourcev1.OpaqueDeviceConfiguration{Driver: "gpu.example.com", Parameters: runtime.RawExtension{Raw: []byte(`{"sharing":"TimeSlicing"}`)}}}}},
	}}
	return []runtime.Object{
		&certificatesv1.ClusterTrustBundle{TypeMeta: metav1.TypeMeta{APIVersion: "certificates.k8s.io/v1", Kind: "ClusterTrustBundle"},
			ObjectMeta: clusterMeta("example.com:internal-ca:2026"),
			Spec:       certificatesv1.ClusterTrustBundleSpec{SignerName: "example.com/internal-ca", TrustBundle: "-----BEGIN CERTIFICATE-----\nMIIBpTCC\n-----END CERTIFICATE-----\n"}},
		&certificatesv1.PodCertificateRequest{TypeMeta: metav1.TypeMeta{APIVersion: "certificates.k8s.io/v1", Kind: "PodCertificateRequest"},
			ObjectMeta: objectMeta("web-0-workload-identity-7k2xq"),
			Spec: certificatesv1.PodCertificateRequestSpec{SignerName: "example.com/workload-identity", PodName: "web-0", PodUID: "0b5d6a2e",
				ServiceAccountName: "default", ServiceAccountUID: "6f1e2d3c", NodeName: "node-1", NodeUID: "9a8b7c6d",
				MaxExpirationSeconds: ptr(int32(86400)), StubPKCS10Request: []byte{0x30, 0x7f, 0x30, 0x33},
				UnverifiedUserAnnotations: map[string]string{"example.com/audience": "payments"}},
			Status: certificatesv1.PodCertificateRequestStatus{
				Conditions:       []metav1.Condition{{Type: "Issued", Status: metav1.ConditionTrue, Reason: "Signed", Message: "issued", LastTransitionTime: later, ObservedGeneration: 1}},
				CertificateChain: "-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n",
				NotBefore:        &created, BeginRefreshAt: &later, NotAfter: &later}},
		&resourcev1.DeviceClass{TypeMeta: metav1.TypeMeta{APIVersion: "resource.k8s.io/v1", Kind: "DeviceClass"}, ObjectMeta: clusterMeta("gpu.example.com"),
			Spec: resourcev1.DeviceClassSpec{
				Selectors:            []resourcev1.DeviceSelector{{CEL: &resourcev1.CELDeviceSelector{Expression: `device.driver == "gpu.example.com"`}}},
				Config:               []resourcev1.DeviceClassConfiguration{{DeviceConfiguration: resourcev1.DeviceConfiguration{Opaque: &resourcev1.OpaqueDeviceConfiguration{Driver: "gpu.example.com", Parameters: runtime.RawExtension{Raw: []byte(`{"kind":"GpuConfig"}`)}}}}},
				ExtendedResourceName: ptr("example.com/gpu")}},
		&resourcev1.DeviceTaintRule{TypeMeta: metav1.TypeMeta{APIVersion: "resource.k8s.io/v1", Kind: "DeviceTaintRule"}, ObjectMeta: clusterMeta("gpu-0-firmware-upgrade"),
			Spec:   resourcev1.DeviceTaintRuleSpec{DeviceSelector: &resourcev1.DeviceTaintSelector{Driver: ptr("gpu.example.com"), Pool: ptr("node-1"), Device: ptr("gpu-0")}, Taint: taint},
			Status: resourcev1.DeviceTaintRuleStatus{Conditions: []metav1.Condition{{Type: "EvictionInProgress", Status: metav1.ConditionFalse, Reason: "NoEffect", Message: "0 pods", LastTransitionTime: later}}}},
		&resourcev1.ResourceClaim{TypeMeta: metav1.TypeMeta{APIVersion: "resource.k8s.io/v1", Kind: "ResourceClaim"}, ObjectMeta: objectMeta("shared-gpu"), Spec: claimSpec,
			Status: resourcev1.ResourceClaimStatus{
				Allocation: &resourcev1.AllocationResult{Devices: resourcev1.DeviceAllocationResult{Results: []resourcev1.DeviceRequestAllocationResult{{
					Request: "gpu", Driver: "gpu.example.com", Pool: "node-1", Device: "gpu-0"}}}, AllocationTimestamp: &later},
				ReservedFor: []resourcev1.ResourceClaimConsumerReference{{Resource: "pods", Name: "web-0", UID: "0b5d6a2e"}}}},
		&resourcev1.ResourceClaimTemplate{TypeMeta: metav1.TypeMeta{APIVersion: "resource.k8s.io/v1", Kind: "ResourceClaimTemplate"}, ObjectMeta: objectMeta("single-gpu"),
			Spec: resourcev1.ResourceClaimTemplateSpec{ObjectMeta: metav1.ObjectMeta{Labels: map[string]string{"app": "inference"}}, Spec: claimSpec}},
		&resourcev1.ResourceSlice{TypeMeta: metav1.TypeMeta{APIVersion: "resource.k8s.io/v1", Kind: "ResourceSlice"}, ObjectMeta: clusterMeta("node-1-gpu.example.com-x7k2p"),
			Spec: resourcev1.ResourceSliceSpec{Driver: "gpu.example.com", NodeName: ptr("node-1"),
				Pool: resourcev1.ResourcePool{Name: "node-1", Generation: 1, ResourceSliceCount: 1},
				Devices: []resourcev1.Device{{
					Name: "gpu-0",
					Attributes: map[resourcev1.QualifiedName]resourcev1.DeviceAttribute{
						"model": {StringValue: ptr("A100")}, "index": {IntValue: ptr(int64(0))},
						"driverVersion": {VersionValue: ptr("1.2.3")}, "migCapable": {BoolValue: ptr(true)}},
					Capacity: map[resourcev1.QualifiedName]resourcev1.DeviceCapacity{"memory": {Value: resource.MustParse("40Gi")}},
					Taints:   []resourcev1.DeviceTaint{taint},
				}}}},
		&admissionregistrationv1.MutatingAdmissionPolicy{TypeMeta: metav1.TypeMeta{APIVersion: "admissionregistration.k8s.io/v1", Kind: "MutatingAdmissionPolicy"},
			ObjectMeta: clusterMeta("mesh-sidecar"),
			Spec: admissionregistrationv1.MutatingAdmissionPolicySpec{
				MatchConstraints: &admissionregistrationv1.MatchResources{
					NamespaceSelector: &metav1.LabelSelector{}, ObjectSelector: &metav1.LabelSelector{},
					MatchPolicy: ptr(admissionregistrationv1.Equivalent),
					ResourceRules: []admissionregistrationv1.NamedRuleWithOperations{{RuleWithOperations: admissionregistrationv1.RuleWithOperations{
						Operations: []admissionregistrationv1.OperationType{admissionregistrationv1.Create},
						Rule:       admissionregistrationv1.Rule{APIGroups: []string{""}, APIVersions: []string{"v1"}, Resources: []string{"pods"}, Scope: ptr(admissionregistrationv1.AllScopes)}}}}},
				MatchConditions: []admissionregistrationv1.MatchCondition{{Name: "no-sidecar-yet", Expression: `!has(object.spec.initContainers)`}},
				Variables:       []admissionregistrationv1.Variable{{Name: "image", Expression: `"mesh/proxy:v1.0.0"`}},
				Mutations: []admissionregistrationv1.Mutation{{PatchType: admissionregistrationv1.PatchTypeApplyConfiguration,
					ApplyConfiguration: &admissionregistrationv1.ApplyConfiguration{Expression: `Object{spec: Object.spec{initContainers: [Object.spec.initContainers{name: "mesh-proxy", image: variables.image}]}}`}}},
				FailurePolicy:      ptr(admissionregistrationv1.Fail),
				ReinvocationPolicy: admissionregistrationv1.IfNeededReinvocationPolicy}},
		&admissionregistrationv1.MutatingAdmissionPolicyBinding{TypeMeta: metav1.TypeMeta{APIVersion: "admissionregistration.k8s.io/v1", Kind: "MutatingAdmissionPolicyBinding"},
			ObjectMeta: clusterMeta("mesh-sidecar-binding"),
			Spec: admissionregistrationv1.MutatingAdmissionPolicyBindingSpec{PolicyName: "mesh-sidecar",
				ParamRef: &admissionregistrationv1.ParamRef{Name: "mesh-config", Namespace: "mesh-system", ParameterNotFoundAction: ptr(admissionregistrationv1.DenyAction)},
				MatchResources: &admissionregistrationv1.MatchResources{
					NamespaceSelector: &metav1.LabelSelector{MatchLabels: map[string]string{"mesh.example.com/injection": "enabled"}},
					ObjectSelector:    &metav1.LabelSelector{}, MatchPolicy: ptr(admissionregistrationv1.Equivalent)}}},
		&storagemigrationv1.StorageVersionMigration{TypeMeta: metav1.TypeMeta{APIVersion: "storagemigration.k8s.io/v1", Kind: "StorageVersionMigration"},
			ObjectMeta: clusterMeta("secrets-encryption-key-rotation"),
			Spec:       storagemigrationv1.StorageVersionMigrationSpec{Resource: metav1.GroupResource{Group: "", Resource: "secrets"}},
			Status: storagemigrationv1.StorageVersionMigrationStatus{ResourceVersion: "4242",
				Conditions: []metav1.Condition{{Type: "Running", Status: metav1.ConditionTrue, Reason: "Migrating", Message: "m", LastTransitionTime: later}}}},
		&storagev1.VolumeAttributesClass{TypeMeta: metav1.TypeMeta{APIVersion: "storage.k8s.io/v1", Kind: "VolumeAttributesClass"},
			ObjectMeta: clusterMeta("gold"), DriverName: "ebs.csi.aws.com",
			Parameters: map[string]string{"type": "gp3", "iops": "16000", "throughput": "1000"}},
	}
}
