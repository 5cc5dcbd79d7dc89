package kubeproto

import metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

// APIService mirrors apiregistration.k8s.io/v1 APIService of
// k8s.io/kube-aggregator field for field, with the same protobuf tags, so
// the codec gets its descriptor without that module (which would bring
// k8s.io/apiserver, etcd and gRPC into this module). Message names do not
// travel on the wire: the bytes are kube's.
type APIService struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty" protobuf:"bytes,1,opt,name=metadata"`
	Spec              APIServiceSpec   `json:"spec,omitempty" protobuf:"bytes,2,opt,name=spec"`
	Status            APIServiceStatus `json:"status,omitempty" protobuf:"bytes,3,opt,name=status"`
}

// APIServiceList mirrors apiregistration.k8s.io/v1 APIServiceList.
type APIServiceList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty" protobuf:"bytes,1,opt,name=metadata"`
	Items           []APIService `json:"items" protobuf:"bytes,2,rep,name=items"`
}

// APIServiceSpec mirrors the APIService spec (field 6 is retired upstream).
type APIServiceSpec struct {
	Service               *ServiceReference `json:"service,omitempty" protobuf:"bytes,1,opt,name=service"`
	Group                 string            `json:"group,omitempty" protobuf:"bytes,2,opt,name=group"`
	Version               string            `json:"version,omitempty" protobuf:"bytes,3,opt,name=version"`
	InsecureSkipTLSVerify bool              `json:"insecureSkipTLSVerify,omitempty" protobuf:"varint,4,opt,name=insecureSkipTLSVerify"`
	CABundle              []byte            `json:"caBundle,omitempty" protobuf:"bytes,5,opt,name=caBundle"`
	GroupPriorityMinimum  int32             `json:"groupPriorityMinimum" protobuf:"varint,7,opt,name=groupPriorityMinimum"`
	VersionPriority       int32             `json:"versionPriority" protobuf:"varint,8,opt,name=versionPriority"`
}

// ServiceReference mirrors the APIService's service reference.
type ServiceReference struct {
	Namespace string `json:"namespace,omitempty" protobuf:"bytes,1,opt,name=namespace"`
	Name      string `json:"name,omitempty" protobuf:"bytes,2,opt,name=name"`
	Port      *int32 `json:"port,omitempty" protobuf:"varint,3,opt,name=port"`
}

// APIServiceStatus mirrors the APIService status.
type APIServiceStatus struct {
	Conditions []APIServiceCondition `json:"conditions,omitempty" protobuf:"bytes,1,rep,name=conditions"`
}

// APIServiceCondition mirrors one APIService condition.
type APIServiceCondition struct {
	Type               string      `json:"type" protobuf:"bytes,1,opt,name=type"`
	Status             string      `json:"status" protobuf:"bytes,2,opt,name=status"`
	LastTransitionTime metav1.Time `json:"lastTransitionTime,omitempty" protobuf:"bytes,3,opt,name=lastTransitionTime"`
	Reason             string      `json:"reason,omitempty" protobuf:"bytes,4,opt,name=reason"`
	Message            string      `json:"message,omitempty" protobuf:"bytes,5,opt,name=message"`
}
