package builtin_test

import (
	"testing"

	"github.com/kapi-dev/kapi/apiserver"
)

// TestValidationAnswersAsKube136 replays the validation cases recorded
// against kube-apiserver 1.33.13 (testdata/kube-validation*.json, 575
// requests), as kube-apiserver 1.36.3 answered them
// (testdata/kube-1.36-validation.json, from
// docs/kube-behaviour/19-releases/record-validation.py), against kapi at
// 1.36. kapi answers 1.33's way wherever 1.36 changed: each such case is
// listed in diverging136 under the class of change it belongs to
// (19-releases.md).
func TestValidationAnswersAsKube136(t *testing.T) {
	replayKubeCasesAt(t, apiserver.Release136, diverging136, "testdata/kube-1.36-validation.json")
}

// The classes of what kube 1.36 answers otherwise than 1.33 in these cases
// (the same classes as 1.37's; a case may differ between 1.36 and 1.37
// within its class).
const (
	// A field error's value printed as JSON ({"app":"x"}, "150%"), where
	// 1.33 printed the Go value; kapi prints 1.33's at every release.
	goSyntax136 = "1.36 prints the invalid value as JSON, kapi as 1.33's Go syntax"
	// Other wording, order or causes (HPA, StorageClass, VolumeAttachment,
	// CSR, CronJob, Ingress, RBAC, ...).
	wording136 = "1.36 words or orders these causes otherwise; kapi answers as 1.33"
	// A cause 1.33 reported twice 1.36 reports once.
	causes136 = "1.36 reports a cause once that 1.33 reported twice; kapi as 1.33"
	// 1.36 accepts what 1.33 refused (relaxations on by default).
	relaxed136 = "1.36 accepts this (a relaxation on by default by 1.36); kapi refuses it as 1.33"
	// 1.36 refuses IP addresses and CIDRs 1.33 accepted.
	strictIP136 = "1.36 refuses this address or CIDR (stricter IP parsing); kapi accepts it as 1.33"
	// Recorded on one live server with earlier cases' state, or a
	// resourceVersion the live server required.
	liveState136 = "recorded on a live server with earlier cases' state; not comparable"
)

var diverging136 = map[string]string{
	"a network policy update is validated":                                       causes136,
	"BestEffort and NotBestEffort conflict":                                      goSyntax136,
	"BestEffort limits pods only":                                                goSyntax136,
	"POST certificatesigningrequests valmisc-csr1":                               goSyntax136,
	"POST certificatesigningrequests valmisc-csr3":                               goSyntax136,
	"POST certificatesigningrequests valmisc-csr5":                               goSyntax136,
	"POST nodes valmisc-n3":                                                      goSyntax136,
	"POST nodes valmisc-n7":                                                      goSyntax136,
	"POST servicecidrs valmisc-s2":                                               goSyntax136,
	"POST servicecidrs valmisc-s3":                                               goSyntax136,
	"PUT 2001:db8::fff0 2001:db8::fff0":                                          goSyntax136,
	"PUT ev-u changes what an event is identified by":                            goSyntax136,
	"PUT status valmisc-n8":                                                      goSyntax136,
	"PUT valmisc-s9 valmisc-s9":                                                  goSyntax136,
	"Terminating and NotTerminating conflict":                                    goSyntax136,
	"a CSI driver's lifecycle modes are immutable":                               goSyntax136,
	"a binary target value must be positive":                                     goSyntax136,
	"a binding's roleRef is immutable":                                           goSyntax136,
	"a budget may not set minAvailable and maxUnavailable":                       goSyntax136,
	"a budget's update is validated":                                             goSyntax136,
	"a container default may not exceed its max":                                 goSyntax136,
	"a container limit names a container resource":                               goSyntax136,
	"a container limit's extended resource follows the standard":                 goSyntax136,
	"a container min may not exceed its default":                                 goSyntax136,
	"a container min may not exceed its max":                                     goSyntax136,
	"a daemonset's selector is immutable":                                        goSyntax136,
	"a daemonset's selector must match its template":                             goSyntax136,
	"a daemonset's update strategy is an enum":                                   goSyntax136,
	"a default request may not be under the min":                                 goSyntax136,
	"a default request may not exceed the default":                               goSyntax136,
	"a deployment needs a selector":                                              goSyntax136,
	"a deployment strategy type is an enum":                                      goSyntax136,
	"a deployment's rolling update percentages print as kube's":                  goSyntax136,
	"a deployment's selector is immutable":                                       goSyntax136,
	"a deployment's selector must match its template":                            goSyntax136,
	"a job template's selector will be generated":                                goSyntax136,
	"a job with a manual selector must match":                                    goSyntax136,
	"a job's selector without manualSelector is refused":                         goSyntax136,
	"a job's template is immutable":                                              goSyntax136,
	"a job's template keeps the generated labels":                                goSyntax136,
	"a limit range update is validated":                                          goSyntax136,
	"a negative target value is refused":                                         goSyntax136,
	"a pod min may not exceed its max":                                           goSyntax136,
	"a quota of an extended resource is a whole number":                          goSyntax136,
	"a quota of an object count is a whole number":                               goSyntax136,
	"a quota of pods in milli units is a whole number":                           goSyntax136,
	"a quota resource that is a container resource only is not a quota resource": goSyntax136,
	"a quota scope applies to the resources it limits":                           goSyntax136,
	"a quota scope is a standard scope":                                          goSyntax136,
	"a quota scope of VolumeAttributesClass":                                     goSyntax136,
	"a quota's hard resources are standard or qualified":                         goSyntax136,
	"a quota's scopes are immutable":                                             goSyntax136,
	"a quota's status hard names are validated":                                  goSyntax136,
	"a ratio may not be under one":                                               goSyntax136,
	"a ratio may not exceed max over min":                                        goSyntax136,
	"a replicaset's selector is immutable":                                       goSyntax136,
	"a replicaset's selector must match its template":                            goSyntax136,
	"a replicationcontroller's selector must match its template":                 goSyntax136,
	"a role's rule may not name non-resource URLs":                               goSyntax136,
	"a scope selector of PriorityClass with Exists takes no values":              goSyntax136,
	"a scope selector scope applies to its resources":                            goSyntax136,
	"a service's clusterIP may not change":                                       goSyntax136,
	"a statefulset's selector must match its template":                           goSyntax136,
	"a statefulset's update strategy is an enum":                                 goSyntax136,
	"a storage class's parameters are immutable":                                 goSyntax136,
	"a target value must be positive":                                            goSyntax136,
	"a volume attachment's spec is immutable":                                    goSyntax136,
	"a volume's capacity is storage only":                                        goSyntax136,
	"an empty selector is refused":                                               goSyntax136,
	"an overhead resource must be a standard resource":                           goSyntax136,
	"at most two policy types":                                                   goSyntax136,
	"hugepages default and default request are equal":                            goSyntax136,
	"maxUnavailable and maxSurge may not both be zero":                           goSyntax136,
	"maxUnavailable may not exceed 100%":                                         goSyntax136,
	"maxUnavailable must be a percentage":                                        goSyntax136,
	"POST csinodes valmisc-c1":                                                   wording136,
	"POST namespaces valmisc-ns2":                                                wording136,
	"POST nodes valmisc-n4":                                                      wording136,
	"PUT v1.valmisc.example.com without resourceVersion":                         wording136,
	"PUT valmisc-c4 without resourceVersion":                                     wording136,
	"a CSI volume needs a driver and a handle":                                   wording136,
	"a CSR is not approved and denied":                                           wording136,
	"a budget's status conditions are checked":                                   wording136,
	"a container resource name must be a resource name":                          wording136,
	"a handler may not be empty":                                                 wording136,
	"a quota resource name is a qualified name":                                  wording136,
	"a resource backend needs a kind and a name":                                 wording136,
	"a scale target name must be a path segment":                                 wording136,
	"a scope selector's conflicting scopes are refused":                          wording136,
	"a service name may not hold dots":                                           wording136,
	"a storage class's immutable fields all at once":                             wording136,
	"a storage class's provisioner is immutable":                                 wording136,
	"a storage class's reclaim policy is immutable":                              wording136,
	"a toleration effect is an enum":                                             wording136,
	"a toleration key must be a qualified name":                                  wording136,
	"a toleration operator is an enum":                                           wording136,
	"a v1 autoscaler with nothing to scale and no replicas is refused":           wording136,
	"a v1 autoscaler without a spec is refused":                                  wording136,
	"a volume attachment needs an attacher and a node":                           wording136,
	"a volume needs a capacity":                                                  wording136,
	"an Exists toleration may not have a value":                                  wording136,
	"an IPv4 address must be one":                                                wording136,
	"an autoscaler with nothing to scale and no replicas is refused":             wording136,
	"an autoscaler without a spec is refused":                                    wording136,
	"an autoscaler's update is validated":                                        wording136,
	"an empty key needs Exists":                                                  wording136,
	"an ingress needs rules or a default backend":                                wording136,
	"maxReplicas is needed":                                                      wording136,
	"parameters need a kind and a name":                                          wording136,
	"tolerationSeconds needs NoExecute":                                          wording136,
	"a backend service name must be a DNS-1035 label":                            relaxed136,
	"a service name must be a DNS-1035 label":                                    relaxed136,
	"an endpoint address with leading zeros":                                     strictIP136,
	"an ipBlock cidr may be a host address":                                      strictIP136,
	"an ipBlock cidr may have leading zeros":                                     strictIP136,
	"PUT cr7 cr7":                                                                liveState136,
	"PUT status v1.valmisc.example.com":                                          liveState136,
	"PUT v1.valmisc.example.com v1.valmisc.example.com":                          liveState136,
	"a CSI volume is accepted":                                                   liveState136,
	"a volume's claim ref may be set":                                            liveState136,
	"a volume's node affinity is immutable":                                      liveState136,
}
