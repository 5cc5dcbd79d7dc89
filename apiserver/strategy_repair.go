package apiserver

import (
	"context"
	"errors"
	"fmt"
)

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
