package flowcontrol

import (
	"encoding/json"

	"github.com/kapi-dev/kapi/meta"
)

// The typed model of the two configuration kinds. Field names and order
// follow kube's internal types, so that a value printed with %#v (as kube
// prints it in a few validation messages) reads the same; JSON names are
// flowcontrol.apiserver.k8s.io/v1's.

// Group is the API group of the configuration kinds.
const Group = "flowcontrol.apiserver.k8s.io"

// Well-known names, annotations and limits.
const (
	PriorityLevelConfigurationNameExempt   = "exempt"
	PriorityLevelConfigurationNameCatchAll = "catch-all"
	FlowSchemaNameExempt                   = "exempt"
	FlowSchemaNameCatchAll                 = "catch-all"

	// AutoUpdateAnnotationKey marks a bootstrap object the server keeps
	// up to date ("true") or leaves alone ("false").
	AutoUpdateAnnotationKey = "apf.kubernetes.io/autoupdate-spec"
	// PreserveZeroConcurrencySharesKey is the v1beta3 annotation that
	// tells a nominalConcurrencyShares of 0 from an unset one.
	PreserveZeroConcurrencySharesKey = "flowcontrol.k8s.io/v1beta3-preserve-zero-concurrency-shares"

	// ResponseHeaderMatchedFlowSchemaUID and
	// ResponseHeaderMatchedPriorityLevelUID are the response headers
	// naming what classified a request.
	ResponseHeaderMatchedFlowSchemaUID    = "X-Kubernetes-PF-FlowSchema-UID"
	ResponseHeaderMatchedPriorityLevelUID = "X-Kubernetes-PF-PriorityLevel-UID"

	// FlowSchemaMaxMatchingPrecedence is the largest matchingPrecedence.
	FlowSchemaMaxMatchingPrecedence int32 = 10000
	// FlowSchemaConditionDangling is the condition type of a schema whose
	// priority level does not exist.
	FlowSchemaConditionDangling = "Dangling"

	// Wildcards of rules and subjects.
	APIGroupAll    = "*"
	ResourceAll    = "*"
	VerbAll        = "*"
	NonResourceAll = "*"
	NameAll        = "*"
	NamespaceEvery = "*"
)

// ObjectMeta is the part of an object's metadata flow control reads.
type ObjectMeta struct {
	Name            string            `json:"name,omitempty"`
	UID             string            `json:"uid,omitempty"`
	ResourceVersion string            `json:"resourceVersion,omitempty"`
	Generation      int64             `json:"generation,omitempty"`
	Annotations     map[string]string `json:"annotations,omitempty"`
}

// PriorityLevelConfiguration is a priority level.
type PriorityLevelConfiguration struct {
	ObjectMeta `json:"metadata"`
	Spec       PriorityLevelConfigurationSpec   `json:"spec"`
	Status     PriorityLevelConfigurationStatus `json:"status"`

	raw meta.Object // the object decoded, when it came from the store
}

// PriorityLevelConfigurationSpec is a priority level's configuration.
type PriorityLevelConfigurationSpec struct {
	Type    PriorityLevelEnablement            `json:"type"`
	Limited *LimitedPriorityLevelConfiguration `json:"limited,omitempty"`
	Exempt  *ExemptPriorityLevelConfiguration  `json:"exempt,omitempty"`
}

// PriorityLevelEnablement is Exempt or Limited.
type PriorityLevelEnablement string

// The priority level types.
const (
	PriorityLevelEnablementExempt  PriorityLevelEnablement = "Exempt"
	PriorityLevelEnablementLimited PriorityLevelEnablement = "Limited"
)

// LimitedPriorityLevelConfiguration configures a Limited level.
type LimitedPriorityLevelConfiguration struct {
	NominalConcurrencyShares int32         `json:"nominalConcurrencyShares"`
	LimitResponse            LimitResponse `json:"limitResponse"`
	LendablePercent          *int32        `json:"lendablePercent,omitempty"`
	BorrowingLimitPercent    *int32        `json:"borrowingLimitPercent,omitempty"`
}

// ExemptPriorityLevelConfiguration configures the exempt level.
type ExemptPriorityLevelConfiguration struct {
	NominalConcurrencyShares *int32 `json:"nominalConcurrencyShares,omitempty"`
	LendablePercent          *int32 `json:"lendablePercent,omitempty"`
}

// LimitResponse says what happens to a request that cannot execute now.
type LimitResponse struct {
	Type    LimitResponseType     `json:"type"`
	Queuing *QueuingConfiguration `json:"queuing,omitempty"`
}

// LimitResponseType is Queue or Reject.
type LimitResponseType string

// The limit responses.
const (
	LimitResponseTypeQueue  LimitResponseType = "Queue"
	LimitResponseTypeReject LimitResponseType = "Reject"
)

// QueuingConfiguration configures the queues of a Queue level.
type QueuingConfiguration struct {
	Queues           int32 `json:"queues,omitempty"`
	HandSize         int32 `json:"handSize,omitempty"`
	QueueLengthLimit int32 `json:"queueLengthLimit,omitempty"`
}

// PriorityLevelConfigurationStatus is a priority level's status.
type PriorityLevelConfigurationStatus struct {
	Conditions []Condition `json:"conditions,omitempty"`
}

// Condition is a status condition of either kind.
type Condition struct {
	Type               string `json:"type,omitempty"`
	Status             string `json:"status,omitempty"`
	LastTransitionTime string `json:"lastTransitionTime,omitempty"`
	Reason             string `json:"reason,omitempty"`
	Message            string `json:"message,omitempty"`
}

// FlowSchema classifies requests into flows and priority levels.
type FlowSchema struct {
	ObjectMeta `json:"metadata"`
	Spec       FlowSchemaSpec   `json:"spec"`
	Status     FlowSchemaStatus `json:"status"`

	raw meta.Object // the object decoded, when it came from the store
}

// FlowSchemaSpec is a flow schema's configuration.
type FlowSchemaSpec struct {
	PriorityLevelConfiguration PriorityLevelConfigurationReference `json:"priorityLevelConfiguration"`
	MatchingPrecedence         int32                               `json:"matchingPrecedence,omitempty"`
	DistinguisherMethod        *FlowDistinguisherMethod            `json:"distinguisherMethod,omitempty"`
	Rules                      []PolicyRulesWithSubjects           `json:"rules,omitempty"`
}

// FlowDistinguisherMethodType is ByUser or ByNamespace.
type FlowDistinguisherMethodType string

// The flow distinguisher methods.
const (
	FlowDistinguisherMethodByUserType      FlowDistinguisherMethodType = "ByUser"
	FlowDistinguisherMethodByNamespaceType FlowDistinguisherMethodType = "ByNamespace"
)

// FlowDistinguisherMethod says how a schema splits its requests into flows.
type FlowDistinguisherMethod struct {
	Type FlowDistinguisherMethodType `json:"type"`
}

// PriorityLevelConfigurationReference names a priority level.
type PriorityLevelConfigurationReference struct {
	Name string `json:"name"`
}

// PolicyRulesWithSubjects matches a request when a subject and a rule do.
type PolicyRulesWithSubjects struct {
	Subjects         []Subject               `json:"subjects"`
	ResourceRules    []ResourcePolicyRule    `json:"resourceRules,omitempty"`
	NonResourceRules []NonResourcePolicyRule `json:"nonResourceRules,omitempty"`
}

// Subject matches requesters: a user, a group or a ServiceAccount.
type Subject struct {
	Kind           SubjectKind            `json:"kind"`
	User           *UserSubject           `json:"user,omitempty"`
	Group          *GroupSubject          `json:"group,omitempty"`
	ServiceAccount *ServiceAccountSubject `json:"serviceAccount,omitempty"`
}

// SubjectKind is User, Group or ServiceAccount.
type SubjectKind string

// The subject kinds.
const (
	SubjectKindUser           SubjectKind = "User"
	SubjectKindGroup          SubjectKind = "Group"
	SubjectKindServiceAccount SubjectKind = "ServiceAccount"
)

// UserSubject names a user.
type UserSubject struct {
	Name string `json:"name"`
}

// GroupSubject names a group.
type GroupSubject struct {
	Name string `json:"name"`
}

// ServiceAccountSubject names a ServiceAccount ("*" for every one of the
// namespace).
type ServiceAccountSubject struct {
	Namespace string `json:"namespace"`
	Name      string `json:"name"`
}

// ResourcePolicyRule matches resource requests.
type ResourcePolicyRule struct {
	Verbs        []string `json:"verbs"`
	APIGroups    []string `json:"apiGroups"`
	Resources    []string `json:"resources"`
	ClusterScope bool     `json:"clusterScope,omitempty"`
	Namespaces   []string `json:"namespaces,omitempty"`
}

// NonResourcePolicyRule matches non-resource requests.
type NonResourcePolicyRule struct {
	Verbs           []string `json:"verbs"`
	NonResourceURLs []string `json:"nonResourceURLs"`
}

// FlowSchemaStatus is a flow schema's status.
type FlowSchemaStatus struct {
	Conditions []Condition `json:"conditions,omitempty"`
}

// DecodePriorityLevel reads a PriorityLevelConfiguration in its v1 form.
func DecodePriorityLevel(obj meta.Object) (*PriorityLevelConfiguration, error) {
	pl := &PriorityLevelConfiguration{raw: obj}
	return pl, decodeInto(obj, pl)
}

// DecodeFlowSchema reads a FlowSchema in its v1 form.
func DecodeFlowSchema(obj meta.Object) (*FlowSchema, error) {
	fs := &FlowSchema{raw: obj}
	return fs, decodeInto(obj, fs)
}

func decodeInto(obj meta.Object, v any) error {
	b, err := json.Marshal(map[string]any(obj))
	if err != nil {
		return err
	}
	return json.Unmarshal(b, v)
}

// toObject encodes a typed object as a v1 object of kind.
func toObject(kind string, v any) meta.Object {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err) // the typed model always encodes
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		panic(err)
	}
	m["apiVersion"] = Group + "/v1"
	m["kind"] = kind
	return normalizeNumbers(m).(map[string]any)
}

// normalizeNumbers turns encoding/json's float64 numbers into the int64
// the object model uses for integers.
func normalizeNumbers(v any) any {
	switch t := v.(type) {
	case map[string]any:
		for k, e := range t {
			t[k] = normalizeNumbers(e)
		}
	case []any:
		for i, e := range t {
			t[i] = normalizeNumbers(e)
		}
	case float64:
		if t == float64(int64(t)) {
			return int64(t)
		}
	}
	return v
}
