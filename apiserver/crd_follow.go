package apiserver

import (
	"context"
	"time"

	"github.com/kapi-dev/kapi/store"
)

// followRetry is how long FollowCRDs waits before reading the CRDs again
// after its watch failed (the store unreachable, its history compacted).
const followRetry = time.Second

// FollowCRDs keeps the custom resource types this server serves in step
// with the CustomResourceDefinitions of its store when other servers write
// them too (several servers over one etcd): a CRD created, changed or
// deleted through another server is served, changed or dropped here one
// watch event later. A server alone on its store does not need it: its own
// CRD writes change what it serves before they are answered. It blocks
// until ctx ends; run it in a goroutine of its own.
func (s *Server) FollowCRDs(ctx context.Context) {
	for ctx.Err() == nil {
		if err := s.followCRDs(ctx); err != nil && ctx.Err() == nil {
			select {
			case <-ctx.Done():
			case <-time.After(followRetry):
			}
		}
	}
}

// followCRDs reads every CRD, then refreshes the registry for each CRD the
// watch reports, until the watch fails or ctx ends.
func (s *Server) followCRDs(ctx context.Context) error {
	rev, err := s.loadRegistry(ctx)
	if err != nil {
		return err
	}
	w, err := s.store.Watch(ctx, s.crds.collectionPrefix(""), store.WatchOptions{Revision: rev})
	if err != nil {
		return err
	}
	defer w.Stop()
	for {
		events, err := w.Next(ctx)
		for _, ev := range events {
			if err := s.refreshCRD(ctx, ev.Object.Data().Name()); err != nil {
				return err
			}
		}
		if err != nil {
			return err
		}
	}
}
