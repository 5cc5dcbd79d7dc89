package apiserver

import (
	"context"
	"errors"
	"fmt"
)

// Repair runs one repair pass (Repairer) of every configured kind whose
// strategy has one, as kube-apiserver's repair loops do (today: the node
// ports of Services). Passes of one server must not overlap; a pass that
// fails leaves the records as they were and returns its error, joined
// with the others'.
func (s *Server) Repair(ctx context.Context) error {
	var errs []error
	for i := range s.staticResources {
		res := &s.staticResources[i]
		rp, ok := strategyAs[Repairer](res.strategy())
		if !ok {
			continue
		}
		w := &Write{Context: ctx, Now: s.now(), res: res, s: s}
		if err := rp.Repair(w); err != nil {
			errs = append(errs, fmt.Errorf("repairing %s: %w", res.GroupResource(), err))
		}
	}
	return errors.Join(errs...)
}
