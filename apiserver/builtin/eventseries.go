package builtin

import (
	"net/http"
	"net/url"
	"os"
	"strconv"
	"sync"
	"time"

	"github.com/kapi-dev/kapi/apiserver"
	"github.com/kapi-dev/kapi/meta"
)

// eventSeries records the events.k8s.io/v1 Events of one of
// kube-apiserver's own controllers (its repair loops) as kube's event
// recorder (client-go's tools/events) writes them:
//
//   - an event is about an object (regarding, with its resourceVersion),
//     named "<object name>.<time in hex nanoseconds>", from the controller
//     (reportingController) and "<controller>-<hostname>"
//     (reportingInstance), with an eventTime;
//   - the same event again (same type, action, reason, controller and
//     object: not the note) is not created again: the second time the
//     first gets series {count: 2, lastObservedTime}; later times count in
//     memory only, written every 30 minutes and once the series ends (not
//     seen for 6 minutes), when it is forgotten; an event seen once is
//     forgotten after 6 minutes.
//
// kube checks those times on timers of their own (every 6 and 30
// minutes); kapi checks them whenever the controller records (expire), so
// a series may be written up to one of its passes later. Writes are best
// effort, as kube's: a failed one is dropped.
type eventSeries struct {
	controller, instance string

	mu    sync.Mutex
	last  time.Time
	cache map[eventKey]*seenEvent
}

// How long an event's series lasts without a new occurrence, and how
// often a running series is written, as kube's recorder.
const (
	eventSeriesFinish  = 6 * time.Minute
	eventSeriesRefresh = 30 * time.Minute
)

type eventKey struct {
	typ, action, reason string
	regarding           [6]string // apiVersion, kind, namespace, name, uid, resourceVersion
}

// seenEvent is a recorded event: where it is stored and its series.
type seenEvent struct {
	namespace, name string
	eventTime       time.Time
	count           int // 0 until it repeats
	lastObserved    time.Time
	written         time.Time // when the series was last written
}

// The events of both APIs, stored once as core v1 Events.
var (
	eventsGR     = meta.GroupResource{Group: "events.k8s.io", Resource: "events"}
	eventsCoreGR = meta.GroupResource{Resource: "events"}
)

func newEventSeries(controller string) *eventSeries {
	host, _ := os.Hostname()
	return &eventSeries{controller: controller, instance: controller + "-" + host, cache: map[eventKey]*seenEvent{}}
}

// now is the server's time, made unique among this recorder's events so
// that two events about one object in one pass get distinct names.
func (e *eventSeries) now(w *apiserver.Write) time.Time {
	t := w.Now
	if !t.After(e.last) {
		t = e.last.Add(time.Nanosecond)
	}
	e.last = t
	return t
}

// record writes a Warning event about obj, or counts it in its series.
func (e *eventSeries) record(w *apiserver.Write, obj meta.Object, action, reason, note string) {
	e.mu.Lock()
	defer e.mu.Unlock()
	regarding := map[string]any{"apiVersion": obj.APIVersion(), "kind": obj.Kind(), "namespace": obj.Namespace(),
		"name": obj.Name(), "uid": obj.UID(), "resourceVersion": obj.ResourceVersion()}
	key := eventKey{typ: "Warning", action: action, reason: reason, regarding: [6]string{obj.APIVersion(), obj.Kind(),
		obj.Namespace(), obj.Name(), obj.UID(), obj.ResourceVersion()}}
	now := e.now(w)
	if seen, ok := e.cache[key]; ok {
		seen.lastObserved = now
		if seen.count > 0 {
			seen.count++
			return
		}
		seen.count = 2
		e.writeSeries(w, seen)
		return
	}
	ns := obj.Namespace()
	if ns == "" {
		ns = "default"
	}
	name := obj.Name() + "." + strconv.FormatInt(now.UnixNano(), 16)
	ev := meta.Object{"apiVersion": "events.k8s.io/v1", "kind": "Event",
		"metadata":  map[string]any{"name": name, "namespace": ns},
		"eventTime": formatMicroTime(now), "type": "Warning", "action": action, "reason": reason, "note": note,
		"regarding": regarding, "reportingController": e.controller, "reportingInstance": e.instance}
	if _, err := w.Create(eventsGR, ns, ev); err != nil {
		return
	}
	e.cache[key] = &seenEvent{namespace: ns, name: name, eventTime: now}
}

// expire writes the series due (ended, or not written for 30 minutes)
// and forgets the events that ended.
func (e *eventSeries) expire(w *apiserver.Write) {
	e.mu.Lock()
	defer e.mu.Unlock()
	for key, seen := range e.cache {
		switch {
		case seen.count == 0 && w.Now.Sub(seen.eventTime) > eventSeriesFinish:
			delete(e.cache, key)
		case seen.count > 0 && w.Now.Sub(seen.lastObserved) > eventSeriesFinish:
			e.writeSeries(w, seen)
			delete(e.cache, key)
		case seen.count > 0 && w.Now.Sub(seen.written) >= eventSeriesRefresh:
			e.writeSeries(w, seen)
		}
	}
}

// writeSeries stores an event's series (count and last time observed)
// through the update pipeline, as kube's recorder patches it (the field
// manager is kube-apiserver's); a write that loses a race is retried.
func (e *eventSeries) writeSeries(w *apiserver.Write, seen *seenEvent) {
	seen.written = w.Now
	series := map[string]any{"count": int64(seen.count), "lastObservedTime": formatMicroTime(seen.lastObserved)}
	path := "/apis/events.k8s.io/v1/namespaces/" + url.PathEscape(seen.namespace) + "/events/" + url.PathEscape(seen.name)
	for range 3 {
		cur, err := w.Get(eventsCoreGR, seen.namespace, seen.name)
		if err != nil {
			return
		}
		ev := eventFromCore(cur.Data().DeepCopy())
		ev["series"] = series
		if code, _, _ := w.Do("PUT", path, ev); code != http.StatusConflict {
			return
		}
	}
}

// formatMicroTime is kube's MicroTime: RFC 3339 in UTC with microseconds.
func formatMicroTime(t time.Time) string { return t.UTC().Format("2006-01-02T15:04:05.000000Z07:00") }
