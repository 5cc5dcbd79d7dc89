// Package kapitest starts a real Kubernetes API server for a test in one
// line: kapi's server, in the test's own process, with every built-in kind
// served in JSON, YAML and protobuf, RBAC and kube's bootstrap policy, the
// CustomResourceDefinitions and objects the test names, and a
// *rest.Config for client-go and controller-runtime that calls it
// in-process (no socket, no TLS). No binaries, no setup step, no
// download; a start takes a millisecond or two, so every test can
// have a server of its own.
//
//	func TestReconciler(t *testing.T) {
//		srv := kapitest.Start(t, kapitest.WithCRDPaths("../config/crd/bases"))
//		mgr, err := ctrl.NewManager(srv.Config, ctrl.Options{Scheme: scheme})
//		...
//	}
//
// The server stops when the test ends. For a suite that shares one server
// (TestMain, Ginkgo's BeforeSuite) use New and Close; for a suite written
// for controller-runtime's envtest, change its import to
// github.com/kapi-dev/kapi/kapitest/envtest (see that package).
//
// # What a Server offers
//
//   - Config: the in-process configuration, as an administrator (group
//     system:masters) or as the user AsUser names; AdminConfig and
//     ConfigFor give others. Authorization is RBAC, as in a cluster
//     (WithAuthorizationMode changes the chain), and
//     ValidatingAdmissionPolicies are enforced, as kube-apiserver does by
//     default.
//   - Kubeconfig, URL, LoopbackConfig: an HTTPS listener on loopback,
//     started on first use, for kubectl or another process.
//   - Faults: failures with kube's exact answers: a forced compaction
//     (watches end with 410 Expired, older resourceVersions and continue
//     tokens expire), 504 "Too large resource version", stalled and
//     dropped watches, any Status or delay for chosen requests, the Nth
//     write failing, the next update conflicting.
//   - Clock: the time the server stamps (creationTimestamp,
//     deletionTimestamp, managedFields, the controllers' Events and
//     namespace conditions) and checks ServiceAccount tokens against;
//     Advance it instead of sleeping.
//   - Requests: every request answered (verb, resource, namespace, name,
//     query, user agent, field manager, code, latency), to assert, say,
//     that a reconcile of an unchanged object writes nothing.
//
// # Options
//
// WithCRDs (typed, unstructured or YAML), WithCRDPaths (files and
// directories), WithCRDFS (an embed.FS) install CRDs, established before
// Start returns; WithObjects and WithObjectPaths create objects;
// WithScheme names the kinds of your Go types; AsUser sets Config's
// identity; WithStore keeps objects in any store.Store (store/etcd's, or
// one shared between servers); WithClock shares a clock; WithControllers
// runs the namespace and garbage-collection controllers;
// WithAPIServerConfig adjusts anything else (admission plugins, more
// kinds).
//
// # How a start is fast
//
// Servers on the default in-memory store with the same CRDs start from
// one store prepared once per process (the default namespaces, the RBAC
// bootstrap policy, the CRDs established), cloned in O(1)
// (memory.Store.Clone): nothing is written or parsed again. Such servers
// share those objects' uids and creation timestamps, as clusters restored
// from one backup would. CRD and object files are decoded once per
// process.
//
// # Controllers
//
// By default no controller runs, as with envtest: a deleted namespace
// stays Terminating, and owned objects stay after their owner goes.
// WithControllers runs kube-controller-manager's namespace,
// garbage-collector, serviceaccount, root-ca-cert-publisher,
// pvc-protection and pv-protection controllers, and kube-apiserver's node port repair (service-repair), in
// the server (package github.com/kapi-dev/kapi/controllers);
// Server.Controllers.WaitIdle waits until they have done their work.
//
// # Webhooks
//
// Admission and conversion webhooks are stored and, with WithWebhooks,
// called over TLS as kube-apiserver calls them (package
// github.com/kapi-dev/kapi/kapitest/envtest installs a project's webhook
// manifests as envtest does).
//
// # Not yet
//
// The workload controllers (Deployments, ReplicaSets, Jobs) and the
// scheduler do not exist.
package kapitest
