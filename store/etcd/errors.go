package etcd

import (
	"context"
	"errors"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/kapi-dev/kapi/meta"
)

// writeError turns a write's failure to reach etcd in time into kube's
// 504: the message kube-apiserver's write handlers answer with when their
// 34s run out. A caller that went away (parent done) gets its ctx's
// error; every other error is returned as it is.
func writeError(parent context.Context, err error) error {
	if err == nil || parent.Err() != nil || !timedOut(err) {
		return err
	}
	return meta.Timeout("request did not complete within requested timeout - context deadline exceeded", 0)
}

// readError is writeError for reads: kube-apiserver's timeout filter
// answers them after -request-timeout.
func readError(parent context.Context, err error) error {
	if err == nil || parent.Err() != nil || !timedOut(err) {
		return err
	}
	return meta.Timeout("request did not complete within the allotted timeout", 0)
}

func timedOut(err error) bool {
	return errors.Is(err, context.DeadlineExceeded) || status.Code(err) == codes.DeadlineExceeded
}

// currentRevision is etcd's current revision for a consistent read,
// bounded by ReadTimeout (see revisionFetcher).
func (s *Store) currentRevision(ctx context.Context) (int64, error) {
	rev, err := s.revisions.current(ctx)
	return rev, readError(ctx, err)
}
