package flowcontrol

import "github.com/kapi-dev/kapi/meta"

// The bootstrap configuration: kube 1.33's mandatory and suggested priority
// levels and flow schemas, with the same specs. The mandatory ones (the
// exempt level and schema, the catch-all level and schema) keep flow
// control working whatever happens to the others: the server restores them
// and behaves as if they existed while they do not. The suggested ones
// split traffic the way kube's defaults do: the cluster's own components
// first, workloads after, everybody else in global-default.

func i32(v int32) *int32 { return &v }

func newLevel(name string, spec PriorityLevelConfigurationSpec) *PriorityLevelConfiguration {
	return &PriorityLevelConfiguration{
		ObjectMeta: ObjectMeta{Name: name, Annotations: map[string]string{AutoUpdateAnnotationKey: "true"}},
		Spec:       spec,
	}
}

func queuingLevel(name string, shares, lendable, queues, handSize int32) *PriorityLevelConfiguration {
	return newLevel(name, PriorityLevelConfigurationSpec{
		Type: PriorityLevelEnablementLimited,
		Limited: &LimitedPriorityLevelConfiguration{
			NominalConcurrencyShares: shares,
			LendablePercent:          i32(lendable),
			LimitResponse: LimitResponse{Type: LimitResponseTypeQueue,
				Queuing: &QueuingConfiguration{Queues: queues, HandSize: handSize, QueueLengthLimit: 50}},
		},
	})
}

func newSchema(name, level string, precedence int32, method FlowDistinguisherMethodType, rules ...PolicyRulesWithSubjects) *FlowSchema {
	fs := &FlowSchema{
		ObjectMeta: ObjectMeta{Name: name, Annotations: map[string]string{AutoUpdateAnnotationKey: "true"}},
		Spec: FlowSchemaSpec{
			PriorityLevelConfiguration: PriorityLevelConfigurationReference{Name: level},
			MatchingPrecedence:         precedence,
			Rules:                      rules,
		},
	}
	if method != "" {
		fs.Spec.DistinguisherMethod = &FlowDistinguisherMethod{Type: method}
	}
	return fs
}

func groups(names ...string) []Subject {
	out := make([]Subject, len(names))
	for i, n := range names {
		out[i] = Subject{Kind: SubjectKindGroup, Group: &GroupSubject{Name: n}}
	}
	return out
}

func users(names ...string) []Subject {
	out := make([]Subject, len(names))
	for i, n := range names {
		out[i] = Subject{Kind: SubjectKindUser, User: &UserSubject{Name: n}}
	}
	return out
}

func kubeSystemServiceAccounts(names ...string) []Subject {
	out := make([]Subject, len(names))
	for i, n := range names {
		out[i] = Subject{Kind: SubjectKindServiceAccount, ServiceAccount: &ServiceAccountSubject{Namespace: "kube-system", Name: n}}
	}
	return out
}

func resourceRule(verbs, apiGroups, resources []string, clusterScope bool) ResourcePolicyRule {
	return ResourcePolicyRule{Verbs: verbs, APIGroups: apiGroups, Resources: resources,
		Namespaces: []string{NamespaceEvery}, ClusterScope: clusterScope}
}

var (
	all              = []string{"*"}
	everyResource    = []ResourcePolicyRule{resourceRule(all, all, all, true)}
	everyNonResource = []NonResourcePolicyRule{{Verbs: all, NonResourceURLs: all}}
	everything       = func(subjects []Subject) PolicyRulesWithSubjects {
		return PolicyRulesWithSubjects{Subjects: subjects, ResourceRules: everyResource, NonResourceRules: everyNonResource}
	}
	getCreateUpdate = []string{"get", "create", "update"}
)

// Well-known users and groups of the bootstrap schemas.
const (
	userKubeControllerManager = "system:kube-controller-manager"
	userKubeScheduler         = "system:kube-scheduler"
	groupNodes                = "system:nodes"
	groupServiceAccounts      = "system:serviceaccounts"
	groupMasters              = "system:masters"
	groupAuthenticated        = "system:authenticated"
	groupUnauthenticated      = "system:unauthenticated"
)

var (
	levelExempt = newLevel(PriorityLevelConfigurationNameExempt, PriorityLevelConfigurationSpec{
		Type:   PriorityLevelEnablementExempt,
		Exempt: &ExemptPriorityLevelConfiguration{NominalConcurrencyShares: i32(0), LendablePercent: i32(0)},
	})
	levelCatchAll = newLevel(PriorityLevelConfigurationNameCatchAll, PriorityLevelConfigurationSpec{
		Type: PriorityLevelEnablementLimited,
		Limited: &LimitedPriorityLevelConfiguration{NominalConcurrencyShares: 5, LendablePercent: i32(0),
			LimitResponse: LimitResponse{Type: LimitResponseTypeReject}},
	})
	schemaExempt   = newSchema(FlowSchemaNameExempt, PriorityLevelConfigurationNameExempt, 1, "", everything(groups(groupMasters)))
	schemaCatchAll = newSchema(FlowSchemaNameCatchAll, PriorityLevelConfigurationNameCatchAll, 10000,
		FlowDistinguisherMethodByUserType, everything(groups(groupUnauthenticated, groupAuthenticated)))

	mandatoryLevels  = []*PriorityLevelConfiguration{levelCatchAll, levelExempt}
	mandatorySchemas = []*FlowSchema{schemaExempt, schemaCatchAll}

	suggestedLevels = []*PriorityLevelConfiguration{
		queuingLevel("system", 30, 33, 64, 6),
		queuingLevel("node-high", 40, 25, 64, 6),
		queuingLevel("leader-election", 10, 0, 16, 4),
		queuingLevel("workload-high", 40, 50, 128, 6),
		queuingLevel("workload-low", 100, 90, 128, 6),
		queuingLevel("global-default", 20, 50, 128, 6),
	}
	suggestedSchemas = []*FlowSchema{
		newSchema("system-nodes", "system", 500, FlowDistinguisherMethodByUserType, everything(groups(groupNodes))),
		newSchema("system-node-high", "node-high", 400, FlowDistinguisherMethodByUserType, PolicyRulesWithSubjects{
			Subjects: groups(groupNodes),
			ResourceRules: []ResourcePolicyRule{
				resourceRule(all, []string{""}, []string{"nodes", "nodes/status"}, true),
				resourceRule(all, []string{"coordination.k8s.io"}, []string{"leases"}, false),
			},
		}),
		newSchema("probes", "exempt", 2, "", PolicyRulesWithSubjects{
			Subjects:         groups(groupUnauthenticated, groupAuthenticated),
			NonResourceRules: []NonResourcePolicyRule{{Verbs: []string{"get"}, NonResourceURLs: []string{"/healthz", "/readyz", "/livez"}}},
		}),
		newSchema("system-leader-election", "leader-election", 100, FlowDistinguisherMethodByUserType, PolicyRulesWithSubjects{
			Subjects:      append(users(userKubeControllerManager, userKubeScheduler), kubeSystemServiceAccounts(NameAll)...),
			ResourceRules: []ResourcePolicyRule{resourceRule(getCreateUpdate, []string{"coordination.k8s.io"}, []string{"leases"}, false)},
		}),
		newSchema("workload-leader-election", "leader-election", 200, FlowDistinguisherMethodByUserType, PolicyRulesWithSubjects{
			Subjects: kubeSystemServiceAccounts(NameAll),
			ResourceRules: []ResourcePolicyRule{
				resourceRule(getCreateUpdate, []string{""}, []string{"endpoints", "configmaps"}, false),
				resourceRule(getCreateUpdate, []string{"coordination.k8s.io"}, []string{"leases"}, false),
			},
		}),
		newSchema("endpoint-controller", "workload-high", 150, FlowDistinguisherMethodByUserType, PolicyRulesWithSubjects{
			Subjects:      append(users(userKubeControllerManager), kubeSystemServiceAccounts("endpoint-controller", "endpointslicemirroring-controller")...),
			ResourceRules: []ResourcePolicyRule{resourceRule(getCreateUpdate, []string{""}, []string{"endpoints"}, false)},
		}),
		newSchema("kube-controller-manager", "workload-high", 800, FlowDistinguisherMethodByNamespaceType, everything(users(userKubeControllerManager))),
		newSchema("kube-scheduler", "workload-high", 800, FlowDistinguisherMethodByNamespaceType, everything(users(userKubeScheduler))),
		newSchema("kube-system-service-accounts", "workload-high", 900, FlowDistinguisherMethodByNamespaceType, everything(kubeSystemServiceAccounts(NameAll))),
		newSchema("service-accounts", "workload-low", 9000, FlowDistinguisherMethodByUserType, everything(groups(groupServiceAccounts))),
		newSchema("global-default", "global-default", 9900, FlowDistinguisherMethodByUserType, everything(groups(groupUnauthenticated, groupAuthenticated))),
	}
)

func mandatoryPriorityLevel(name string) *PriorityLevelConfiguration {
	for _, pl := range mandatoryLevels {
		if pl.Name == name {
			return pl
		}
	}
	return nil
}

func mandatoryFlowSchema(name string) *FlowSchema {
	for _, fs := range mandatorySchemas {
		if fs.Name == name {
			return fs
		}
	}
	return nil
}

// Bootstrap is a set of configuration objects the server keeps in place.
type Bootstrap struct {
	// Mandatory objects are restored whenever they are missing or their
	// spec differs (the exempt level's spec.exempt excepted).
	Mandatory []meta.Object
	// Suggested objects are created when missing and kept up to date
	// while their apf.kubernetes.io/autoupdate-spec annotation is "true"
	// (or absent, on an object whose generation is 1).
	Suggested []meta.Object
}

// BootstrapPriorityLevels returns kube 1.33's bootstrap priority levels as
// v1 objects (fresh copies), for a server to create at start.
func BootstrapPriorityLevels() Bootstrap {
	var b Bootstrap
	for _, pl := range mandatoryLevels {
		b.Mandatory = append(b.Mandatory, toObject("PriorityLevelConfiguration", pl))
	}
	for _, pl := range suggestedLevels {
		b.Suggested = append(b.Suggested, toObject("PriorityLevelConfiguration", pl))
	}
	return b
}

// BootstrapFlowSchemas returns kube 1.33's bootstrap flow schemas as v1
// objects (fresh copies).
func BootstrapFlowSchemas() Bootstrap {
	var b Bootstrap
	for _, fs := range mandatorySchemas {
		b.Mandatory = append(b.Mandatory, toObject("FlowSchema", fs))
	}
	for _, fs := range suggestedSchemas {
		b.Suggested = append(b.Suggested, toObject("FlowSchema", fs))
	}
	return b
}
