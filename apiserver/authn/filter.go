package authn

import (
	"encoding/json"
	"net/http"
	"strconv"

	"github.com/kapi-dev/kapi/meta"
)

// ErrorWriter writes a failed request's Status (an error that is a
// *meta.Status), negotiating its encoding with the request as the API
// server writes its own errors.
type ErrorWriter func(w http.ResponseWriter, r *http.Request, err error)

// Unauthorized is the Status kube-apiserver answers a request it could not
// authenticate with: 401, message and reason "Unauthorized", whatever went
// wrong (the reason is never told to the client).
func Unauthorized() *meta.Status {
	return &meta.Status{Kind: "Status", APIVersion: "v1", Status: "Failure",
		Message: "Unauthorized", Reason: meta.ReasonUnauthorized, Code: http.StatusUnauthorized}
}

// Filter authenticates every request with a before passing it on, with its
// user in the request's context (WithUser). A request a does not
// authenticate gets kube's 401 (Unauthorized), written by writeError (nil:
// plain JSON). The handler after the filter never sees the bearer token:
// the Authorization header of an authenticated token is removed.
func Filter(a Authenticator, writeError ErrorWriter) func(http.Handler) http.Handler {
	return func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if u, ok := Authenticate(a, writeError, w, r); ok {
				next.ServeHTTP(w, r.WithContext(WithUser(r.Context(), u)))
			}
		})
	}
}

// Authenticate is Filter's work on one request, for a filter of the
// caller's that puts the user in the request's context together with
// values of its own (one request copy instead of two): it authenticates r
// with a, or answers kube's 401 itself (written by writeError; nil: plain
// JSON) and returns false.
func Authenticate(a Authenticator, writeError ErrorWriter, w http.ResponseWriter, r *http.Request) (*User, bool) {
	header := r.Header.Get("Authorization")
	resp, ok, _ := a.AuthenticateRequest(r)
	if !ok || resp == nil || resp.User == nil {
		if extraSpaceBeforeToken(header) {
			w.Header().Add("Warning", "299 - "+strconv.Quote(extraSpaceWarning))
		}
		if writeError == nil {
			writeError = WriteJSONError
		}
		// kube sends this Status without X-Content-Type-Options.
		writeError(withoutNoSniff{w}, r, Unauthorized())
		return nil, false
	}
	return resp.User, true
}

// withoutNoSniff drops the X-Content-Type-Options header the API server's
// error writer sets, which kube leaves out of its 401.
type withoutNoSniff struct{ http.ResponseWriter }

func (w withoutNoSniff) WriteHeader(code int) {
	w.ResponseWriter.Header().Del("X-Content-Type-Options")
	w.ResponseWriter.WriteHeader(code)
}

func (w withoutNoSniff) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// WriteJSONError writes err's Status as compact JSON, for filters used
// without an API server's error writer.
func WriteJSONError(w http.ResponseWriter, r *http.Request, err error) {
	st := meta.AsStatus(err)
	body, _ := json.Marshal(st)
	body = append(body, '\n')
	h := w.Header()
	h.Set("Content-Type", "application/json")
	h.Set("Cache-Control", "no-cache, private")
	h.Set("Content-Length", strconv.Itoa(len(body)))
	w.WriteHeader(st.HTTPStatus())
	if r.Method != http.MethodHead {
		_, _ = w.Write(body)
	}
}
