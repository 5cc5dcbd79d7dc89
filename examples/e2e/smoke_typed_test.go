package e2e

// The smoke test's typed clients: each served kind through client-go's
// typed clientset (and apiextensions' for CRDs), the way a controller holds
// it, behind one small interface so that the test can drive every kind
// alike. A kind without an entry fails the smoke test.

import (
	"context"
	"errors"
	"fmt"
	"mime"
	"net/http"

	admissionregistrationv1 "k8s.io/api/admissionregistration/v1"
	appsv1 "k8s.io/api/apps/v1"
	authenticationv1 "k8s.io/api/authentication/v1"
	authorizationv1 "k8s.io/api/authorization/v1"
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
	resourcev1 "k8s.io/api/resource/v1"
	schedulingv1 "k8s.io/api/scheduling/v1"
	storagev1 "k8s.io/api/storage/v1"
	storagemigrationv1 "k8s.io/api/storagemigration/v1"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	apiextensionsclient "k8s.io/apiextensions-apiserver/pkg/client/clientset/clientset"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/client-go/kubernetes"
)

// smokeClient is one kind's typed client. Kinds served for create only
// answer errSmokeNotServed to the rest.
type smokeClient interface {
	create(ctx context.Context, obj runtime.Object) (runtime.Object, error)
	get(ctx context.Context, name string) (runtime.Object, error)
	list(ctx context.Context) (runtime.Object, error)
	update(ctx context.Context, obj runtime.Object) (runtime.Object, error)
	delete(ctx context.Context, name string) error
}

var errSmokeNotServed = errors.New("the kind's typed client has no such verb")

// smokeCRUDClient is the shape of every typed client of a stored kind.
type smokeCRUDClient[T, L runtime.Object] interface {
	Create(context.Context, T, metav1.CreateOptions) (T, error)
	Get(context.Context, string, metav1.GetOptions) (T, error)
	List(context.Context, metav1.ListOptions) (L, error)
	Update(context.Context, T, metav1.UpdateOptions) (T, error)
	Delete(context.Context, string, metav1.DeleteOptions) error
}

type smokeCRUD[T, L runtime.Object] struct{ c smokeCRUDClient[T, L] }

func (a smokeCRUD[T, L]) create(ctx context.Context, obj runtime.Object) (runtime.Object, error) {
	return a.c.Create(ctx, obj.(T), metav1.CreateOptions{})
}
func (a smokeCRUD[T, L]) get(ctx context.Context, name string) (runtime.Object, error) {
	return a.c.Get(ctx, name, metav1.GetOptions{})
}
func (a smokeCRUD[T, L]) list(ctx context.Context) (runtime.Object, error) {
	return a.c.List(ctx, metav1.ListOptions{})
}
func (a smokeCRUD[T, L]) update(ctx context.Context, obj runtime.Object) (runtime.Object, error) {
	return a.c.Update(ctx, obj.(T), metav1.UpdateOptions{})
}
func (a smokeCRUD[T, L]) delete(ctx context.Context, name string) error {
	return a.c.Delete(ctx, name, metav1.DeleteOptions{})
}

// smokeCreateClient is the shape of a review's typed client.
type smokeCreateClient[T runtime.Object] interface {
	Create(context.Context, T, metav1.CreateOptions) (T, error)
}

type smokeCreateOnly[T runtime.Object] struct{ c smokeCreateClient[T] }

func (a smokeCreateOnly[T]) create(ctx context.Context, obj runtime.Object) (runtime.Object, error) {
	return a.c.Create(ctx, obj.(T), metav1.CreateOptions{})
}
func (smokeCreateOnly[T]) get(context.Context, string) (runtime.Object, error) {
	return nil, errSmokeNotServed
}
func (smokeCreateOnly[T]) list(context.Context) (runtime.Object, error) {
	return nil, errSmokeNotServed
}
func (smokeCreateOnly[T]) delete(context.Context, string) error { return errSmokeNotServed }
func (smokeCreateOnly[T]) update(context.Context, runtime.Object) (runtime.Object, error) {
	return nil, errSmokeNotServed
}

// smokePodBinder is the typed client of a Binding: the pods client's Bind.
type smokePodBinder struct {
	pods interface {
		Bind(context.Context, *corev1.Binding, metav1.CreateOptions) error
	}
}

func (b smokePodBinder) Create(ctx context.Context, obj *corev1.Binding, opts metav1.CreateOptions) (*corev1.Binding, error) {
	return obj, b.pods.Bind(ctx, obj, opts)
}

// smokeReadClient is the shape of a read-only kind's typed client.
type smokeReadClient[T, L runtime.Object] interface {
	Get(context.Context, string, metav1.GetOptions) (T, error)
	List(context.Context, metav1.ListOptions) (L, error)
}

type smokeReadOnly[T, L runtime.Object] struct{ c smokeReadClient[T, L] }

func (a smokeReadOnly[T, L]) get(ctx context.Context, name string) (runtime.Object, error) {
	return a.c.Get(ctx, name, metav1.GetOptions{})
}
func (a smokeReadOnly[T, L]) list(ctx context.Context) (runtime.Object, error) {
	return a.c.List(ctx, metav1.ListOptions{})
}
func (smokeReadOnly[T, L]) create(context.Context, runtime.Object) (runtime.Object, error) {
	return nil, errSmokeNotServed
}
func (smokeReadOnly[T, L]) update(context.Context, runtime.Object) (runtime.Object, error) {
	return nil, errSmokeNotServed
}
func (smokeReadOnly[T, L]) delete(context.Context, string) error { return errSmokeNotServed }

// smokeClientFunc is every served kind's typed client, by the kind's key
// (plural.group) in namespace ns.
type smokeClientFunc func(cs kubernetes.Interface, ax apiextensionsclient.Interface, ns string) smokeClient

var smokeTypedClients = map[string]smokeClientFunc{
	// core/v1
	"bindings": func(cs kubernetes.Interface, _ apiextensionsclient.Interface, ns string) smokeClient {
		return smokeCreateOnly[*corev1.Binding]{smokePodBinder{cs.CoreV1().Pods(ns)}}
	},
	"componentstatuses": func(cs kubernetes.Interface, _ apiextensionsclient.Interface, _ string) smokeClient {
		return smokeReadOnly[*corev1.ComponentStatus, *corev1.ComponentStatusList]{cs.CoreV1().ComponentStatuses()}
	},
	"configmaps": func(cs kubernetes.Interface, _ apiextensionsclient.Interface, ns string) smokeClient {
		return smokeCRUD[*corev1.ConfigMap, *corev1.ConfigMapList]{cs.CoreV1().ConfigMaps(ns)}
	},
	"endpoints": func(cs kubernetes.Interface, _ apiextensionsclient.Interface, ns string) smokeClient {
		return smokeCRUD[*corev1.Endpoints, *corev1.EndpointsList]{cs.CoreV1().Endpoints(ns)} //nolint:staticcheck // a served kind
	},
	"events": func(cs kubernetes.Interface, _ apiextensionsclient.Interface, ns string) smokeClient {
		return smokeCRUD[*corev1.Event, *corev1.EventList]{cs.CoreV1().Events(ns)}
	},
	"limitranges": func(cs kubernetes.Interface, _ apiextensionsclient.Interface, ns string) smokeClient {
		return smokeCRUD[*corev1.LimitRange, *corev1.LimitRangeList]{cs.CoreV1().LimitRanges(ns)}
	},
	"namespaces": func(cs kubernetes.Interface, _ apiextensionsclient.Interface, _ string) smokeClient {
		return smokeCRUD[*corev1.Namespace, *corev1.NamespaceList]{cs.CoreV1().Namespaces()}
	},
	"nodes": func(cs kubernetes.Interface, _ apiextensionsclient.Interface, _ string) smokeClient {
		return smokeCRUD[*corev1.Node, *corev1.NodeList]{cs.CoreV1().Nodes()}
	},
	"persistentvolumeclaims": func(cs kubernetes.Interface, _ apiextensionsclient.Interface, ns string) smokeClient {
		return smokeCRUD[*corev1.PersistentVolumeClaim, *corev1.PersistentVolumeClaimList]{cs.CoreV1().PersistentVolumeClaims(ns)}
	},
	"persistentvolumes": func(cs kubernetes.Interface, _ apiextensionsclient.Interface, _ string) smokeClient {
		return smokeCRUD[*corev1.PersistentVolume, *corev1.PersistentVolumeList]{cs.CoreV1().PersistentVolumes()}
	},
	"pods": func(cs kubernetes.Interface, _ apiextensionsclient.Interface, ns string) smokeClient {
		return smokeCRUD[*corev1.Pod, *corev1.PodList]{cs.CoreV1().Pods(ns)}
	},
	"podtemplates": func(cs kubernetes.Interface, _ apiextensionsclient.Interface, ns string) smokeClient {
		return smokeCRUD[*corev1.PodTemplate, *corev1.PodTemplateList]{cs.CoreV1().PodTemplates(ns)}
	},
	"replicationcontrollers": func(cs kubernetes.Interface, _ apiextensionsclient.Interface, ns string) smokeClient {
		return smokeCRUD[*corev1.ReplicationController, *corev1.ReplicationControllerList]{cs.CoreV1().ReplicationControllers(ns)}
	},
	"resourcequotas": func(cs kubernetes.Interface, _ apiextensionsclient.Interface, ns string) smokeClient {
		return smokeCRUD[*corev1.ResourceQuota, *corev1.ResourceQuotaList]{cs.CoreV1().ResourceQuotas(ns)}
	},
	"secrets": func(cs kubernetes.Interface, _ apiextensionsclient.Interface, ns string) smokeClient {
		return smokeCRUD[*corev1.Secret, *corev1.SecretList]{cs.CoreV1().Secrets(ns)}
	},
	"serviceaccounts": func(cs kubernetes.Interface, _ apiextensionsclient.Interface, ns string) smokeClient {
		return smokeCRUD[*corev1.ServiceAccount, *corev1.ServiceAccountList]{cs.CoreV1().ServiceAccounts(ns)}
	},
	"services": func(cs kubernetes.Interface, _ apiextensionsclient.Interface, ns string) smokeClient {
		return smokeCRUD[*corev1.Service, *corev1.ServiceList]{cs.CoreV1().Services(ns)}
	},
	// admissionregistration.k8s.io/v1
	"mutatingwebhookconfigurations.admissionregistration.k8s.io": func(cs kubernetes.Interface, _ apiextensionsclient.Interface, _ string) smokeClient {
		return smokeCRUD[*admissionregistrationv1.MutatingWebhookConfiguration, *admissionregistrationv1.MutatingWebhookConfigurationList]{cs.AdmissionregistrationV1().MutatingWebhookConfigurations()}
	},
	"mutatingadmissionpolicies.admissionregistration.k8s.io": func(cs kubernetes.Interface, _ apiextensionsclient.Interface, _ string) smokeClient {
		return smokeCRUD[*admissionregistrationv1.MutatingAdmissionPolicy, *admissionregistrationv1.MutatingAdmissionPolicyList]{cs.AdmissionregistrationV1().MutatingAdmissionPolicies()}
	},
	"mutatingadmissionpolicybindings.admissionregistration.k8s.io": func(cs kubernetes.Interface, _ apiextensionsclient.Interface, _ string) smokeClient {
		return smokeCRUD[*admissionregistrationv1.MutatingAdmissionPolicyBinding, *admissionregistrationv1.MutatingAdmissionPolicyBindingList]{cs.AdmissionregistrationV1().MutatingAdmissionPolicyBindings()}
	},
	"validatingadmissionpolicies.admissionregistration.k8s.io": func(cs kubernetes.Interface, _ apiextensionsclient.Interface, _ string) smokeClient {
		return smokeCRUD[*admissionregistrationv1.ValidatingAdmissionPolicy, *admissionregistrationv1.ValidatingAdmissionPolicyList]{cs.AdmissionregistrationV1().ValidatingAdmissionPolicies()}
	},
	"validatingadmissionpolicybindings.admissionregistration.k8s.io": func(cs kubernetes.Interface, _ apiextensionsclient.Interface, _ string) smokeClient {
		return smokeCRUD[*admissionregistrationv1.ValidatingAdmissionPolicyBinding, *admissionregistrationv1.ValidatingAdmissionPolicyBindingList]{cs.AdmissionregistrationV1().ValidatingAdmissionPolicyBindings()}
	},
	"validatingwebhookconfigurations.admissionregistration.k8s.io": func(cs kubernetes.Interface, _ apiextensionsclient.Interface, _ string) smokeClient {
		return smokeCRUD[*admissionregistrationv1.ValidatingWebhookConfiguration, *admissionregistrationv1.ValidatingWebhookConfigurationList]{cs.AdmissionregistrationV1().ValidatingWebhookConfigurations()}
	},
	// apiextensions.k8s.io/v1
	"customresourcedefinitions.apiextensions.k8s.io": func(_ kubernetes.Interface, ax apiextensionsclient.Interface, _ string) smokeClient {
		return smokeCRUD[*apiextensionsv1.CustomResourceDefinition, *apiextensionsv1.CustomResourceDefinitionList]{ax.ApiextensionsV1().CustomResourceDefinitions()}
	},
	// apps/v1
	"controllerrevisions.apps": func(cs kubernetes.Interface, _ apiextensionsclient.Interface, ns string) smokeClient {
		return smokeCRUD[*appsv1.ControllerRevision, *appsv1.ControllerRevisionList]{cs.AppsV1().ControllerRevisions(ns)}
	},
	"daemonsets.apps": func(cs kubernetes.Interface, _ apiextensionsclient.Interface, ns string) smokeClient {
		return smokeCRUD[*appsv1.DaemonSet, *appsv1.DaemonSetList]{cs.AppsV1().DaemonSets(ns)}
	},
	"deployments.apps": func(cs kubernetes.Interface, _ apiextensionsclient.Interface, ns string) smokeClient {
		return smokeCRUD[*appsv1.Deployment, *appsv1.DeploymentList]{cs.AppsV1().Deployments(ns)}
	},
	"replicasets.apps": func(cs kubernetes.Interface, _ apiextensionsclient.Interface, ns string) smokeClient {
		return smokeCRUD[*appsv1.ReplicaSet, *appsv1.ReplicaSetList]{cs.AppsV1().ReplicaSets(ns)}
	},
	"statefulsets.apps": func(cs kubernetes.Interface, _ apiextensionsclient.Interface, ns string) smokeClient {
		return smokeCRUD[*appsv1.StatefulSet, *appsv1.StatefulSetList]{cs.AppsV1().StatefulSets(ns)}
	},
	// authentication.k8s.io/v1
	"selfsubjectreviews.authentication.k8s.io": func(cs kubernetes.Interface, _ apiextensionsclient.Interface, _ string) smokeClient {
		return smokeCreateOnly[*authenticationv1.SelfSubjectReview]{cs.AuthenticationV1().SelfSubjectReviews()}
	},
	"tokenreviews.authentication.k8s.io": func(cs kubernetes.Interface, _ apiextensionsclient.Interface, _ string) smokeClient {
		return smokeCreateOnly[*authenticationv1.TokenReview]{cs.AuthenticationV1().TokenReviews()}
	},
	// authorization.k8s.io/v1
	"localsubjectaccessreviews.authorization.k8s.io": func(cs kubernetes.Interface, _ apiextensionsclient.Interface, ns string) smokeClient {
		return smokeCreateOnly[*authorizationv1.LocalSubjectAccessReview]{cs.AuthorizationV1().LocalSubjectAccessReviews(ns)}
	},
	"selfsubjectaccessreviews.authorization.k8s.io": func(cs kubernetes.Interface, _ apiextensionsclient.Interface, _ string) smokeClient {
		return smokeCreateOnly[*authorizationv1.SelfSubjectAccessReview]{cs.AuthorizationV1().SelfSubjectAccessReviews()}
	},
	"selfsubjectrulesreviews.authorization.k8s.io": func(cs kubernetes.Interface, _ apiextensionsclient.Interface, _ string) smokeClient {
		return smokeCreateOnly[*authorizationv1.SelfSubjectRulesReview]{cs.AuthorizationV1().SelfSubjectRulesReviews()}
	},
	"subjectaccessreviews.authorization.k8s.io": func(cs kubernetes.Interface, _ apiextensionsclient.Interface, _ string) smokeClient {
		return smokeCreateOnly[*authorizationv1.SubjectAccessReview]{cs.AuthorizationV1().SubjectAccessReviews()}
	},
	// autoscaling/v2, batch/v1, certificates.k8s.io/v1, coordination.k8s.io/v1
	"horizontalpodautoscalers.autoscaling": func(cs kubernetes.Interface, _ apiextensionsclient.Interface, ns string) smokeClient {
		return smokeCRUD[*autoscalingv2.HorizontalPodAutoscaler, *autoscalingv2.HorizontalPodAutoscalerList]{cs.AutoscalingV2().HorizontalPodAutoscalers(ns)}
	},
	"cronjobs.batch": func(cs kubernetes.Interface, _ apiextensionsclient.Interface, ns string) smokeClient {
		return smokeCRUD[*batchv1.CronJob, *batchv1.CronJobList]{cs.BatchV1().CronJobs(ns)}
	},
	"jobs.batch": func(cs kubernetes.Interface, _ apiextensionsclient.Interface, ns string) smokeClient {
		return smokeCRUD[*batchv1.Job, *batchv1.JobList]{cs.BatchV1().Jobs(ns)}
	},
	"certificatesigningrequests.certificates.k8s.io": func(cs kubernetes.Interface, _ apiextensionsclient.Interface, _ string) smokeClient {
		return smokeCRUD[*certificatesv1.CertificateSigningRequest, *certificatesv1.CertificateSigningRequestList]{cs.CertificatesV1().CertificateSigningRequests()}
	},
	"clustertrustbundles.certificates.k8s.io": func(cs kubernetes.Interface, _ apiextensionsclient.Interface, _ string) smokeClient {
		return smokeCRUD[*certificatesv1.ClusterTrustBundle, *certificatesv1.ClusterTrustBundleList]{cs.CertificatesV1().ClusterTrustBundles()}
	},
	"podcertificaterequests.certificates.k8s.io": func(cs kubernetes.Interface, _ apiextensionsclient.Interface, ns string) smokeClient {
		return smokeCRUD[*certificatesv1.PodCertificateRequest, *certificatesv1.PodCertificateRequestList]{cs.CertificatesV1().PodCertificateRequests(ns)}
	},
	"leases.coordination.k8s.io": func(cs kubernetes.Interface, _ apiextensionsclient.Interface, ns string) smokeClient {
		return smokeCRUD[*coordinationv1.Lease, *coordinationv1.LeaseList]{cs.CoordinationV1().Leases(ns)}
	},
	// discovery.k8s.io/v1, events.k8s.io/v1, flowcontrol.apiserver.k8s.io/v1
	"endpointslices.discovery.k8s.io": func(cs kubernetes.Interface, _ apiextensionsclient.Interface, ns string) smokeClient {
		return smokeCRUD[*discoveryv1.EndpointSlice, *discoveryv1.EndpointSliceList]{cs.DiscoveryV1().EndpointSlices(ns)}
	},
	"events.events.k8s.io": func(cs kubernetes.Interface, _ apiextensionsclient.Interface, ns string) smokeClient {
		return smokeCRUD[*eventsv1.Event, *eventsv1.EventList]{cs.EventsV1().Events(ns)}
	},
	"flowschemas.flowcontrol.apiserver.k8s.io": func(cs kubernetes.Interface, _ apiextensionsclient.Interface, _ string) smokeClient {
		return smokeCRUD[*flowcontrolv1.FlowSchema, *flowcontrolv1.FlowSchemaList]{cs.FlowcontrolV1().FlowSchemas()}
	},
	"prioritylevelconfigurations.flowcontrol.apiserver.k8s.io": func(cs kubernetes.Interface, _ apiextensionsclient.Interface, _ string) smokeClient {
		return smokeCRUD[*flowcontrolv1.PriorityLevelConfiguration, *flowcontrolv1.PriorityLevelConfigurationList]{cs.FlowcontrolV1().PriorityLevelConfigurations()}
	},
	// networking.k8s.io/v1
	"ingressclasses.networking.k8s.io": func(cs kubernetes.Interface, _ apiextensionsclient.Interface, _ string) smokeClient {
		return smokeCRUD[*networkingv1.IngressClass, *networkingv1.IngressClassList]{cs.NetworkingV1().IngressClasses()}
	},
	"ingresses.networking.k8s.io": func(cs kubernetes.Interface, _ apiextensionsclient.Interface, ns string) smokeClient {
		return smokeCRUD[*networkingv1.Ingress, *networkingv1.IngressList]{cs.NetworkingV1().Ingresses(ns)}
	},
	"ipaddresses.networking.k8s.io": func(cs kubernetes.Interface, _ apiextensionsclient.Interface, _ string) smokeClient {
		return smokeCRUD[*networkingv1.IPAddress, *networkingv1.IPAddressList]{cs.NetworkingV1().IPAddresses()}
	},
	"networkpolicies.networking.k8s.io": func(cs kubernetes.Interface, _ apiextensionsclient.Interface, ns string) smokeClient {
		return smokeCRUD[*networkingv1.NetworkPolicy, *networkingv1.NetworkPolicyList]{cs.NetworkingV1().NetworkPolicies(ns)}
	},
	"servicecidrs.networking.k8s.io": func(cs kubernetes.Interface, _ apiextensionsclient.Interface, _ string) smokeClient {
		return smokeCRUD[*networkingv1.ServiceCIDR, *networkingv1.ServiceCIDRList]{cs.NetworkingV1().ServiceCIDRs()}
	},
	// node.k8s.io/v1, policy/v1
	"runtimeclasses.node.k8s.io": func(cs kubernetes.Interface, _ apiextensionsclient.Interface, _ string) smokeClient {
		return smokeCRUD[*nodev1.RuntimeClass, *nodev1.RuntimeClassList]{cs.NodeV1().RuntimeClasses()}
	},
	"poddisruptionbudgets.policy": func(cs kubernetes.Interface, _ apiextensionsclient.Interface, ns string) smokeClient {
		return smokeCRUD[*policyv1.PodDisruptionBudget, *policyv1.PodDisruptionBudgetList]{cs.PolicyV1().PodDisruptionBudgets(ns)}
	},
	// rbac.authorization.k8s.io/v1
	"clusterrolebindings.rbac.authorization.k8s.io": func(cs kubernetes.Interface, _ apiextensionsclient.Interface, _ string) smokeClient {
		return smokeCRUD[*rbacv1.ClusterRoleBinding, *rbacv1.ClusterRoleBindingList]{cs.RbacV1().ClusterRoleBindings()}
	},
	"clusterroles.rbac.authorization.k8s.io": func(cs kubernetes.Interface, _ apiextensionsclient.Interface, _ string) smokeClient {
		return smokeCRUD[*rbacv1.ClusterRole, *rbacv1.ClusterRoleList]{cs.RbacV1().ClusterRoles()}
	},
	"rolebindings.rbac.authorization.k8s.io": func(cs kubernetes.Interface, _ apiextensionsclient.Interface, ns string) smokeClient {
		return smokeCRUD[*rbacv1.RoleBinding, *rbacv1.RoleBindingList]{cs.RbacV1().RoleBindings(ns)}
	},
	"roles.rbac.authorization.k8s.io": func(cs kubernetes.Interface, _ apiextensionsclient.Interface, ns string) smokeClient {
		return smokeCRUD[*rbacv1.Role, *rbacv1.RoleList]{cs.RbacV1().Roles(ns)}
	},
	// resource.k8s.io/v1
	"deviceclasses.resource.k8s.io": func(cs kubernetes.Interface, _ apiextensionsclient.Interface, _ string) smokeClient {
		return smokeCRUD[*resourcev1.DeviceClass, *resourcev1.DeviceClassList]{cs.ResourceV1().DeviceClasses()}
	},
	"devicetaintrules.resource.k8s.io": func(cs kubernetes.Interface, _ apiextensionsclient.Interface, _ string) smokeClient {
		return smokeCRUD[*resourcev1.DeviceTaintRule, *resourcev1.DeviceTaintRuleList]{cs.ResourceV1().DeviceTaintRules()}
	},
	"resourceclaims.resource.k8s.io": func(cs kubernetes.Interface, _ apiextensionsclient.Interface, ns string) smokeClient {
		return smokeCRUD[*resourcev1.ResourceClaim, *resourcev1.ResourceClaimList]{cs.ResourceV1().ResourceClaims(ns)}
	},
	"resourceclaimtemplates.resource.k8s.io": func(cs kubernetes.Interface, _ apiextensionsclient.Interface, ns string) smokeClient {
		return smokeCRUD[*resourcev1.ResourceClaimTemplate, *resourcev1.ResourceClaimTemplateList]{cs.ResourceV1().ResourceClaimTemplates(ns)}
	},
	"resourceslices.resource.k8s.io": func(cs kubernetes.Interface, _ apiextensionsclient.Interface, _ string) smokeClient {
		return smokeCRUD[*resourcev1.ResourceSlice, *resourcev1.ResourceSliceList]{cs.ResourceV1().ResourceSlices()}
	},
	// scheduling.k8s.io/v1, storage.k8s.io/v1, storagemigration.k8s.io/v1
	"priorityclasses.scheduling.k8s.io": func(cs kubernetes.Interface, _ apiextensionsclient.Interface, _ string) smokeClient {
		return smokeCRUD[*schedulingv1.PriorityClass, *schedulingv1.PriorityClassList]{cs.SchedulingV1().PriorityClasses()}
	},
	"csidrivers.storage.k8s.io": func(cs kubernetes.Interface, _ apiextensionsclient.Interface, _ string) smokeClient {
		return smokeCRUD[*storagev1.CSIDriver, *storagev1.CSIDriverList]{cs.StorageV1().CSIDrivers()}
	},
	"csinodes.storage.k8s.io": func(cs kubernetes.Interface, _ apiextensionsclient.Interface, _ string) smokeClient {
		return smokeCRUD[*storagev1.CSINode, *storagev1.CSINodeList]{cs.StorageV1().CSINodes()}
	},
	"csistoragecapacities.storage.k8s.io": func(cs kubernetes.Interface, _ apiextensionsclient.Interface, ns string) smokeClient {
		return smokeCRUD[*storagev1.CSIStorageCapacity, *storagev1.CSIStorageCapacityList]{cs.StorageV1().CSIStorageCapacities(ns)}
	},
	"storageclasses.storage.k8s.io": func(cs kubernetes.Interface, _ apiextensionsclient.Interface, _ string) smokeClient {
		return smokeCRUD[*storagev1.StorageClass, *storagev1.StorageClassList]{cs.StorageV1().StorageClasses()}
	},
	"volumeattachments.storage.k8s.io": func(cs kubernetes.Interface, _ apiextensionsclient.Interface, _ string) smokeClient {
		return smokeCRUD[*storagev1.VolumeAttachment, *storagev1.VolumeAttachmentList]{cs.StorageV1().VolumeAttachments()}
	},
	"volumeattributesclasses.storage.k8s.io": func(cs kubernetes.Interface, _ apiextensionsclient.Interface, _ string) smokeClient {
		return smokeCRUD[*storagev1.VolumeAttributesClass, *storagev1.VolumeAttributesClassList]{cs.StorageV1().VolumeAttributesClasses()}
	},
	"storageversionmigrations.storagemigration.k8s.io": func(cs kubernetes.Interface, _ apiextensionsclient.Interface, _ string) smokeClient {
		return smokeCRUD[*storagemigrationv1.StorageVersionMigration, *storagemigrationv1.StorageVersionMigrationList]{cs.StoragemigrationV1().StorageVersionMigrations()}
	},
}

// smokeWithoutTypedClient are the served kinds client-go has no Go type
// for, with why.
var smokeWithoutTypedClient = map[string]string{
	"apiservices.apiregistration.k8s.io": "client-go has no typed client of kube-aggregator's APIService, and this module does not depend on k8s.io/kube-aggregator; kubectl covers it here and kubeproto's codec tests hold its protobuf form to kube's bytes",
}

// smokeProtobufOnly is a transport that fails any exchange not in protobuf: a
// request body in another media type, or an answer in one. It proves that
// the typed clients put protobuf on the wire both ways.
type smokeProtobufOnly struct{ next http.RoundTripper }

func (p smokeProtobufOnly) RoundTrip(req *http.Request) (*http.Response, error) {
	if req.Body != nil && req.Body != http.NoBody {
		if mt, _, _ := mime.ParseMediaType(req.Header.Get("Content-Type")); mt != runtime.ContentTypeProtobuf {
			return nil, fmt.Errorf("%s %s sent a body in %q, not protobuf", req.Method, req.URL.Path, req.Header.Get("Content-Type"))
		}
	}
	resp, err := p.next.RoundTrip(req)
	if err != nil {
		return resp, err
	}
	if mt, _, _ := mime.ParseMediaType(resp.Header.Get("Content-Type")); mt != runtime.ContentTypeProtobuf {
		_ = resp.Body.Close()
		return nil, fmt.Errorf("%s %s was answered %d in %q, not protobuf", req.Method, req.URL.Path, resp.StatusCode, resp.Header.Get("Content-Type"))
	}
	return resp, nil
}
