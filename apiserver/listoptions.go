package apiserver

import (
	"strconv"

	"github.com/kapi-dev/kapi/meta"
	"github.com/kapi-dev/kapi/store"
)

// listOptions are the query parameters of list, watch and deletecollection.
type listOptions struct {
	revision      int64
	match         store.RevisionMatch
	limit         int64
	continueToken *continueToken
	filter        func(*store.Object) bool
}

// listOptions parses and validates the request's list parameters.
func (q *request) listOptions() (listOptions, error) {
	query := q.r.URL.Query()
	var opts listOptions
	if v := query.Get("limit"); v != "" {
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil {
			return opts, meta.BadRequest("unable to parse limit: " + err.Error())
		}
		if n > 0 {
			opts.limit = n
		}
	}
	if v := query.Get("resourceVersion"); v != "" {
		rv, err := strconv.ParseInt(v, 10, 64)
		if err != nil || rv < 0 {
			return opts, meta.BadRequest("invalid resource version: " + v)
		}
		opts.revision = rv
	}
	switch query.Get("resourceVersionMatch") {
	case "":
	case "NotOlderThan":
	case "Exact":
		opts.match = store.Exact
	}
	if v := query.Get("continue"); v != "" {
		t, err := decodeContinueToken(v)
		if err != nil {
			return opts, meta.BadRequest("continue key is not valid: " + err.Error())
		}
		opts.continueToken = t
	}
	return opts, nil
}
