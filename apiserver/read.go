package apiserver

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"maps"
	"net/http"
	"strconv"
	"sync"

	"github.com/kapi-dev/kapi/codec"
	"github.com/kapi-dev/kapi/codec/protobuf"
	"github.com/kapi-dev/kapi/meta"
	"github.com/kapi-dev/kapi/store"
)

// get answers GET on one object. A resourceVersion other than "0" asks
// for a state not older than it, so the read may wait for the store.
func (q *request) get() {
	key := q.res.key(q.info.Namespace, q.info.Name)
	obj, err := q.s.store.Get(q.r.Context(), key)
	if v := queryParam(q.r, "resourceVersion"); v != "" && v != "0" {
		rv, perr := parseResourceVersion(v)
		if perr != nil {
			q.fail(perr)
			return
		}
		if rv > q.s.store.Revision() {
			// A one-key list reads a snapshot not older than rv, waiting if needed.
			var page store.ListResult
			page, err = q.s.store.List(q.r.Context(), key, store.ListOptions{Revision: rv, Match: store.NotOlderThan, Limit: 1})
			obj = nil
			if err == nil && len(page.Items) == 1 && page.Items[0].Key() == key {
				obj = page.Items[0]
			} else if err == nil {
				err = store.ErrNotFound
			}
		}
	}
	if err != nil {
		q.fail(storeError(err, q.gr(), q.info.Name))
		return
	}
	obj = q.res.present(obj)
	if q.writeTable([]*store.Object{obj}, meta.ListMeta{ResourceVersion: strconv.FormatInt(obj.Revision(), 10)}) {
		return
	}
	q.s.writeObject(q.w, q.r, http.StatusOK, q.res.GroupVersionKind(), obj)
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
	tr, err := q.s.wantsTable(q.r, q.info.Verb, q.res)
	if err != nil {
		q.fail(err)
		return true
	}
	if tr == nil {
		return false
	}
	t, err := q.s.render(q.res, tr, items, lm, true)
	if err != nil {
		q.fail(meta.Internal(err))
		return true
	}
	body, err := tr.codec.Encode(t)
	if err != nil {
		q.fail(meta.Internal(err))
		return true
	}
	writeBody(q.w, q.r, http.StatusOK, tr.codec, body)
	return true
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

// listBody is an encoded list as the parts it is written from: the cached
// encodings of its items between a head and a tail, so that a list streams
// to the client without being copied into one buffer first.
type listBody struct {
	head  []byte
	items []listItem
	sep   []byte
	tail  []byte
}

// listItem is an item's cached encoding, possibly minus its type meta, in
// which case "{" is written before it, or a protobuf item message, written
// after its field tag and length.
type listItem struct {
	open     bool
	protobuf bool
	b        []byte
}

func (b listBody) size() int {
	n := len(b.head) + len(b.tail)
	for _, it := range b.items {
		n += len(it.b)
		if it.open {
			n++
		}
		if it.protobuf {
			n += protobuf.ListItemPrefixSize(len(it.b))
		}
	}
	if len(b.items) > 1 {
		n += (len(b.items) - 1) * len(b.sep)
	}
	return n
}

var openBrace = []byte{'{'}

func (b listBody) writeTo(w io.Writer) error {
	if _, err := w.Write(b.head); err != nil {
		return err
	}
	var prefix []byte // protobuf items' tag and length, one buffer for all
	for i, it := range b.items {
		if i > 0 && len(b.sep) > 0 {
			if _, err := w.Write(b.sep); err != nil {
				return err
			}
		}
		if it.open {
			if _, err := w.Write(openBrace); err != nil {
				return err
			}
		}
		if it.protobuf {
			prefix = protobuf.AppendListItemPrefix(prefix[:0], len(it.b))
			if _, err := w.Write(prefix); err != nil {
				return err
			}
		}
		if _, err := w.Write(it.b); err != nil {
			return err
		}
	}
	_, err := w.Write(b.tail)
	return err
}

// bytes joins the parts, for the rare responses that need the whole body
// (pretty printing, small lists).
func (b listBody) bytes() []byte {
	var buf bytes.Buffer
	buf.Grow(b.size())
	_ = b.writeTo(&buf)
	return buf.Bytes()
}

// writeList writes a list with a 200: streamed with its exact
// Content-Length, or through gzip when the client accepts it and the list
// is large, as kube-apiserver compresses.
func writeList(w http.ResponseWriter, r *http.Request, c codec.Codec, body listBody) {
	if c.MediaType() == codec.JSON && pretty(r) {
		writeBody(w, r, http.StatusOK, c, body.bytes())
		return
	}
	setCommonHeaders(w, c.MediaType())
	newline := c.MediaType() == codec.JSON
	if newline {
		body.tail = append(body.tail[:len(body.tail):len(body.tail)], '\n')
	}
	size := body.size()
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
		_ = body.writeTo(gz)
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
		_ = body.writeTo(bw)
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
	switch {
	case opts.continueToken != nil:
		so.Revision, so.Match, so.Start = opts.continueToken.Revision, store.Exact, prefix+opts.continueToken.Start
		offset = opts.continueToken.Offset
		if so.Revision <= 0 { // a token from an expired list: continue at the newest revision
			so.Revision, so.Match = 0, store.NotOlderThan
		}
	case opts.resourceVersion == "0":
		// any: the current snapshot, whole. kube serves resourceVersion=0
		// from its watch cache, which ignores the limit.
		so.Limit = 0
	case opts.resourceVersion == "":
		// most recent: the current snapshot
	case opts.match == "Exact" || (opts.match == "" && opts.limit > 0 && !pinned):
		so.Revision, so.Match = opts.revision, store.Exact
		if so.Revision > q.s.store.Revision() {
			// kube reads an exact revision from etcd, which refuses a
			// future one at once; the error reaches the client as is.
			return listPage{}, &meta.Status{Kind: "Status", APIVersion: "v1", Status: "Failure",
				Code: http.StatusInternalServerError, Message: "etcdserver: mvcc: required revision is a future revision"}
		}
	default:
		so.Revision, so.Match = opts.revision, store.NotOlderThan
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
		return listPage{}, storeError(err, q.gr(), "")
	}
	page := listPage{items: res.Items, revision: res.Revision}
	if q.res.storageVersion != "" {
		for i, it := range page.items {
			page.items[i] = q.res.present(it)
		}
	}
	page.meta.ResourceVersion = strconv.FormatInt(res.Revision, 10)
	if res.Next != "" {
		token := continueToken{Revision: res.Revision, Start: res.Next[len(prefix):], Offset: offset + int64(len(res.Items))}
		page.meta.Continue = token.encode()
		if filter == nil && (opts.continueToken == nil || opts.continueToken.Revision > 0) {
			remaining := res.Total - token.Offset
			if remaining > 0 {
				page.meta.RemainingItemCount = &remaining
			}
		}
	}
	return page, nil
}

// encodeList writes the list envelope around the items' cached encodings,
// so listing never re-encodes a stored version.
func (q *request) encodeList(c codec.Codec, page listPage) (listBody, error) {
	if _, ok := c.(*protobuf.Codec); ok {
		items := make([][]byte, len(page.items))
		body := listBody{items: make([]listItem, len(page.items))}
		for i, it := range page.items {
			env, err := encodeObject(c, it)
			if err != nil {
				return listBody{}, err
			}
			raw, ok := protobuf.RawFromEnvelope(env)
			if !ok {
				return listBody{}, fmt.Errorf("protobuf encoding of %s is not an envelope", it.Key())
			}
			items[i] = raw
			body.items[i] = listItem{protobuf: true, b: raw}
		}
		body.head, body.tail = protobuf.EncodeListParts(q.res.APIVersion(), q.res.ListKind, page.meta, items)
		return body, nil
	}
	if c.MediaType() != codec.JSON {
		// Items of built-in kinds' lists carry no apiVersion and kind (a
		// typed list's items have no type meta), as in JSON below.
		items := make([]any, len(page.items))
		for i, it := range page.items {
			items[i] = it.Data()
			if !q.res.customResource {
				item := maps.Clone(it.Data())
				delete(item, "apiVersion")
				delete(item, "kind")
				items[i] = item
			}
		}
		b, err := c.Encode(map[string]any{
			"apiVersion": q.res.APIVersion(), "kind": q.res.ListKind, "metadata": page.meta, "items": items,
		})
		return listBody{head: b}, err
	}
	head, err := c.Encode(struct {
		Kind       string        `json:"kind"`
		APIVersion string        `json:"apiVersion"`
		Metadata   meta.ListMeta `json:"metadata"`
	}{q.res.ListKind, q.res.APIVersion(), page.meta})
	if err != nil {
		return listBody{}, err
	}
	body := listBody{
		head:  append(head[:len(head)-1:len(head)-1], `,"items":[`...), // the head without its closing brace
		items: make([]listItem, len(page.items)),
		sep:   []byte{','},
		tail:  []byte("]}"),
	}
	// Items of built-in kinds' lists carry no apiVersion and kind, as
	// kube-apiserver writes typed lists; custom resources' lists keep them.
	var typeMeta []byte
	if !q.res.customResource {
		typeMeta = codec.TypeMetaPrefix(q.res.APIVersion(), q.res.Kind)
	}
	for i, it := range page.items {
		b, err := encodeObject(c, it)
		if err != nil {
			return listBody{}, err
		}
		if typeMeta != nil && len(b) > len(typeMeta) && bytes.Equal(b[:len(typeMeta)], typeMeta) {
			body.items[i] = listItem{open: true, b: b[len(typeMeta):]}
			continue
		}
		body.items[i] = listItem{b: b}
	}
	return body, nil
}
