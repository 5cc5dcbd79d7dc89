package apiserver

import "github.com/kapi-dev/kapi/meta"

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

// allocate runs the strategy's Allocate for one attempt of a write, first
// reverting what an earlier attempt of the same request allocated.
func (q *request) allocate(w *Write, obj, old meta.Object) error {
	a, ok := strategyAs[Allocator](q.res.strategy())
	if !ok {
		return nil
	}
	q.settleAllocation(false)
	alloc, err := a.Allocate(w, obj, old)
	if err != nil {
		return err
	}
	q.alloc = alloc
	return nil
}

// settleAllocation commits (stored) or reverts the pending allocation.
func (q *request) settleAllocation(stored bool) {
	if q.alloc == nil {
		return
	}
	if stored && !q.wo.dryRun {
		q.alloc.Commit()
	} else {
		q.alloc.Revert()
	}
	q.alloc = nil
}

// release gives back what a removed object held.
func (s *Server) release(w *Write, res *Resource, removed meta.Object) {
	if a, ok := strategyAs[Allocator](res.strategy()); ok && !w.DryRun {
		a.Release(w, removed)
	}
}
