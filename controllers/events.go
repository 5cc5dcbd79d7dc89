package controllers

import (
	"context"

	"github.com/kapi-dev/kapi/apiserver"
	"github.com/kapi-dev/kapi/meta"
)

// emitEvent writes a core/v1 Event about obj as kube's event recorder
// writes one: named after the object and the time, counted once, from
// component (its source and reporting component). It is best effort, as
// in kube: a failure is dropped.
func emitEvent(ctx context.Context, srv *apiserver.Server, c *client, component string, obj meta.Object, typ, reason, message string) {
	res, ok := srv.Served().ForKind(eventKind)
	if !ok {
		return
	}
	now := srv.Now() // the server's clock, as every time it stamps
	ts := formatEventTime(now)
	ns := obj.Namespace()
	if ns == "" {
		ns = "default" // kube records events about cluster-scoped objects there
	}
	ev := map[string]any{
		"apiVersion": "v1", "kind": "Event",
		"metadata": map[string]any{"name": eventName(obj, now), "namespace": ns},
		"involvedObject": map[string]any{"kind": obj.Kind(), "namespace": obj.Namespace(), "name": obj.Name(),
			"uid": obj.UID(), "apiVersion": obj.APIVersion()},
		"reason": reason, "message": message,
		"source":         map[string]any{"component": component},
		"firstTimestamp": ts, "lastTimestamp": ts, "count": 1, "type": typ,
		"eventTime": nil, "reportingComponent": component, "reportingInstance": "",
	}
	_, _ = c.do(ctx, "POST", res.Path(ns), contentJSON, ev, true)
}
