package apiserver

import (
	"github.com/kapi-dev/kapi/meta"
)

// The optional capabilities of a Strategy: interfaces a kind's strategy
// implements beside Strategy's hooks, found with strategyAs (through the
// Unwrap of a strategy that wraps another): Allocator (with its
// Allocation), GracefulDeleter, AdmissionValidator and Repairer. What a kind
// only declares, with no code to run, is a Resource field instead
// (GenericDelete, ConditionalUpdates, KeepsStatusOnCreate,
// ValidatesCompletely, beside ReturnDeletedObject).

// strategyAs finds an optional capability (Allocator, GracefulDeleter) of
// a strategy, or of the strategy it wraps: a Strategy that wraps another
// (adding to some of its hooks) has an Unwrap method returning it, so that
// the wrapped one's capabilities are still found.
func strategyAs[T any](s Strategy) (T, bool) {
	for s != nil {
		if t, ok := s.(T); ok {
			return t, true
		}
		u, ok := s.(interface{ Unwrap() Strategy })
		if !ok {
			break
		}
		s = u.Unwrap()
	}
	var zero T
	return zero, false
}

// Allocator is implemented by a Strategy whose objects hold something
// outside themselves, taken when they are written and given back when
// they go: a Service's cluster IPs (IPAddress objects) and node ports, as
// kube's service storage allocates them in a transaction around the store
// write.
//
// Allocate runs after mutating admission, before PrepareForCreate and
// validation (where kube's BeginCreate and BeginUpdate run), with the
// object about to be written and old (nil on a create). It may change obj
// (to set what it allocated) and returns the write's Allocation: the
// pipeline Commits it once the write is stored and Reverts it when it is
// not (a validation or admission failure, a store error, a retry after a
// concurrent write, a dry run). On dry run (w.DryRun) it reserves nothing
// but fills obj as a real write would. An error refuses the write.
//
// Release runs after an object is removed from the store (never on dry
// run), to give back everything it held.
type Allocator interface {
	Allocate(w *Write, obj, old meta.Object) (Allocation, error)
	Release(w *Write, removed meta.Object)
}

// Allocation is what one write allocated: exactly one of Commit (the
// write was stored: give back what the previous version held and the new
// one does not) and Revert (it was not: give back what Allocate took) is
// called.
type Allocation interface {
	Commit()
	Revert()
}

// GracefulDeleter is a Strategy whose objects are given time to go, as
// kube's pods (its RESTGracefulDeleteStrategy): a DELETE keeps the object
// with deletionTimestamp and deletionGracePeriodSeconds set to the period
// GracePeriod returns, until a DELETE with a period of 0 (a kubelet's, or
// a client's --grace-period=0) removes it; a period of 0 removes it at
// once, after storing the marked version (see markedForDeletion).
type GracefulDeleter interface {
	// GracePeriod is the period of deleting obj, given the DeleteOptions'
	// gracePeriodSeconds (nil when it sets none).
	GracePeriod(w *Write, obj meta.Object, requested *int64) int64
}

// AdmissionValidator is implemented by a Strategy whose kind one of
// kube-apiserver's in-tree validating admission plugins checks against
// other objects (the Priority plugin allows one default PriorityClass):
// what a kind's validation cannot see, answered as admission answers.
//
// ValidateAdmission runs on a create (old nil) or an update once the
// kind's validation has passed, before the configured validating
// admission plugins, policies and webhooks, inside the store's guaranteed
// update (it may run more than once; it must not have effects). Its error
// refuses the write: a *meta.Status is sent as is, any other error as 403
// Forbidden with its message, as an admission plugin's denial.
type AdmissionValidator interface {
	ValidateAdmission(w *Write, obj, old meta.Object) error
}

// Repairer is implemented by a Strategy whose kind keeps records beside its
// objects that can drift from them: an Allocator's (a Service's node ports
// in kube's RangeAllocation), which a server that stops between taking
// something and storing or reverting the write leaves taken. kube-apiserver
// runs a repair loop for such records at start and every 3 minutes; a
// Repairer is one pass of it.
//
// Repair reads the objects and the record and writes the record as the
// objects say, in one compare and swap, reporting what it finds as kube
// does (events). What a pass must remember for the next (kube counts the
// passes a value has been seen leaked before it frees it) it keeps in the
// server's state (Write.Local), and what it counts in the server's
// metrics (Write.Metrics). w.Operation is empty, w.DryRun false; its
// writes run as the server itself. Something else runs the passes
// (Server.Repair): package controllers runs them at start and then
// periodically, as kube-apiserver does.
type Repairer interface {
	Repair(w *Write) error
}
