package apiserver

import (
	"bytes"
	"context"
	"net/http"
	"strings"

	"github.com/kapi-dev/kapi/codec"
	"github.com/kapi-dev/kapi/meta"
	"github.com/kapi-dev/kapi/store"
)

// This file is the bulk path of a deletecollection (and so of the
// namespace controller's teardown, which deletes through it): the listed
// objects that nothing but the generic pipeline would look at are removed
// together by the store (store.BulkDeleter), without being decoded or
// copied, with the revisions, events and state one DELETE each leaves.
// Every other object goes through deleteObject, in list order.

// genericDeletes reports whether a kind's deletes are the generic
// pipeline's alone (Resource.GenericDelete, or the generic strategy).
func genericDeletes(res *Resource) bool {
	s := res.strategy()
	if res.GenericDelete {
		_, graceful := strategyAs[GracefulDeleter](s)
		_, allocates := strategyAs[Allocator](s)
		return !graceful && !allocates
	}
	for s != nil {
		if _, ok := s.(GenericStrategy); ok {
			return true
		}
		u, ok := s.(interface{ Unwrap() Strategy })
		if !ok {
			return false
		}
		s = u.Unwrap()
	}
	return false
}

// plainDeletes reports whether deleting res's objects with opts removes
// each one that has no finalizers and is not being deleted, without
// marking or changing anything first: the kind deletes generically
// (Resource.GenericDelete) and the options add no finalizer (Orphan and
// Foreground add one, which keeps the object).
func plainDeletes(res *Resource, opts deleteOptions) bool {
	if opts.orphanDependents != nil && *opts.orphanDependents {
		return false
	}
	if p := opts.propagationPolicy; p != nil && *p != propagationBackground {
		return false
	}
	return genericDeletes(res)
}

// removedAtOnce reports whether a DELETE of cur with opts removes it with
// nothing to mark, decided without decoding it (store.Object.Finalizing):
// markedForDeletion would only make a copy to throw away.
func removedAtOnce(res *Resource, cur *store.Object, opts deleteOptions) bool {
	if finalizers, deleting := cur.Finalizing(); finalizers || deleting {
		return false
	}
	return plainDeletes(res, opts)
}

// deletesInBulk reports whether a deletecollection of res with opts may
// take the bulk path for the objects that qualify (see deleteListed).
func (s *Server) deletesInBulk(ctx context.Context, res *Resource, opts deleteOptions) bool {
	if _, ok := s.store.(store.BulkDeleter); !ok {
		return false
	}
	if opts.dryRun || opts.preconditions != (store.Preconditions{}) || s.admissionSeesDeletes(ctx) {
		return false
	}
	return plainDeletes(res, opts)
}

// deleteListed deletes the listed objects of a deletecollection, in list
// order: runs of objects without finalizers that are not being deleted go
// to the store together when deletesInBulk allows it; the others, and
// those written since they were listed, are deleted one by one as DELETE
// deletes them.
func (s *Server) deleteListed(r *http.Request, res *Resource, items []*store.Object, opts deleteOptions) error {
	opts.collection = true
	one := func(it *store.Object) error {
		ns, name := res.objectOfKey(it.Key())
		_, _, err := s.deleteObject(r, res, ns, name, opts)
		if err != nil && !meta.IsNotFound(err) {
			return err
		}
		return nil
	}
	if !s.deletesInBulk(r.Context(), res, opts) {
		for _, it := range items {
			if err := one(it); err != nil {
				return err
			}
		}
		return nil
	}
	bd := s.store.(store.BulkDeleter)
	var run []*store.Object
	flush := func() error {
		if len(run) == 0 {
			return nil
		}
		out, err := bd.DeleteVersions(r.Context(), run)
		if err != nil {
			return storeError(err, res.GroupResource(), "")
		}
		for i, d := range out {
			if d == nil { // written or deleted since listed: decide again
				if err := one(run[i]); err != nil {
					return err
				}
			}
		}
		run = run[:0]
		return nil
	}
	for _, it := range items {
		if finalizers, deleting := it.Finalizing(); !finalizers && !deleting {
			run = append(run, it)
			continue
		}
		if err := flush(); err != nil {
			return err
		}
		if err := one(it); err != nil {
			return err
		}
	}
	return flush()
}

// objectOfKey is the namespace ("" when cluster-scoped) and name of the
// object stored at key (see key): read from the key, the object need not
// be decoded.
func (r *Resource) objectOfKey(key string) (ns, name string) {
	rest := strings.TrimPrefix(key, r.keyPrefix())
	if r.Namespaced {
		ns, name, _ = strings.Cut(rest, "/")
		return ns, name
	}
	return "", rest
}

// BodyDiscarder is the http.ResponseWriter of an in-process client (see
// Loopback) that drops the body of every successful answer, as kube's
// namespace controller drops the list a deletecollection answers. The
// server then skips making that body: a deletecollection answered to such
// a writer encodes no list (its status and headers are unchanged; its
// response size counts 0 bytes). Errors are encoded as always.
type BodyDiscarder interface {
	http.ResponseWriter
	// DiscardsBody reports whether the body of a successful answer is
	// dropped.
	DiscardsBody() bool
}

// discardKey marks, in a Loopback request's context, a client that drops
// successful answers' bodies.
type discardKey struct{}

// withDiscard marks ctx when w drops bodies.
func withDiscard(ctx context.Context, w http.ResponseWriter) context.Context {
	if d, ok := w.(BodyDiscarder); ok && d.DiscardsBody() {
		return context.WithValue(ctx, discardKey{}, true)
	}
	return ctx
}

// discardsBody reports whether the request's client drops the body of a
// successful answer.
func discardsBody(r *http.Request) bool {
	v, _ := r.Context().Value(discardKey{}).(bool)
	return v
}

// StoredUID is a stored version's metadata.uid, read from its cached JSON
// without decoding a compacted version (see Store): in-process
// controllers read a deleted object's uid from its Deleted event's Prev
// this way.
func StoredUID(o *store.Object) string {
	if d := o.Deleted(); d != nil {
		o = d // a delete's state has the uid of the version deleted
	}
	if b, cached := o.Cached(codec.JSONCodec{}); cached {
		if uid, ok := scanUID(b); ok {
			return uid
		}
	}
	return o.Data().UID()
}

// scanUID reads metadata.uid from an object's JSON, skipping every other
// value, and stops there. It accepts only what the server's own encoder
// writes for an object: ok is false when the uid is missing or escaped.
func scanUID(b []byte) (uid string, ok bool) {
	sc := jsonScanner{b: b}
	found := false
	sc.members(func(key []byte) (bool, bool) {
		if string(key) != "metadata" {
			return sc.skip(), false
		}
		return sc.members(func(key []byte) (bool, bool) {
			if string(key) != "uid" {
				return sc.skip(), false
			}
			s, ok := sc.plainString()
			uid, found = string(s), ok
			return ok, true
		}), true
	})
	return uid, found
}

// jsonScanner walks JSON without building values.
type jsonScanner struct {
	b []byte
	i int
}

func (s *jsonScanner) space() {
	for s.i < len(s.b) {
		switch s.b[s.i] {
		case ' ', '\t', '\n', '\r':
			s.i++
		default:
			return
		}
	}
}

// members calls member with each key of an object, positioned at its
// value, which member must consume; member reports whether the value was
// well formed and whether to stop there (the rest of the object is then
// left unread).
func (s *jsonScanner) members(member func(key []byte) (ok, stop bool)) bool {
	s.space()
	if s.i >= len(s.b) || s.b[s.i] != '{' {
		return false
	}
	s.i++
	s.space()
	if s.i < len(s.b) && s.b[s.i] == '}' {
		s.i++
		return true
	}
	for {
		s.space()
		key, ok := s.plainString()
		if !ok {
			return false
		}
		s.space()
		if s.i >= len(s.b) || s.b[s.i] != ':' {
			return false
		}
		s.i++
		s.space()
		if ok, stop := member(key); !ok || stop {
			return ok
		}
		s.space()
		if s.i >= len(s.b) {
			return false
		}
		switch s.b[s.i] {
		case ',':
			s.i++
		case '}':
			s.i++
			return true
		default:
			return false
		}
	}
}

// plainString reads a string without escapes.
func (s *jsonScanner) plainString() ([]byte, bool) {
	if s.i >= len(s.b) || s.b[s.i] != '"' {
		return nil, false
	}
	end := bytes.IndexByte(s.b[s.i+1:], '"')
	if end < 0 {
		return nil, false
	}
	v := s.b[s.i+1 : s.i+1+end]
	if bytes.IndexByte(v, '\\') >= 0 {
		return nil, false
	}
	s.i += end + 2
	return v, true
}

// skip consumes one value of any kind.
func (s *jsonScanner) skip() bool {
	if s.i >= len(s.b) {
		return false
	}
	switch s.b[s.i] {
	case '"':
		return s.skipString()
	case '{', '[':
		depth := 0
		for s.i < len(s.b) {
			switch s.b[s.i] {
			case '"':
				if !s.skipString() {
					return false
				}
				continue
			case '{', '[':
				depth++
			case '}', ']':
				depth--
				if depth == 0 {
					s.i++
					return true
				}
			}
			s.i++
		}
		return false
	}
	start := s.i
	for s.i < len(s.b) {
		switch s.b[s.i] {
		case ',', '}', ']', ' ', '\t', '\n', '\r':
			return s.i > start
		}
		s.i++
	}
	return s.i > start
}

// skipString consumes a string, escapes included.
func (s *jsonScanner) skipString() bool {
	j := s.i + 1
	for {
		end := bytes.IndexByte(s.b[j:], '"')
		if end < 0 {
			return false
		}
		j += end
		// The quote ends the string unless an odd number of backslashes
		// escapes it.
		n := 0
		for k := j - 1; k > s.i && s.b[k] == '\\'; k-- {
			n++
		}
		if n%2 == 0 {
			s.i = j + 1
			return true
		}
		j++
	}
}
