package builtin_test

import (
	"testing"

	"github.com/kapi-dev/kapi/apiserver"
)

// TestValidationAnswersAsKube135 replays the validation cases recorded
// against kube-apiserver 1.33.13 (testdata/kube-validation*.json, 575
// requests), as kube-apiserver 1.35.4 answered them
// (testdata/kube-1.35-validation.json, from
// docs/kube-behaviour/19-releases/record-validation.py), against kapi at
// 1.35. kapi answers 1.33's way wherever 1.35 changed: each such case is
// listed in diverging135 under the class of change it belongs to
// (19-releases.md).
func TestValidationAnswersAsKube135(t *testing.T) {
	replayKubeCasesAt(t, apiserver.Release135, diverging135, "testdata/kube-1.35-validation.json")
}

// The classes of what kube 1.35 answers otherwise than 1.33 in these cases
// (1.37's classes that 1.35 has: it still reports repeated causes twice,
// refuses 1.37's relaxations and accepts the addresses 1.36 refuses).
const (
	// A field error's value printed as JSON ({"app":"x"}, "150%"), where
	// 1.33 printed the Go value; kapi prints 1.33's at every release.
	goSyntax135 = "1.35 prints the invalid value as JSON, kapi as 1.33's Go syntax"
	// Other wording, order or causes (HPA, VolumeAttachment, CSR,
	// tolerations, quota scopes, Ingress backends, CSINode, ...).
	wording135 = "1.35 words or orders these causes otherwise; kapi answers as 1.33"
	// Recorded on one live server with earlier cases' state, or a
	// resourceVersion the live server required.
	liveState135 = "recorded on a live server with earlier cases' state; not comparable"
)

var diverging135 = map[string]string{
	"BestEffort and NotBestEffort conflict":                                      goSyntax135,
	"BestEffort limits pods only":                                                goSyntax135,
	"POST certificatesigningrequests valmisc-csr1":                               goSyntax135,
	"POST certificatesigningrequests valmisc-csr3":                               goSyntax135,
	"POST certificatesigningrequests valmisc-csr5":                               goSyntax135,
	"POST nodes valmisc-n3":                                                      goSyntax135,
	"POST nodes valmisc-n7":                                                      goSyntax135,
	"POST servicecidrs valmisc-s2":                                               goSyntax135,
	"POST servicecidrs valmisc-s3":                                               goSyntax135,
	"PUT 2001:db8::fff0 2001:db8::fff0":                                          goSyntax135,
	"PUT ev-u changes what an event is identified by":                            goSyntax135,
	"PUT status valmisc-n8":                                                      goSyntax135,
	"PUT valmisc-s9 valmisc-s9":                                                  goSyntax135,
	"Terminating and NotTerminating conflict":                                    goSyntax135,
	"a CSI driver's lifecycle modes are immutable":                               goSyntax135,
	"a binary target value must be positive":                                     goSyntax135,
	"a binding's roleRef is immutable":                                           goSyntax135,
	"a budget may not set minAvailable and maxUnavailable":                       goSyntax135,
	"a budget's update is validated":                                             goSyntax135,
	"a container default may not exceed its max":                                 goSyntax135,
	"a container limit names a container resource":                               goSyntax135,
	"a container limit's extended resource follows the standard":                 goSyntax135,
	"a container min may not exceed its default":                                 goSyntax135,
	"a container min may not exceed its max":                                     goSyntax135,
	"a daemonset's selector is immutable":                                        goSyntax135,
	"a daemonset's selector must match its template":                             goSyntax135,
	"a daemonset's update strategy is an enum":                                   goSyntax135,
	"a default request may not be under the min":                                 goSyntax135,
	"a default request may not exceed the default":                               goSyntax135,
	"a deployment needs a selector":                                              goSyntax135,
	"a deployment strategy type is an enum":                                      goSyntax135,
	"a deployment's rolling update percentages print as kube's":                  goSyntax135,
	"a deployment's selector is immutable":                                       goSyntax135,
	"a deployment's selector must match its template":                            goSyntax135,
	"a job template's selector will be generated":                                goSyntax135,
	"a job with a manual selector must match":                                    goSyntax135,
	"a job's selector without manualSelector is refused":                         goSyntax135,
	"a job's template is immutable":                                              goSyntax135,
	"a job's template keeps the generated labels":                                goSyntax135,
	"a limit range update is validated":                                          goSyntax135,
	"a negative target value is refused":                                         goSyntax135,
	"a pod min may not exceed its max":                                           goSyntax135,
	"a quota of an extended resource is a whole number":                          goSyntax135,
	"a quota of an object count is a whole number":                               goSyntax135,
	"a quota of pods in milli units is a whole number":                           goSyntax135,
	"a quota resource that is a container resource only is not a quota resource": goSyntax135,
	"a quota scope applies to the resources it limits":                           goSyntax135,
	"a quota scope is a standard scope":                                          goSyntax135,
	"a quota scope of VolumeAttributesClass":                                     goSyntax135,
	"a quota's hard resources are standard or qualified":                         goSyntax135,
	"a quota's scopes are immutable":                                             goSyntax135,
	"a quota's status hard names are validated":                                  goSyntax135,
	"a ratio may not be under one":                                               goSyntax135,
	"a ratio may not exceed max over min":                                        goSyntax135,
	"a replicaset's selector is immutable":                                       goSyntax135,
	"a replicaset's selector must match its template":                            goSyntax135,
	"a replicationcontroller's selector must match its template":                 goSyntax135,
	"a role's rule may not name non-resource URLs":                               goSyntax135,
	"a scope selector of PriorityClass with Exists takes no values":              goSyntax135,
	"a scope selector scope applies to its resources":                            goSyntax135,
	"a service's clusterIP may not change":                                       goSyntax135,
	"a statefulset's selector must match its template":                           goSyntax135,
	"a statefulset's update strategy is an enum":                                 goSyntax135,
	"a target value must be positive":                                            goSyntax135,
	"a volume attachment's spec is immutable":                                    goSyntax135,
	"a volume's capacity is storage only":                                        goSyntax135,
	"an empty selector is refused":                                               goSyntax135,
	"an overhead resource must be a standard resource":                           goSyntax135,
	"at most two policy types":                                                   goSyntax135,
	"hugepages default and default request are equal":                            goSyntax135,
	"maxUnavailable and maxSurge may not both be zero":                           goSyntax135,
	"maxUnavailable may not exceed 100%":                                         goSyntax135,
	"maxUnavailable must be a percentage":                                        goSyntax135,
	"POST csinodes valmisc-c1":                                                   wording135,
	"POST namespaces valmisc-ns2":                                                wording135,
	"PUT v1.valmisc.example.com without resourceVersion":                         wording135,
	"PUT valmisc-c4 without resourceVersion":                                     wording135,
	"a CSI volume needs a driver and a handle":                                   wording135,
	"a CSR is not approved and denied":                                           wording135,
	"a budget's status conditions are checked":                                   wording135,
	"a container resource name must be a resource name":                          wording135,
	"a quota resource name is a qualified name":                                  wording135,
	"a resource backend needs a kind and a name":                                 wording135,
	"a scale target name must be a path segment":                                 wording135,
	"a scope selector's conflicting scopes are refused":                          wording135,
	"a toleration effect is an enum":                                             wording135,
	"a toleration key must be a qualified name":                                  wording135,
	"a toleration operator is an enum":                                           wording135,
	"a v1 autoscaler with nothing to scale and no replicas is refused":           wording135,
	"a v1 autoscaler without a spec is refused":                                  wording135,
	"a volume attachment needs an attacher and a node":                           wording135,
	"a volume needs a capacity":                                                  wording135,
	"an Exists toleration may not have a value":                                  wording135,
	"an autoscaler with nothing to scale and no replicas is refused":             wording135,
	"an autoscaler without a spec is refused":                                    wording135,
	"an empty key needs Exists":                                                  wording135,
	"an ingress needs rules or a default backend":                                wording135,
	"maxReplicas is needed":                                                      wording135,
	"parameters need a kind and a name":                                          wording135,
	"tolerationSeconds needs NoExecute":                                          wording135,
	"PUT cr7 cr7":                                                                liveState135,
	"PUT status v1.valmisc.example.com":                                          liveState135,
	"PUT v1.valmisc.example.com v1.valmisc.example.com":                          liveState135,
	"a CSI volume is accepted":                                                   liveState135,
	"a volume's claim ref may be set":                                            liveState135,
	"a volume's node affinity is immutable":                                      liveState135,
}
