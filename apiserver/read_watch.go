package apiserver

import (
	"bytes"
	"context"
	"encoding/base64"
	"errors"
	"math/rand/v2"
	"net/http"
	"strconv"
	"time"

	"github.com/kapi-dev/kapi/apiserver/flowcontrol"
	"github.com/kapi-dev/kapi/codec"
	"github.com/kapi-dev/kapi/meta"
	"github.com/kapi-dev/kapi/store"
)

// initialEventsEndAnnotation marks the bookmark that ends the initial
// events of a streaming list (sendInitialEvents=true).
const initialEventsEndAnnotation = "k8s.io/initial-events-end"

// watch answers a watch request: a chunked stream of events, flushed as
// they come, until the client goes away, timeoutSeconds pass or the watch
// falls out of the history window (a final ERROR event).
func (q *request) watch() {
	opts, err := q.listOptions()
	if err != nil {
		q.fail(err)
		return
	}
	enc, err := q.s.watchEncoder(q.r, q.res)
	if err != nil {
		q.fail(err)
		return
	}
	timeout := q.s.watchTimeout(opts)
	deadline := time.Now().Add(timeout)
	ctx, cancel := context.WithDeadline(q.r.Context(), deadline)
	defer cancel()

	prefix := q.res.collectionPrefix(q.info.Namespace)
	// Without sendInitialEvents, a watch from "most recent" (unset) or "any"
	// (0) starts with the current state as ADDED events, as the spec says.
	initial := opts.resourceVersion == "" || opts.resourceVersion == "0"
	if opts.sendInitialEvents != nil {
		initial = *opts.sendInitialEvents
	}
	var initialItems []*store.Object
	start := opts.revision
	if initial {
		lo := store.ListOptions{Filter: opts.filter(q.res)}
		lo.Index, lo.IndexValue = opts.index(q.res)
		if opts.resourceVersion != "" && opts.resourceVersion != "0" {
			lo.Revision, lo.Match = opts.revision, store.NotOlderThan
		}
		if lo.Filter != nil && opts.selectsConverted(q.res) {
			q.prefetchConversions(prefix, lo)
		}
		page, err := q.s.store.List(ctx, prefix, lo)
		if err != nil {
			q.fail(storeError(err, q.gr(), ""))
			return
		}
		initialItems, start = page.Items, page.Revision
		if c := q.res.conversion; c != nil {
			// The initial events convert a page per review, as a list
			// does; a failure ends the stream when its event is sent.
			for i := 0; i < len(initialItems); i += conversionPage {
				if c.prefetch(ctx, q.res, initialItems[i:min(i+conversionPage, len(initialItems))]) != nil {
					break
				}
			}
		}
	} else if opts.resourceVersion == "" || opts.resourceVersion == "0" {
		start = q.s.store.Revision()
	}

	w := &watchStream{q: q, enc: enc, opts: opts, events: q.s.metrics.watchEventCells(q.res)}
	defer w.events.flush()
	if start > q.s.store.Revision() {
		// kube answers a watch from a future revision at once (200, then
		// silence), while the store may wait for the revision first.
		w.begin()
	}
	watcher, err := q.s.store.Watch(ctx, prefix, store.WatchOptions{Revision: start})
	var future *store.FutureRevisionError
	for errors.As(err, &future) {
		// kube keeps a watch from a future revision open and silent until the
		// store gets there, the timeout passes or the client goes away.
		if !w.begun {
			w.begin()
			flowcontrol.WatchInitialized(q.r.Context()) // nothing to send until the store gets there
		}
		if ctx.Err() != nil {
			return
		}
		watcher, err = q.s.store.Watch(ctx, prefix, store.WatchOptions{Revision: start})
	}
	if err != nil {
		var expired *store.ExpiredError
		switch {
		case errors.As(err, &expired):
			// kube's watch cache answers 200 and a single ERROR event.
			if !w.begun {
				w.begin()
			}
			w.sendError(storeError(err, q.gr(), ""))
		case !w.begun:
			q.fail(storeError(err, q.gr(), ""))
		}
		return
	}
	defer watcher.Stop()

	if !w.begun {
		w.begin()
	}
	for _, it := range initialItems {
		w.send(store.Added, it)
	}
	if opts.sendInitialEvents != nil && *opts.sendInitialEvents && opts.allowBookmarks {
		w.sendBookmark(start, true)
	}
	if !w.flush() {
		return
	}
	// The initial state is out: flow control may give the watch's seat to
	// other requests.
	flowcontrol.WatchInitialized(q.r.Context())

	// Bookmarks come every interval and once shortly before a requested
	// timeout, as kube-apiserver sends them.
	nextBookmark := time.Now().Add(q.s.bookmarkInterval)
	finalBookmark := time.Time{}
	if opts.hasTimeoutSeconds && timeout > 2*time.Second {
		finalBookmark = deadline.Add(-2 * time.Second)
	}
	// A streaming list asking for bookmarks is also due one at kube's next
	// bookmark tick (its cacher ticks every second or so): sent if the
	// store moved past the initial events' revision by then, as kube
	// 1.37.2 sends it (docs/kube-behaviour/19-releases.md, "difftest at
	// 1.37").
	streamTick := time.Time{}
	if opts.sendInitialEvents != nil && *opts.sendInitialEvents && opts.allowBookmarks {
		streamTick = time.Now().Add(min(q.s.bookmarkInterval, streamingListTick))
	}
	var lastFlush time.Time
	var lastBatch int // events in the last write
	var linger *time.Timer
	defer func() {
		if linger != nil {
			linger.Stop()
		}
	}()
	// A watch with bookmarks waits with a deadline at the next bookmark,
	// one context per bookmark rather than per wait.
	waitCtx, waitCancel, waitUntil := ctx, context.CancelFunc(func() {}), time.Time{}
	defer func() { waitCancel() }()
	for {
		if opts.allowBookmarks {
			wake := nextBookmark
			if !finalBookmark.IsZero() && finalBookmark.Before(wake) {
				wake = finalBookmark
			}
			if !streamTick.IsZero() && streamTick.Before(wake) {
				wake = streamTick
			}
			if !wake.Equal(waitUntil) || waitCtx.Err() != nil {
				waitCancel()
				var cancel context.CancelFunc
				waitCtx, cancel = context.WithDeadline(ctx, wake)
				waitCancel, waitUntil = cancel, wake
			}
		}
		events, err := watcher.Next(waitCtx)
		switch {
		case err == nil:
		case ctx.Err() != nil:
			return // the client left or the timeout passed
		case errors.Is(err, context.DeadlineExceeded) || errors.Is(err, context.Canceled):
			now := time.Now()
			if !streamTick.IsZero() && !now.Before(streamTick) {
				streamTick = time.Time{}
				if watcher.Revision() > start {
					w.sendBookmark(watcher.Revision(), false)
					if !w.flush() {
						return
					}
				}
				continue
			}
			if !finalBookmark.IsZero() && !now.Before(finalBookmark) {
				finalBookmark = time.Time{}
			} else {
				nextBookmark = now.Add(q.s.bookmarkInterval)
			}
			w.sendBookmark(watcher.Revision(), false)
			if !w.flush() {
				return
			}
			continue
		default:
			w.sendError(storeError(err, q.gr(), ""))
			return
		}
		for _, ev := range events {
			w.sendEvent(ev)
		}
		batch := len(events)
		// A busy stream (events coming together, the last write less than a
		// linger ago) waits a moment and then takes every event that came
		// meanwhile into the same write: under load a watcher then wakes
		// and makes one system call per batch, not per event. A stream that
		// gets one event at a time, as a client that waits for each event
		// before its next write, still gets each at once.
		if (batch > 1 || lastBatch > 1) && time.Since(lastFlush) < watchLinger {
			if linger == nil {
				linger = time.NewTimer(watchLinger)
			} else {
				linger.Reset(watchLinger)
			}
			select {
			case <-ctx.Done():
				return
			case <-linger.C:
			}
			for w.buf.Len() < watchBatchBytes {
				more, err := watcher.Next(doneContext) // what is there, without waiting
				if errors.Is(err, context.Canceled) {
					break
				}
				if err != nil {
					w.flush()
					w.sendError(storeError(err, q.gr(), ""))
					return
				}
				for _, ev := range more {
					w.sendEvent(ev)
				}
				batch += len(more)
			}
		}
		if !w.flush() {
			return
		}
		lastFlush, lastBatch = time.Now(), batch
	}
}

// doneContext makes a watcher's Next return what it has without waiting.
var doneContext = func() context.Context {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	return ctx
}()

// watchLinger is how long a busy watch gathers events before writing them,
// and watchBatchBytes how much it writes at most at once. A few
// milliseconds of latency, for streams under load only, cut the system
// calls of both ends of a 100-watcher fan-out several times over; the
// readers' side is then what bounds it. perfcompare's fan-out (a client in
// another process) delivered 315,000 events/s with 2 ms and 339,000 with
// 5 ms; BenchmarkWatchFanout, whose readers are cheaper, gains nothing
// past 2 ms.
const (
	watchLinger     = 5 * time.Millisecond
	watchBatchBytes = 64 << 10
)

// watchStream writes events of one watch response.
type watchStream struct {
	q     *request
	enc   watchEncoder
	opts  listOptions
	buf   bytes.Buffer
	err   error
	begun bool
	// events count what is sent (apiserver_watch_events_total).
	events watchEventCells
}

// streamingListTick is when a streaming list's first bookmark tick comes
// after its initial events (kube's cacher ticks every 1 s ± 25%, from a
// phase of its own; half a second lands within a one-second watch).
const streamingListTick = 500 * time.Millisecond

func (w *watchStream) begin() {
	w.begun = true
	h := w.q.w.Header()
	h.Set("Content-Type", w.enc.contentType())
	h.Set("Cache-Control", "no-cache, private")
	h.Set("X-Content-Type-Options", "nosniff")
	w.q.w.WriteHeader(http.StatusOK)
	_ = http.NewResponseController(w.q.w).Flush()
}

// sendEvent translates a store event for this watch's selectors: an object
// that starts matching arrives ADDED, one that stops matching DELETED.
func (w *watchStream) sendEvent(ev store.Event) {
	if w.opts.labels.Empty() && w.opts.fields.Empty() {
		w.send(ev.Type, ev.Object)
		return
	}
	res := w.q.res
	cur := ev.Type != store.Deleted && w.opts.matches(res, ev.Object)
	prev := ev.Prev != nil && w.opts.matches(res, ev.Prev)
	switch {
	case cur && prev:
		w.send(store.Modified, ev.Object)
	case cur:
		w.send(store.Added, ev.Object)
	case prev && ev.Type == store.Deleted:
		w.send(store.Deleted, ev.Object)
	case prev:
		gone := store.NewObject(ev.Prev.Key(), ev.Revision, ev.Prev.Data().WithResourceVersion(ev.Revision))
		w.send(store.Deleted, gone)
	}
}

func (w *watchStream) send(t store.EventType, obj *store.Object) {
	if w.err != nil {
		return
	}
	obj, err := w.q.res.present(w.q.r.Context(), obj)
	if err != nil {
		// A conversion webhook failed. kube's watch cache of this version
		// cannot decode the event: it retries, then ends every watch of
		// the version without an ERROR event (docs/kube-behaviour/
		// 12-policy.md, "Watches"). This stream ends so, at once: the
		// events before this one are delivered, nothing after.
		w.flush()
		w.err = err
		return
	}
	b, err := w.enc.object(obj)
	if err != nil {
		w.err = err
		return
	}
	n := w.buf.Len()
	w.enc.event(&w.buf, string(t), b)
	w.events.observe(w.buf.Len() - n)
}

// sendBookmark reports progress: an object of the watched kind carrying
// only the revision up to which the watch has seen everything, in the
// form the stream's events take (kube transforms a bookmark as it does
// every event: PartialObjectMetadata, or a Table of it).
func (w *watchStream) sendBookmark(revision int64, initialEventsEnd bool) {
	md := map[string]any{"resourceVersion": strconv.FormatInt(revision, 10)}
	// kube 1.34 omits a zero creationTimestamp and no longer annotates
	// the end of a streaming list with the list's blueprint; 1.33 does
	// both (docs/kube-behaviour/19-releases.md, "difftest at 1.37").
	before134 := !w.q.s.kubeRelease.AtLeast(34)
	if before134 && !w.q.res.customResource {
		md["creationTimestamp"] = nil // a typed object's zero time, as kube 1.33 serialises it
	}
	if initialEventsEnd {
		annotations := map[string]any{initialEventsEndAnnotation: "true"}
		if before134 {
			annotations["kubernetes.io/initial-events-list-blueprint"] = base64.StdEncoding.EncodeToString(w.enc.blueprint(w.q.res))
		}
		md["annotations"] = annotations
	}
	obj := meta.Object{"kind": w.q.res.Kind, "apiVersion": w.q.res.APIVersion(), "metadata": md}
	var b []byte
	var err error
	if w.enc.bookmark != nil {
		b, err = w.enc.bookmark(store.NewObject("", revision, obj))
	} else {
		b, err = w.enc.value(obj)
	}
	if err != nil {
		w.err = err
		return
	}
	w.enc.event(&w.buf, "BOOKMARK", b)
}

func (w *watchStream) sendError(err error) {
	b, encErr := w.enc.value(meta.AsStatus(err))
	if encErr != nil {
		return
	}
	w.enc.event(&w.buf, "ERROR", b)
	w.flush()
}

// flush writes the buffered events and flushes the connection; false
// means the stream is over.
func (w *watchStream) flush() bool {
	w.events.flush() // counted before a client can see them
	if w.err != nil {
		return false
	}
	if w.buf.Len() == 0 {
		return true
	}
	_, err := w.q.w.Write(w.buf.Bytes())
	w.buf.Reset()
	if err != nil {
		return false
	}
	return http.NewResponseController(w.q.w).Flush() == nil
}

// watchEncoder frames watch events in one representation (a
// codec.Framer). Objects come from their version's encoding cache, shared
// by every watcher, unless the stream is of Tables.
type watchEncoder struct {
	codec  codec.Codec
	framer codec.Framer
	// object encodes an event's object: its cached encoding, or a Table.
	object func(*store.Object) ([]byte, error)
	// bookmark, when set, encodes a bookmark's object as object does
	// (PartialObjectMetadata, a Table); otherwise it is encoded as it is.
	bookmark func(*store.Object) ([]byte, error)
	// listOf, when set, is what a streaming list's blueprint lists in
	// place of the watched kind (PartialObjectMetadata).
	listOf *codec.ListOf
}

func newWatchEncoder(c codec.Codec, f codec.Framer) watchEncoder {
	return watchEncoder{codec: c, framer: f, object: func(o *store.Object) ([]byte, error) { return encodeObject(c, o) }}
}

func (e watchEncoder) contentType() string         { return e.framer.WatchMediaType() }
func (e watchEncoder) value(v any) ([]byte, error) { return e.codec.Encode(v) }
func (e watchEncoder) event(buf *bytes.Buffer, eventType string, object []byte) {
	e.framer.AppendEvent(buf, eventType, object)
}

// blueprint is the empty list a streaming list ends with, in the stream's
// representation, for the client to build its list from.
func (e watchEncoder) blueprint(res *Resource) []byte {
	if e.listOf != nil {
		return e.framer.EmptyList(*e.listOf)
	}
	return e.framer.EmptyList(codec.ListOf{APIVersion: res.APIVersion(), Kind: res.Kind, ListKind: res.ListKind})
}

// watchEncoder negotiates the watch representation: a codec that frames
// watch events (JSON, one event per line, which kube also accepts as
// application/json;stream=watch; protobuf), possibly of one-row Tables
// whose first carries the column definitions.
func (s *Server) watchEncoder(r *http.Request, res *Resource) (watchEncoder, error) {
	tr, err := s.wantsTable(r, VerbWatch, res)
	if err != nil {
		return watchEncoder{}, err
	}
	if tr != nil {
		f, ok := tr.codec.(codec.Framer)
		if !ok {
			f = codec.JSONCodec{}
		}
		enc := newWatchEncoder(tr.codec, f)
		headers := true
		enc.object = func(o *store.Object) ([]byte, error) {
			t, err := s.render(res, tr, []*store.Object{o}, meta.ListMeta{ResourceVersion: strconv.FormatInt(o.Revision(), 10)}, headers)
			headers = false
			if err != nil {
				return nil, err
			}
			return enc.value(t)
		}
		enc.bookmark = enc.object
		if tr.as == "PartialObjectMetadata" {
			enc.listOf = &codec.ListOf{APIVersion: tr.apiVersion, Kind: "PartialObjectMetadata", ListKind: "PartialObjectMetadataList"}
		}
		return enc, nil
	}
	for _, m := range codec.ParseAccept(r.Header.Get("Accept")) {
		if m.Param("as") != "" {
			continue
		}
		for _, c := range s.codecs {
			if !m.Matches(c.MediaType()) || !codec.Supports(c, res.GroupVersionKind()) {
				continue
			}
			if f, ok := c.(codec.Framer); ok {
				return newWatchEncoder(c, f), nil
			}
		}
	}
	return watchEncoder{}, s.notAcceptable(r)
}

// watchTimeout is timeoutSeconds when given, otherwise a random duration
// between one and two minimum request timeouts, as kube-apiserver picks.
func (s *Server) watchTimeout(opts listOptions) time.Duration {
	if opts.hasTimeoutSeconds && opts.timeoutSeconds > 0 {
		return time.Duration(opts.timeoutSeconds) * time.Second
	}
	base := s.minRequestTimeout
	return base + time.Duration(rand.Int64N(int64(base)))
}
