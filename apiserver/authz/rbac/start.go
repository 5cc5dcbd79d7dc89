package rbac

import (
	"context"
	"time"

	"github.com/kapi-dev/kapi/store"
)

// Start sets up RBAC on st as kube-apiserver and kube-controller-manager
// do together: it writes the bootstrap policy (EnsureBootstrapPolicy),
// fills in the aggregated ClusterRoles once, keeps them filled in from a
// goroutine until ctx is done (RunAggregation), and returns the
// authorizer. now is the clock (nil: time.Now).
func Start(ctx context.Context, st store.Store, now func() time.Time) (*Authorizer, error) {
	if now == nil {
		now = time.Now
	}
	if err := EnsureBootstrapPolicy(ctx, st, now()); err != nil {
		return nil, err
	}
	if err := AggregateOnce(ctx, st, now); err != nil {
		return nil, err
	}
	a, err := New(st)
	if err != nil {
		return nil, err
	}
	go func() { _ = RunAggregation(ctx, st, now) }()
	return a, nil
}
