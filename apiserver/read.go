package apiserver

import (
	"bufio"
	"compress/gzip"
	"context"
	"errors"
	"maps"
	"net/http"
	"strconv"
	"sync"

	"github.com/kapi-dev/kapi/codec"
	"github.com/kapi-dev/kapi/meta"
	"github.com/kapi-dev/kapi/store"
)

// get answers GET on one object. Without a resourceVersion it reads the
// newest version (a consistent read); with one it reads a snapshot not
// older than it ("0": any), which kube serves from its watch cache and a
// store with a cache in front of another (store/etcd) serves without
// asking the other.
func (q *request) get() {
	key := q.res.key(q.info.Namespace, q.info.Name)
	var obj *store.Object
	var err error
	switch v := queryParam(q.r, "resourceVersion"); v {
	case "":
		obj, err = q.s.store.Get(q.r.Context(), key)
	case "0":
		obj, err = q.s.getNotOlderThan(q.r.Context(), key, 1)
	default:
		rv, perr := parseResourceVersion(v)
		if perr != nil {
			q.fail(perr)
			return
		}
		obj, err = q.s.getNotOlderThan(q.r.Context(), key, rv)
	}
	if err != nil {
		q.fail(storeError(err, q.gr(), q.info.Name))
		return
	}
	if obj, err = q.res.present(q.r.Context(), obj); err != nil {
		q.fail(err)
		return
	}
	// The Table's resourceVersion is formatted only for a Table.
	if tr, done := q.tableRequest(); tr != nil {
		q.renderTable(tr, []*store.Object{obj}, meta.ListMeta{ResourceVersion: strconv.FormatInt(obj.Revision(), 10)})
		return
	} else if done {
		return
	}
	q.s.writeObject(q.w, q.r, http.StatusOK, q.res.GroupVersionKind(), obj)
}

// getNotOlderThan reads key from a snapshot not older than revision rev,
// waiting for the store to reach it if needed (revision 1: whatever
// snapshot the store has, without a consistent read).
func (s *Server) getNotOlderThan(ctx context.Context, key string, rev int64) (*store.Object, error) {
	page, err := s.store.List(ctx, key, store.ListOptions{Revision: rev, Match: store.NotOlderThan, Limit: 1})
	if err != nil {
		return nil, err
	}
	if len(page.Items) == 0 || page.Items[0].Key() != key {
		return nil, store.ErrNotFound
	}
	return page.Items[0], nil
}

// queryParam reads one query parameter, without parsing the query when
// the request has none (the common GET).
func queryParam(r *http.Request, name string) string {
	if r.URL.RawQuery == "" {
		return ""
	}
	return r.URL.Query().Get(name)
}

// writeTable answers with a Table or PartialObjectMetadata when the client
// asked for one, and reports whether it did (or failed trying).
func (q *request) writeTable(items []*store.Object, lm meta.ListMeta) bool {
	tr, done := q.tableRequest()
	if tr != nil {
		q.renderTable(tr, items, lm)
	}
	return done
}

// tableRequest is the Table or PartialObjectMetadata the client asked for
// (nil: none), done when the request is answered: a Table is asked for, or
// asking for one failed (answered here).
func (q *request) tableRequest() (tr *tableRequest, done bool) {
	tr, err := q.s.wantsTable(q.r, q.info.Verb, q.res)
	if err != nil {
		q.fail(err)
		return nil, true
	}
	return tr, tr != nil
}

// renderTable answers with items rendered as the Table tr asks for.
func (q *request) renderTable(tr *tableRequest, items []*store.Object, lm meta.ListMeta) {
	t, err := q.s.render(q.res, tr, items, lm, true)
	if err != nil {
		q.fail(meta.Internal(err))
		return
	}
	body, err := tr.codec.Encode(t)
	if err != nil {
		q.fail(meta.Internal(err))
		return
	}
	writeBody(q.w, q.r, http.StatusOK, tr.codec, body)
}

// list answers GET on a collection.
func (q *request) list() {
	opts, err := q.listOptions()
	if err != nil {
		q.fail(err)
		return
	}
	page, err := q.readPage(opts)
	if err != nil {
		q.fail(err)
		return
	}
	if q.writeTable(page.items, page.meta) {
		return
	}
	c, err := q.s.negotiate(q.r, q.res.GroupVersionKind())
	if err != nil {
		q.fail(err)
		return
	}
	body, err := q.encodeList(c, page)
	if err != nil {
		q.fail(meta.Internal(err))
		return
	}
	writeList(q.w, q.r, c, body)
}

// writeList writes a list with a 200: streamed with its exact
// Content-Length, or through gzip when the client accepts it and the list
// is large, as kube-apiserver compresses.
func writeList(w http.ResponseWriter, r *http.Request, c codec.Codec, body codec.List) {
	if c.MediaType() == codec.JSON && pretty(r) {
		writeBody(w, r, http.StatusOK, c, body.Bytes())
		return
	}
	setCommonHeaders(w, c.MediaType())
	newline := c.MediaType() == codec.JSON
	if newline {
		body.Tail = append(body.Tail[:len(body.Tail):len(body.Tail)], '\n')
	}
	size := body.Size()
	if size > gzipThreshold && acceptsGzip(r) {
		h := w.Header()
		h.Set("Content-Encoding", "gzip")
		h.Add("Vary", "Accept-Encoding")
		w.WriteHeader(http.StatusOK)
		if r.Method == http.MethodHead {
			return
		}
		gz := gzipWriters.Get().(*gzip.Writer)
		gz.Reset(w)
		_, _ = body.WriteTo(gz)
		_ = gz.Close()
		gzipWriters.Put(gz)
		return
	}
	w.Header().Set("Content-Length", strconv.Itoa(size))
	w.WriteHeader(http.StatusOK)
	if r.Method != http.MethodHead {
		// Items are small: gather them into large writes, not one system
		// call per few items through the server's 4 KiB buffer. A page of
		// up to a MiB goes out in one write.
		pool := &smallListWriters
		if size > smallListBuffer {
			pool = &largeListWriters
		}
		bw := pool.Get().(*bufio.Writer)
		bw.Reset(w)
		_, _ = body.WriteTo(bw)
		_ = bw.Flush()
		bw.Reset(nil)
		pool.Put(bw)
	}
}

const smallListBuffer = 64 << 10

var (
	smallListWriters = sync.Pool{New: func() any { return bufio.NewWriterSize(nil, smallListBuffer) }}
	largeListWriters = sync.Pool{New: func() any { return bufio.NewWriterSize(nil, 1<<20) }}
)

// conversionPage is how many objects one conversion review carries when
// a read converts many.
const conversionPage = 500

// prefetchConversions converts, a page of objects per review, what a list
// at a non-storage version must convert to select (matchesConverted), so
// that selecting converts nothing one object at a time. It reads the
// same objects without the filter; what changes meanwhile is converted
// when selected. Errors are left to the list itself.
func (q *request) prefetchConversions(prefix string, so store.ListOptions) {
	so.Filter, so.Limit = nil, 0
	all, err := q.s.store.List(q.r.Context(), prefix, so)
	if err != nil {
		return
	}
	for i := 0; i < len(all.Items); i += conversionPage {
		if err := q.res.conversion.prefetch(q.r.Context(), q.res, all.Items[i:min(i+conversionPage, len(all.Items))]); err != nil {
			return
		}
	}
}

// listPage is one page of a list, ready to encode.
type listPage struct {
	items    []*store.Object
	meta     meta.ListMeta
	revision int64
}

// readPage reads the page that opts select from the store and computes its
// list metadata (resourceVersion, continue, remainingItemCount).
func (q *request) readPage(opts listOptions) (listPage, error) {
	prefix := q.res.collectionPrefix(q.info.Namespace)
	filter := opts.filter(q.res)
	so := store.ListOptions{Limit: int(opts.limit), Filter: filter}
	so.Index, so.IndexValue = opts.index(q.res)
	offset := int64(0)
	listPrefix := prefix
	name, pinned := opts.fields.RequiresExactMatch("metadata.name")
	if pinned = pinned && opts.continueToken == nil && (!q.res.Namespaced || q.info.Namespace != ""); pinned {
		// A field selector that pins the name reads that one key, as kube's
		// registry does: its storage gets it without pages (no limit, no
		// continue), and a limit does not make the resourceVersion exact.
		listPrefix, so.Limit = q.res.key(q.info.Namespace, name), 0
	}
	noRetryAfter := false
	switch {
	case opts.continueToken != nil:
		so.Revision, so.Match, so.Start = opts.continueToken.Revision, store.Exact, prefix+opts.continueToken.Start
		offset = opts.continueToken.Offset
		if so.Revision <= 0 { // a token from an expired list: continue at the newest revision
			so.Revision, so.Match = 0, store.NotOlderThan
		}
	case opts.resourceVersion == "0":
		// any: the current snapshot, whole. kube serves resourceVersion=0
		// from its watch cache, which ignores the limit; a store with a
		// cache in front of another (store/etcd) serves it without asking
		// the other.
		so.Limit = 0
		so.Revision, so.Match = 1, store.NotOlderThan
	case opts.resourceVersion == "":
		// most recent: the current snapshot
	case opts.match == "Exact" || (opts.match == "" && opts.limit > 0 && !pinned):
		so.Revision, so.Match = opts.revision, store.Exact
		if so.Revision > q.s.store.Revision() && q.s.kubeRelease.AtLeast(34) {
			// kube 1.34 and later (ListFromCacheSnapshot) serve an exact
			// list from the watch cache, which waits for a future revision
			// as for a not-older-than read, then answers 504; for one
			// pinned name, without asking to retry (no Retry-After).
			so.Match = store.NotOlderThan
			noRetryAfter = pinned
		} else if so.Revision > q.s.store.Revision() {
			// kube reads an exact revision from etcd, which refuses a
			// future one at once; the error reaches the client as is.
			return listPage{}, &meta.Status{Kind: "Status", APIVersion: "v1", Status: "Failure",
				Code: http.StatusInternalServerError, Message: "etcdserver: mvcc: required revision is a future revision"}
		}
	default:
		so.Revision, so.Match = opts.revision, store.NotOlderThan
		// kube 1.34 and later read a limited list of one pinned name at a
		// resourceVersion as an exact one: a future revision is its 504
		// without Retry-After (recorded from 1.37.2; without a limit, with).
		noRetryAfter = pinned && opts.match == "" && opts.limit > 0 && q.s.kubeRelease.AtLeast(34)
	}
	if filter != nil && opts.selectsConverted(q.res) {
		q.prefetchConversions(listPrefix, so)
	}
	res, err := q.s.store.List(q.r.Context(), listPrefix, so)
	if err != nil {
		if opts.continueToken != nil {
			return listPage{}, expiredContinue(err, q.res, opts.continueToken, prefix)
		}
		var expired *store.ExpiredError
		if errors.As(err, &expired) {
			return listPage{}, meta.Expired("The resourceVersion for the provided list is too old.")
		}
		var future *store.FutureRevisionError
		if noRetryAfter && errors.As(err, &future) {
			return listPage{}, meta.TooLargeResourceVersion(future.Requested, future.Current, 0)
		}
		return listPage{}, storeError(err, q.gr(), "")
	}
	page := listPage{items: res.Items, revision: res.Revision}
	if q.res.storageVersion != "" || q.res.Storage != nil {
		if c := q.res.conversion; c != nil {
			if err := c.prefetch(q.r.Context(), q.res, page.items); err != nil {
				return listPage{}, err
			}
		}
		for i, it := range page.items {
			if page.items[i], err = q.res.present(q.r.Context(), it); err != nil {
				return listPage{}, err
			}
		}
	}
	page.meta.ResourceVersion = strconv.FormatInt(res.Revision, 10)
	if res.Next != "" {
		token := continueToken{Revision: res.Revision, Start: res.Next[len(prefix):], Offset: offset + int64(len(res.Items))}
		if opts.continueToken != nil && opts.continueToken.Revision <= 0 && filter == nil {
			// An expired list continued at the newest revision: what came
			// before its start may have changed since the earlier pages,
			// so the items left are counted, as kube asks etcd to count
			// them (its "inconsistent continue" page has a
			// remainingItemCount), and later pages count from there.
			left, err := q.countFrom(listPrefix, res.Next, res.Revision)
			if err != nil {
				return listPage{}, storeError(err, q.gr(), "")
			}
			token.Offset = res.Total - left
		}
		page.meta.Continue = token.encode()
		if filter == nil {
			remaining := res.Total - token.Offset
			if remaining > 0 {
				page.meta.RemainingItemCount = &remaining
			}
		}
	}
	return page, nil
}

// countFrom counts the objects under prefix from the key start on in the
// snapshot of revision, without keeping them.
func (q *request) countFrom(prefix, start string, revision int64) (int64, error) {
	var n int64
	_, err := q.s.store.List(q.r.Context(), prefix, store.ListOptions{Revision: revision, Match: store.Exact, Start: start,
		Filter: func(*store.Object) bool { n++; return false }})
	return n, err
}

// encodeList writes the list envelope around the items' cached encodings,
// so listing never re-encodes a stored version (codec.Framer); a codec
// that frames nothing (YAML) encodes the whole list.
func (q *request) encodeList(c codec.Codec, page listPage) (codec.List, error) {
	of := codec.ListOf{APIVersion: q.res.APIVersion(), Kind: q.res.Kind, ListKind: q.res.ListKind, Typed: !q.res.customResource}
	if f, ok := c.(codec.Framer); ok {
		return f.List(of, page.meta, len(page.items), func(i int) ([]byte, error) { return encodeObject(c, page.items[i]) })
	}
	// Items of typed lists carry no apiVersion and kind, as Framers write
	// them.
	items := make([]any, len(page.items))
	for i, it := range page.items {
		items[i] = it.Data()
		if of.Typed {
			item := maps.Clone(it.Data())
			delete(item, "apiVersion")
			delete(item, "kind")
			items[i] = item
		}
	}
	b, err := c.Encode(map[string]any{
		"apiVersion": of.APIVersion, "kind": of.ListKind, "metadata": page.meta, "items": items,
	})
	return codec.List{Head: b}, err
}
