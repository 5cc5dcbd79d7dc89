package controllers

import (
	"context"
	"sync/atomic"
	"time"

	"github.com/kapi-dev/kapi/apiserver"
)

// DefaultRepairInterval is how often kube-apiserver 1.33 runs its repair
// loops (its repairLoopInterval, not configurable there).
const DefaultRepairInterval = 3 * time.Minute

// repairLoop runs the server's repair passes (apiserver.Server.Repair: the
// node ports of Services) as kube-apiserver runs its repair loops: once at
// start, then again each interval after the previous pass ended. A pass
// that fails changes nothing and is not retried before the next interval;
// kube logs its error, kapi has no log and drops it.
type repairLoop struct {
	srv      *apiserver.Server
	interval time.Duration
	passes   atomic.Int64
	lastErr  atomic.Pointer[error]
}

// pass runs one repair pass and records its outcome.
func (l *repairLoop) pass(ctx context.Context) error {
	err := l.srv.Repair(ctx)
	l.lastErr.Store(&err)
	l.passes.Add(1)
	return err
}

// run repeats the passes until ctx ends.
func (l *repairLoop) run(ctx context.Context) {
	t := time.NewTimer(l.interval)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		_ = l.pass(ctx)
		t.Reset(l.interval)
	}
}
