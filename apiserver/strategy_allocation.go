package apiserver

import "github.com/kapi-dev/kapi/meta"

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
