// Package controllers runs, inside a kapi server, what a Kubernetes
// cluster does on its own: kube-controller-manager's namespace,
// garbage-collector, serviceaccount and root-ca-cert-publisher
// controllers, and kube-apiserver's own repair loop of Services.
//
//	srv, _ := apiserver.New(cfg)
//	m, _ := controllers.Start(ctx, srv, controllers.Options{RootCA: caPEM})
//	// ... a test deletes an owner ...
//	_ = m.WaitIdle(ctx) // its dependents are gone
//
// # What they do
//
//   - namespace: a namespace being deleted has every namespaced object of
//     every kind it serves deleted (custom resources included, pods
//     first), reports what remains in kube's status conditions, waits for
//     objects held by finalizers, then removes its "kubernetes" finalizer,
//     which deletes it.
//   - garbagecollector: objects whose owners (ownerReferences) are gone are
//     deleted; owners deleted in the foreground wait for their blocking
//     dependents and then lose the foregroundDeletion finalizer; owners
//     deleted with Orphan are removed from their dependents and lose the
//     orphan finalizer; cycles of owners are broken as kube breaks them.
//   - serviceaccount: every active namespace has a "default"
//     ServiceAccount.
//   - root-ca-cert-publisher: every namespace has a kube-root-ca.crt
//     ConfigMap with Options.RootCA.
//   - service-repair: not a controller of kube-controller-manager's but
//     what kube-apiserver runs inside itself at start and every 3 minutes
//     (Options.RepairInterval): the repair passes of the kinds whose
//     strategy is an apiserver.Repairer (apiserver.Server.Repair). Today
//     that is the node ports of Services (package builtin): ports Services
//     hold are marked in the RangeAllocation, a port no Service holds is
//     freed by the third pass in a row that sees it so (the leak of a
//     server that stopped mid-write), and the problems are reported in
//     kube's events. Start returns after the first pass, as kube-apiserver
//     is not ready before it.
//
// Options.Controllers chooses them with kube-controller-manager's
// --controllers syntax ("*", "name", "-name"; ParseControllers reads a
// flag value), service-repair among them.
//
// # How they run
//
// Each controller reads the server's store through its own watch
// (apiserver.Server.Store: no polling, every write seen in revision order;
// the objects it needs are listed first) and queues work; its workers
// write through the server's pipeline (apiserver.Server.Loopback), so
// finalizers, strategies, admission, managedFields and watch events behave
// as for any client. Their writes carry kube-controller-manager's
// User-Agent, so managedFields name the manager "kube-controller-manager"
// where kube's do, and kube's events where kube emits them. Reads of an
// object's newest version go to the store directly.
//
// The service-repair loop is no watch: it runs its passes on a timer, each
// interval after the previous pass ended, as kube's wait.Until; WaitIdle
// does not wait for its next pass.
//
// Work is deduplicated per item (a namespace, an object) and retried with
// a backoff (5 ms doubling to 5 s) when a write fails. Manager.WaitIdle
// returns once every controller has seen every write and has nothing
// queued, running or waiting for a retry: tests wait on it instead of
// sleeping. Every goroutine ends when Start's context ends (Manager.Done).
//
// # Differences from kube-controller-manager
//
// The namespace controller starts at once instead of waiting 5 s after a
// deletion (a grace period for HA API servers), and passes over a
// namespace again when something in it changes instead of polling. The
// garbage collector keeps a graph of the objects that have owners only,
// and looks owners up in the store when it needs them.
package controllers
