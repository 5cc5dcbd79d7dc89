package controllers

import (
	"context"
	"errors"

	"github.com/kapi-dev/kapi/apiserver"
	"github.com/kapi-dev/kapi/meta"
	"github.com/kapi-dev/kapi/store"
)

// removeFinalizer removes one finalizer from an object with a JSON merge
// patch naming its resourceVersion, reading it again after a conflict. An
// object that is gone, or that another object of the same name (another
// uid; "" matches any) has replaced, is done.
func removeFinalizer(ctx context.Context, srv *apiserver.Server, c *client, res apiserver.ServedResource, ns, name, uid, finalizer string) error {
	for {
		cur, err := srv.Store().Get(ctx, res.Key(ns, name))
		if errors.Is(err, store.ErrNotFound) {
			return nil
		}
		if err != nil {
			return err
		}
		obj := cur.Data()
		if uid != "" && obj.UID() != uid {
			return nil
		}
		fins := obj.Finalizers()
		if !containsString(fins, finalizer) {
			return nil
		}
		var kept []any
		for _, f := range fins {
			if f != finalizer {
				kept = append(kept, f)
			}
		}
		var list any
		if len(kept) > 0 {
			list = kept
		}
		patch := map[string]any{"metadata": map[string]any{"resourceVersion": obj.ResourceVersion(), "finalizers": list}}
		_, err = c.do(ctx, "PATCH", objectPath(res, ns, name), contentMergePatch, patch, true)
		if !meta.IsConflict(err) {
			return notFoundIsDone(err)
		}
	}
}
