// Package flowcontrol is API Priority and Fairness (APF) as kube-apiserver
// 1.33 does it: configured by the flowcontrol.apiserver.k8s.io FlowSchema
// and PriorityLevelConfiguration objects, enforced by a filter in front of
// the API handler, so that one noisy client cannot starve the others.
//
// # What it does with a request
//
//	classify   the FlowSchemas in matchingPrecedence order (then name):
//	           the first whose rules match the user (authn.UserFrom; no
//	           user is system:anonymous in system:unauthenticated) and the
//	           request (requestinfo) picks the priority level and, by
//	           ByUser or ByNamespace, the flow
//	estimate   the seats it occupies: a LIST one per 100 objects it
//	           reads (at most the level's maximum, at most 10), a write
//	           extra final seats for the watches it will notify, a WATCH
//	           one seat while its initial events go out (WatchInitialized)
//	admit      exempt levels execute at once; a Reject level executes if
//	           the seats fit, else 429; a Queue level shuffle-shards the
//	           flow into one of handSize queues and fair-queues it
//	           (package fairqueue), rejecting when the queue is full or the
//	           request waited too long (a quarter of its deadline, else
//	           Options.RequestWaitLimit, at most a minute)
//	answer     every response carries X-Kubernetes-PF-FlowSchema-UID and
//	           X-Kubernetes-PF-PriorityLevel-UID; a rejection is kube's
//	           plain-text 429 "Too many requests, please try again later."
//	           with a Retry-After that grows while the level keeps rejecting
//
// Long-running requests other than watches (exec, attach, proxy, log,
// portforward) pass untouched, as in kube.
//
// # Concurrency limits
//
// The server's limit ServerCL (MaxRequestsInFlight +
// MaxMutatingRequestsInFlight, 600 by default) is shared by the levels'
// nominalConcurrencyShares (NCS), exactly by the seed's formulas:
//
//	NominalCL(i)   = ceil(ServerCL × NCS(i) / Σ NCS)
//	LendableCL(i)  = round(NominalCL(i) × lendablePercent(i) / 100)
//	BorrowingCL(i) = round(NominalCL(i) × borrowingLimitPercent(i) / 100)   (ServerCL when unset)
//
// Every ten seconds, as kube, each level's current limit is set between
// NominalCL-LendableCL and NominalCL+BorrowingCL from its recent seat
// demand (high watermark, and a smoothed average plus deviation): levels
// that need seats borrow what idle ones lend.
//
// # Configuration
//
// The Controller reads both kinds from the store (v1 objects under
// Deps.PriorityLevelPrefix and Deps.FlowSchemaPrefix), follows them with
// the store's Watch (never polling) and digests every change as a whole:
// a broken level is ignored, a schema whose level is missing is ignored and
// its status condition Dangling says so, a level removed while busy drains
// before it goes, and the mandatory objects (the exempt and catch-all
// levels and schemas) are imagined while they are missing, so that no
// configuration can take the server down. Through Deps.Client (the
// server's own write path, so managedFields and validation apply) it
// creates kube's bootstrap objects at Start and keeps them in place as
// kube's configuration producer does: mandatory ones restored, suggested
// ones updated while apf.kubernetes.io/autoupdate-spec says "true".
//
// # The API
//
// DefaultPriorityLevel, DefaultFlowSchema, ValidatePriorityLevel,
// ValidateFlowSchema (and their status variants) are kube's defaulting and
// validation over objects (meta.Object), with kube's field paths and
// messages; ConvertToV1 and ConvertFromV1 convert between v1 (storage) and
// v1beta3. BootstrapPriorityLevels and BootstrapFlowSchemas are kube 1.33's
// bootstrap objects. Package apiserver/builtin registers the two kinds with
// these as their strategies (v1beta3, off by default as in kube 1.33, with
// builtin.WithFlowControlV1beta3, a view of the stored v1 objects).
//
// # Observability
//
// Filter serves kube's dumps under /debug/api_priority_and_fairness/
// (dump_priority_levels, dump_queues, dump_requests), and
// Controller.WritePrometheus writes the apiserver_flowcontrol_* metrics for
// a server's /metrics.
//
// # Use
//
//	fc := flowcontrol.New(flowcontrol.Options{Context: ctx}, flowcontrol.Deps{
//		Store: st, Client: flowcontrol.HandlerClient{Handler: api}})
//	if err := fc.Start(); err != nil { ... }
//	http.ListenAndServe(addr, fc.Filter(api))
//
// apiserver.Config.FlowControl does exactly this for a Server.
package flowcontrol
