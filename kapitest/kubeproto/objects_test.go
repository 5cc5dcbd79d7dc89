package kubeproto

import (
	"time"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"

	appsv1 "k8s.io/api/apps/v1"
	coordinationv1 "k8s.io/api/coordination/v1"
	corev1 "k8s.io/api/core/v1"
	flowcontrolv1 "k8s.io/api/flowcontrol/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/intstr"
)

func ptr[T any](v T) *T { return &v }

var (
	created = metav1.NewTime(time.Date(2024, 5, 6, 7, 8, 9, 0, time.UTC))
	later   = metav1.NewTime(time.Date(2024, 5, 6, 8, 0, 0, 0, time.UTC))
	micro   = metav1.NewMicroTime(time.Date(2024, 5, 6, 7, 8, 9, 123456000, time.UTC))
)

// objectMeta is metadata as a real cluster returns it: labels,
// annotations, owner references, finalizers, managedFields with FieldsV1.
func objectMeta(name string) metav1.ObjectMeta {
	return metav1.ObjectMeta{
		Name: name, Namespace: "default", UID: "8d9c6a4e-1b2c-4d3e-9f80-7a6b5c4d3e2f",
		ResourceVersion: "4242", Generation: 3, CreationTimestamp: created,
		Labels:      map[string]string{"app": "web", "tier": "frontend", "app.kubernetes.io/name": "web"},
		Annotations: map[string]string{"kubectl.kubernetes.io/last-applied-configuration": `{"apiVersion":"v1"}`, "empty": ""},
		OwnerReferences: []metav1.OwnerReference{{
			APIVersion: "apps/v1", Kind: "ReplicaSet", Name: "web-5d4f8", UID: "0f1e2d3c-4b5a-6978-8796-a5b4c3d2e1f0",
			Controller: ptr(true), BlockOwnerDeletion: ptr(true),
		}, {APIVersion: "v1", Kind: "ConfigMap", Name: "owner", UID: "u2"}},
		Finalizers: []string{"example.com/cleanup"},
		ManagedFields: []metav1.ManagedFieldsEntry{{
			Manager: "kubectl-client-side-apply", Operation: metav1.ManagedFieldsOperationUpdate, APIVersion: "v1",
			Time: &created, FieldsType: "FieldsV1",
			FieldsV1: &metav1.FieldsV1{Raw: []byte(`{"f:metadata":{"f:annotations":{".":{},"f:empty":{}},"f:labels":{".":{},"f:app":{}}}}`)},
		}, {
			Manager: "kube-controller-manager", Operation: metav1.ManagedFieldsOperationApply, APIVersion: "v1",
			Time: &later, FieldsType: "FieldsV1", Subresource: "status",
			FieldsV1: &metav1.FieldsV1{Raw: []byte(`{"f:status":{"f:phase":{}}}`)},
		}},
	}
}

func podSpec() corev1.PodSpec {
	return corev1.PodSpec{
		Volumes: []corev1.Volume{
			{Name: "config", VolumeSource: corev1.VolumeSource{ConfigMap: &corev1.ConfigMapVolumeSource{
				LocalObjectReference: corev1.LocalObjectReference{Name: "web-config"},
				Items:                []corev1.KeyToPath{{Key: "app.properties", Path: "app.properties", Mode: ptr(int32(0o644))}},
				DefaultMode:          ptr(int32(0o420)),
			}}},
			{Name: "cache", VolumeSource: corev1.VolumeSource{EmptyDir: &corev1.EmptyDirVolumeSource{
				Medium: corev1.StorageMediumMemory, SizeLimit: ptr(resource.MustParse("64Mi")),
			}}},
			{Name: "scratch", VolumeSource: corev1.VolumeSource{EmptyDir: &corev1.EmptyDirVolumeSource{}}},
			{Name: "token", VolumeSource: corev1.VolumeSource{Projected: &corev1.ProjectedVolumeSource{
				Sources: []corev1.VolumeProjection{{ServiceAccountToken: &corev1.ServiceAccountTokenProjection{
					Path: "token", ExpirationSeconds: ptr(int64(3607)),
				}}, {DownwardAPI: &corev1.DownwardAPIProjection{Items: []corev1.DownwardAPIVolumeFile{{
					Path: "namespace", FieldRef: &corev1.ObjectFieldSelector{APIVersion: "v1", FieldPath: "metadata.namespace"},
				}}}}},
			}}},
			{Name: "secret", VolumeSource: corev1.VolumeSource{Secret: &corev1.SecretVolumeSource{SecretName: "tls", Optional: ptr(false)}}},
		},
		InitContainers: []corev1.Container{{Name: "init", Image: "busybox:1.36", Command: []string{"sh", "-c", "true"}}},
		Containers: []corev1.Container{{
			Name: "web", Image: "nginx:1.27", Args: []string{"--port", "8080"},
			WorkingDir: "/srv",
			Ports: []corev1.ContainerPort{
				{Name: "http", ContainerPort: 8080, Protocol: corev1.ProtocolTCP},
				{Name: "metrics", ContainerPort: 9090, HostPort: 0, Protocol: corev1.ProtocolUDP, HostIP: "0.0.0.0"},
			},
			Env: []corev1.EnvVar{
				{Name: "MODE", Value: "production"},
				{Name: "EMPTY"},
				{Name: "POD_IP", ValueFrom: &corev1.EnvVarSource{FieldRef: &corev1.ObjectFieldSelector{APIVersion: "v1", FieldPath: "status.podIP"}}},
				{Name: "LIMIT", ValueFrom: &corev1.EnvVarSource{ResourceFieldRef: &corev1.ResourceFieldSelector{
					Resource: "limits.memory", Divisor: resource.MustParse("1Mi"),
				}}},
			},
			Resources: corev1.ResourceRequirements{
				Limits:   corev1.ResourceList{corev1.ResourceCPU: resource.MustParse("500m"), corev1.ResourceMemory: resource.MustParse("256Mi")},
				Requests: corev1.ResourceList{corev1.ResourceCPU: resource.MustParse("100m"), corev1.ResourceMemory: resource.MustParse("128Mi"), "example.com/gpu": resource.MustParse("1")},
			},
			VolumeMounts: []corev1.VolumeMount{{Name: "config", MountPath: "/etc/web", ReadOnly: true}, {Name: "cache", MountPath: "/cache", SubPath: "web"}},
			LivenessProbe: &corev1.Probe{
				ProbeHandler:        corev1.ProbeHandler{HTTPGet: &corev1.HTTPGetAction{Path: "/healthz", Port: intstr.FromString("http"), Scheme: corev1.URISchemeHTTP}},
				InitialDelaySeconds: 5, PeriodSeconds: 10, TimeoutSeconds: 1, SuccessThreshold: 1, FailureThreshold: 3,
			},
			ReadinessProbe: &corev1.Probe{ProbeHandler: corev1.ProbeHandler{TCPSocket: &corev1.TCPSocketAction{Port: intstr.FromInt32(8080)}}},
			Lifecycle: &corev1.Lifecycle{PreStop: &corev1.LifecycleHandler{Exec: &corev1.ExecAction{Command: []string{"sleep", "5"}}},
				PostStart: &corev1.LifecycleHandler{Sleep: &corev1.SleepAction{Seconds: 1}}},
			TerminationMessagePath: "/dev/termination-log", TerminationMessagePolicy: corev1.TerminationMessageReadFile,
			ImagePullPolicy: corev1.PullIfNotPresent,
			SecurityContext: &corev1.SecurityContext{
				RunAsNonRoot: ptr(true), RunAsUser: ptr(int64(1000)), AllowPrivilegeEscalation: ptr(false),
				Capabilities:   &corev1.Capabilities{Drop: []corev1.Capability{"ALL"}},
				SeccompProfile: &corev1.SeccompProfile{Type: corev1.SeccompProfileTypeRuntimeDefault},
			},
		}},
		RestartPolicy: corev1.RestartPolicyAlways, TerminationGracePeriodSeconds: ptr(int64(30)),
		DNSPolicy: corev1.DNSClusterFirst, NodeSelector: map[string]string{"kubernetes.io/os": "linux"},
		ServiceAccountName: "web", AutomountServiceAccountToken: ptr(false),
		SecurityContext: &corev1.PodSecurityContext{FSGroup: ptr(int64(2000)), SupplementalGroups: []int64{3000, 4000},
			Sysctls: []corev1.Sysctl{{Name: "net.core.somaxconn", Value: "1024"}}},
		Affinity: &corev1.Affinity{PodAntiAffinity: &corev1.PodAntiAffinity{
			PreferredDuringSchedulingIgnoredDuringExecution: []corev1.WeightedPodAffinityTerm{{Weight: 100, PodAffinityTerm: corev1.PodAffinityTerm{
				LabelSelector: &metav1.LabelSelector{MatchExpressions: []metav1.LabelSelectorRequirement{{Key: "app", Operator: metav1.LabelSelectorOpIn, Values: []string{"web"}}}},
				TopologyKey:   "kubernetes.io/hostname",
			}}},
		}},
		SchedulerName: "default-scheduler",
		Tolerations: []corev1.Toleration{{Key: "node.kubernetes.io/not-ready", Operator: corev1.TolerationOpExists,
			Effect: corev1.TaintEffectNoExecute, TolerationSeconds: ptr(int64(300))}},
		HostAliases:        []corev1.HostAlias{{IP: "127.0.0.1", Hostnames: []string{"foo.local"}}},
		Priority:           ptr(int32(0)),
		EnableServiceLinks: ptr(true),
		PreemptionPolicy:   ptr(corev1.PreemptLowerPriority),
		Overhead:           corev1.ResourceList{corev1.ResourceCPU: resource.MustParse("250m")},
		TopologySpreadConstraints: []corev1.TopologySpreadConstraint{{MaxSkew: 1, TopologyKey: "zone",
			WhenUnsatisfiable: corev1.DoNotSchedule, LabelSelector: &metav1.LabelSelector{MatchLabels: map[string]string{"app": "web"}}}},
	}
}

// objects are realistic objects of each kind the resolver knows.
func objects() []runtime.Object {
	pod := &corev1.Pod{
		TypeMeta: metav1.TypeMeta{APIVersion: "v1", Kind: "Pod"}, ObjectMeta: objectMeta("web-5d4f8-abcde"), Spec: podSpec(),
		Status: corev1.PodStatus{
			Phase: corev1.PodRunning,
			Conditions: []corev1.PodCondition{
				{Type: corev1.PodReady, Status: corev1.ConditionTrue, LastTransitionTime: later},
				{Type: corev1.PodScheduled, Status: corev1.ConditionTrue, LastProbeTime: created, LastTransitionTime: created, Reason: "r", Message: "m"},
			},
			HostIP: "10.0.0.1", HostIPs: []corev1.HostIP{{IP: "10.0.0.1"}}, PodIP: "10.1.2.3", PodIPs: []corev1.PodIP{{IP: "10.1.2.3"}},
			StartTime: &created, QOSClass: corev1.PodQOSBurstable,
			ContainerStatuses: []corev1.ContainerStatus{{
				Name: "web", Ready: true, RestartCount: 2, Image: "nginx:1.27", ImageID: "docker-pullable://nginx@sha256:abc",
				ContainerID: "containerd://123", Started: ptr(true),
				State:                corev1.ContainerState{Running: &corev1.ContainerStateRunning{StartedAt: later}},
				LastTerminationState: corev1.ContainerState{Terminated: &corev1.ContainerStateTerminated{ExitCode: 137, Reason: "OOMKilled", StartedAt: created, FinishedAt: later}},
				AllocatedResources:   corev1.ResourceList{corev1.ResourceCPU: resource.MustParse("100m")},
			}},
		},
	}
	pod.Spec.EphemeralContainers = []corev1.EphemeralContainer{{
		EphemeralContainerCommon: corev1.EphemeralContainerCommon{Name: "debug", Image: "busybox", Stdin: true, TTY: true},
		TargetContainerName:      "web",
	}}
	// A pod as a client creates it: no status, fewer fields.
	minimalPod := &corev1.Pod{
		TypeMeta:   metav1.TypeMeta{APIVersion: "v1", Kind: "Pod"},
		ObjectMeta: metav1.ObjectMeta{GenerateName: "job-", Namespace: "batch"},
		Spec:       corev1.PodSpec{Containers: []corev1.Container{{Name: "c", Image: "alpine"}}},
	}
	deployment := &appsv1.Deployment{
		TypeMeta: metav1.TypeMeta{APIVersion: "apps/v1", Kind: "Deployment"}, ObjectMeta: objectMeta("web"),
		Spec: appsv1.DeploymentSpec{
			Replicas: ptr(int32(3)),
			Selector: &metav1.LabelSelector{MatchLabels: map[string]string{"app": "web"}},
			Template: corev1.PodTemplateSpec{ObjectMeta: metav1.ObjectMeta{Labels: map[string]string{"app": "web"},
				Annotations: map[string]string{"kubectl.kubernetes.io/restartedAt": "2024-05-06T07:08:09Z"}}, Spec: podSpec()},
			Strategy: appsv1.DeploymentStrategy{Type: appsv1.RollingUpdateDeploymentStrategyType, RollingUpdate: &appsv1.RollingUpdateDeployment{
				MaxUnavailable: ptr(intstr.FromInt32(0)), MaxSurge: ptr(intstr.FromString("25%")),
			}},
			MinReadySeconds: 5, RevisionHistoryLimit: ptr(int32(10)), ProgressDeadlineSeconds: ptr(int32(600)),
		},
		Status: appsv1.DeploymentStatus{
			ObservedGeneration: 3, Replicas: 3, UpdatedReplicas: 3, ReadyReplicas: 2, AvailableReplicas: 2, UnavailableReplicas: 1,
			Conditions: []appsv1.DeploymentCondition{{Type: appsv1.DeploymentAvailable, Status: corev1.ConditionTrue,
				LastUpdateTime: later, LastTransitionTime: created, Reason: "MinimumReplicasAvailable", Message: "Deployment has minimum availability."}},
		},
	}
	return append([]runtime.Object{
		&corev1.ConfigMap{
			TypeMeta: metav1.TypeMeta{APIVersion: "v1", Kind: "ConfigMap"}, ObjectMeta: objectMeta("web-config"),
			Data:       map[string]string{"app.properties": "a=1\nb=2\n", "empty": "", "ünïcode": "✓"},
			BinaryData: map[string][]byte{"blob": {0, 1, 2, 0xff}},
			Immutable:  ptr(false),
		},
		&corev1.ConfigMap{TypeMeta: metav1.TypeMeta{APIVersion: "v1", Kind: "ConfigMap"}, ObjectMeta: metav1.ObjectMeta{Name: "bare"}},
		&corev1.Secret{
			TypeMeta: metav1.TypeMeta{APIVersion: "v1", Kind: "Secret"}, ObjectMeta: objectMeta("tls"),
			Type:      corev1.SecretTypeTLS,
			Data:      map[string][]byte{"tls.crt": []byte("-----BEGIN CERTIFICATE-----\n"), "tls.key": {0x00, 0x80, 0xfe, 0xff, '\n'}, "empty": {}},
			Immutable: ptr(true),
		},
		&corev1.ServiceAccount{
			TypeMeta: metav1.TypeMeta{APIVersion: "v1", Kind: "ServiceAccount"}, ObjectMeta: objectMeta("web"),
			Secrets:                      []corev1.ObjectReference{{Name: "web-token", Kind: "Secret", Namespace: "default"}},
			ImagePullSecrets:             []corev1.LocalObjectReference{{Name: "registry"}},
			AutomountServiceAccountToken: ptr(false),
		},
		&corev1.Service{
			TypeMeta: metav1.TypeMeta{APIVersion: "v1", Kind: "Service"}, ObjectMeta: objectMeta("web"),
			Spec: corev1.ServiceSpec{
				Ports: []corev1.ServicePort{
					{Name: "http", Protocol: corev1.ProtocolTCP, Port: 80, TargetPort: intstr.FromString("http"), NodePort: 30080},
					{Name: "https", Protocol: corev1.ProtocolTCP, Port: 443, TargetPort: intstr.FromInt32(8443), AppProtocol: ptr("https")},
					{Name: "zero", Protocol: corev1.ProtocolUDP, Port: 53},
				},
				Selector: map[string]string{"app": "web"}, ClusterIP: "10.96.0.10", ClusterIPs: []string{"10.96.0.10"},
				Type: corev1.ServiceTypeNodePort, SessionAffinity: corev1.ServiceAffinityClientIP,
				SessionAffinityConfig: &corev1.SessionAffinityConfig{ClientIP: &corev1.ClientIPConfig{TimeoutSeconds: ptr(int32(10800))}},
				ExternalTrafficPolicy: corev1.ServiceExternalTrafficPolicyCluster,
				IPFamilies:            []corev1.IPFamily{corev1.IPv4Protocol}, IPFamilyPolicy: ptr(corev1.IPFamilyPolicySingleStack),
				InternalTrafficPolicy: ptr(corev1.ServiceInternalTrafficPolicyCluster),
			},
			Status: corev1.ServiceStatus{LoadBalancer: corev1.LoadBalancerStatus{Ingress: []corev1.LoadBalancerIngress{{
				IP: "1.2.3.4", Ports: []corev1.PortStatus{{Port: 80, Protocol: corev1.ProtocolTCP, Error: ptr("none")}},
			}}}},
		},
		pod,
		minimalPod,
		&corev1.Event{
			TypeMeta: metav1.TypeMeta{APIVersion: "v1", Kind: "Event"}, ObjectMeta: metav1.ObjectMeta{Name: "web.17c", Namespace: "default",
				CreationTimestamp: created, ResourceVersion: "9"},
			InvolvedObject: corev1.ObjectReference{Kind: "Pod", Namespace: "default", Name: "web", UID: "u", APIVersion: "v1",
				ResourceVersion: "4242", FieldPath: "spec.containers{web}"},
			Reason: "Pulled", Message: `Successfully pulled image "nginx:1.27"`,
			Source:         corev1.EventSource{Component: "kubelet", Host: "node-1"},
			FirstTimestamp: created, LastTimestamp: later, Count: 3, Type: corev1.EventTypeNormal,
			EventTime: micro, Series: &corev1.EventSeries{Count: 2, LastObservedTime: micro},
			Action: "Pulling", Related: &corev1.ObjectReference{Kind: "Node", Name: "node-1"},
			ReportingController: "kubelet", ReportingInstance: "node-1",
		},
		// An event as kubectl events shows old ones: no eventTime.
		&corev1.Event{
			TypeMeta:   metav1.TypeMeta{APIVersion: "v1", Kind: "Event"},
			ObjectMeta: metav1.ObjectMeta{Name: "old", Namespace: "default"},
			Reason:     "Old", FirstTimestamp: created, LastTimestamp: created, Count: 1,
		},
		&corev1.Namespace{
			TypeMeta: metav1.TypeMeta{APIVersion: "v1", Kind: "Namespace"},
			ObjectMeta: metav1.ObjectMeta{Name: "team-a", UID: "nsu", ResourceVersion: "1", CreationTimestamp: created,
				Labels: map[string]string{"kubernetes.io/metadata.name": "team-a"}, DeletionTimestamp: &later, DeletionGracePeriodSeconds: ptr(int64(0))},
			Spec: corev1.NamespaceSpec{Finalizers: []corev1.FinalizerName{corev1.FinalizerKubernetes}},
			Status: corev1.NamespaceStatus{Phase: corev1.NamespaceTerminating, Conditions: []corev1.NamespaceCondition{{
				Type: corev1.NamespaceDeletionContentFailure, Status: corev1.ConditionFalse, LastTransitionTime: later, Reason: "ContentDeleted"}}},
		},
		deployment,
		&coordinationv1.Lease{
			TypeMeta: metav1.TypeMeta{APIVersion: "coordination.k8s.io/v1", Kind: "Lease"},
			ObjectMeta: metav1.ObjectMeta{Name: "kube-scheduler", Namespace: "kube-system", ResourceVersion: "77",
				CreationTimestamp: created, ManagedFields: objectMeta("x").ManagedFields[:1]},
			Spec: coordinationv1.LeaseSpec{HolderIdentity: ptr("node-1_abc"), LeaseDurationSeconds: ptr(int32(15)),
				AcquireTime: &micro, RenewTime: ptr(metav1.NewMicroTime(time.Date(2024, 5, 6, 7, 9, 0, 1000, time.UTC))),
				LeaseTransitions: ptr(int32(0))},
		},
		&flowcontrolv1.PriorityLevelConfiguration{
			TypeMeta:   metav1.TypeMeta{APIVersion: "flowcontrol.apiserver.k8s.io/v1", Kind: "PriorityLevelConfiguration"},
			ObjectMeta: metav1.ObjectMeta{Name: "workload-low", ResourceVersion: "9", Generation: 1, CreationTimestamp: created},
			Spec: flowcontrolv1.PriorityLevelConfigurationSpec{Type: flowcontrolv1.PriorityLevelEnablementLimited,
				Limited: &flowcontrolv1.LimitedPriorityLevelConfiguration{NominalConcurrencyShares: ptr(int32(0)), LendablePercent: ptr(int32(90)),
					LimitResponse: flowcontrolv1.LimitResponse{Type: flowcontrolv1.LimitResponseTypeQueue,
						Queuing: &flowcontrolv1.QueuingConfiguration{Queues: 128, HandSize: 6, QueueLengthLimit: 50}}}},
		},
		&flowcontrolv1.FlowSchema{
			TypeMeta:   metav1.TypeMeta{APIVersion: "flowcontrol.apiserver.k8s.io/v1", Kind: "FlowSchema"},
			ObjectMeta: metav1.ObjectMeta{Name: "probes", ResourceVersion: "10", Generation: 1, CreationTimestamp: created},
			Spec: flowcontrolv1.FlowSchemaSpec{PriorityLevelConfiguration: flowcontrolv1.PriorityLevelConfigurationReference{Name: "exempt"},
				MatchingPrecedence: 2, DistinguisherMethod: &flowcontrolv1.FlowDistinguisherMethod{Type: flowcontrolv1.FlowDistinguisherMethodByUserType},
				Rules: []flowcontrolv1.PolicyRulesWithSubjects{{
					Subjects: []flowcontrolv1.Subject{{Kind: flowcontrolv1.SubjectKindGroup, Group: &flowcontrolv1.GroupSubject{Name: "system:unauthenticated"}},
						{Kind: flowcontrolv1.SubjectKindServiceAccount, ServiceAccount: &flowcontrolv1.ServiceAccountSubject{Namespace: "kube-system", Name: "*"}}},
					ResourceRules: []flowcontrolv1.ResourcePolicyRule{{Verbs: []string{"get"}, APIGroups: []string{""}, Resources: []string{"pods"},
						ClusterScope: true, Namespaces: []string{"*"}}},
					NonResourceRules: []flowcontrolv1.NonResourcePolicyRule{{Verbs: []string{"get"}, NonResourceURLs: []string{"/healthz", "/livez"}}},
				}}},
			Status: flowcontrolv1.FlowSchemaStatus{Conditions: []flowcontrolv1.FlowSchemaCondition{{Type: flowcontrolv1.FlowSchemaConditionDangling,
				Status: flowcontrolv1.ConditionFalse, LastTransitionTime: created, Reason: "Found", Message: "it exists"}}},
		},
		&corev1.PersistentVolume{
			TypeMeta: metav1.TypeMeta{APIVersion: "v1", Kind: "PersistentVolume"}, ObjectMeta: metav1.ObjectMeta{Name: "pv-1"},
			Spec: corev1.PersistentVolumeSpec{
				Capacity: corev1.ResourceList{corev1.ResourceStorage: resource.MustParse("10Gi")},
				PersistentVolumeSource: corev1.PersistentVolumeSource{HostPath: &corev1.HostPathVolumeSource{
					Path: "/data", Type: ptr(corev1.HostPathDirectoryOrCreate)}},
				AccessModes:                   []corev1.PersistentVolumeAccessMode{corev1.ReadWriteOnce},
				PersistentVolumeReclaimPolicy: corev1.PersistentVolumeReclaimRetain,
				StorageClassName:              "manual", VolumeMode: ptr(corev1.PersistentVolumeFilesystem),
				ClaimRef: &corev1.ObjectReference{Namespace: "default", Name: "claim"},
			},
			Status: corev1.PersistentVolumeStatus{Phase: corev1.VolumeBound, LastPhaseTransitionTime: &created},
		},
		crdWithSchemaUnions(),
	}, securityObjects()...)
}

// crdWithSchemaUnions is a CRD whose schema uses every JSON form of
// apiextensions' schema unions and JSON values: defaults, examples and enum
// values of every JSON type, additionalProperties as a bool and as a
// schema, items as a schema, dependencies as strings and as a schema.
func crdWithSchemaUnions() *apiextensionsv1.CustomResourceDefinition {
	j := func(s string) *apiextensionsv1.JSON { return &apiextensionsv1.JSON{Raw: []byte(s)} }
	str := apiextensionsv1.JSONSchemaProps{Type: "string"}
	spec := apiextensionsv1.JSONSchemaProps{Type: "object", Properties: map[string]apiextensionsv1.JSONSchemaProps{
		"color":  {Type: "string", Default: j(`"blue"`), Enum: []apiextensionsv1.JSON{*j(`"blue"`), *j(`"red"`)}, Example: j(`"red"`)},
		"size":   {Type: "integer", Default: j(`3`)},
		"ratio":  {Type: "number", Default: j(`0.5`)},
		"on":     {Type: "boolean", Default: j(`true`)},
		"labels": {Type: "object", AdditionalProperties: &apiextensionsv1.JSONSchemaPropsOrBool{Allows: true, Schema: &str}, Default: j(`{"a":"b"}`)},
		"closed": {Type: "object", AdditionalProperties: &apiextensionsv1.JSONSchemaPropsOrBool{Allows: false}},
		"tags":   {Type: "array", Items: &apiextensionsv1.JSONSchemaPropsOrArray{Schema: &str}, Default: j(`["x"]`)},
		"dep": {Type: "object", Dependencies: apiextensionsv1.JSONSchemaDependencies{
			"a": {Property: []string{"b"}}, "c": {Schema: &apiextensionsv1.JSONSchemaProps{Required: []string{"d"}}}}},
	}}
	return &apiextensionsv1.CustomResourceDefinition{
		TypeMeta:   metav1.TypeMeta{APIVersion: "apiextensions.k8s.io/v1", Kind: "CustomResourceDefinition"},
		ObjectMeta: metav1.ObjectMeta{Name: "widgets.example.com"},
		Spec: apiextensionsv1.CustomResourceDefinitionSpec{
			Group: "example.com", Scope: apiextensionsv1.NamespaceScoped,
			Names: apiextensionsv1.CustomResourceDefinitionNames{Plural: "widgets", Singular: "widget", Kind: "Widget", ListKind: "WidgetList"},
			Versions: []apiextensionsv1.CustomResourceDefinitionVersion{{Name: "v1", Served: true, Storage: true,
				Schema: &apiextensionsv1.CustomResourceValidation{OpenAPIV3Schema: &apiextensionsv1.JSONSchemaProps{
					Type: "object", Properties: map[string]apiextensionsv1.JSONSchemaProps{"spec": spec}}}}},
		},
	}
}
