// Package controllers runs, inside a kapi server, what a Kubernetes
// cluster does on its own: kube-controller-manager's namespace,
// garbage-collector, serviceaccount and root-ca-cert-publisher
// controllers.
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
//
// Options.Controllers chooses them with kube-controller-manager's
// --controllers syntax ("*", "name", "-name"; ParseControllers reads a
// flag value).
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
