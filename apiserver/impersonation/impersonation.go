// Package impersonation is kube-apiserver's impersonation filter: a
// request carrying Impersonate-User (and optionally Impersonate-Group,
// Impersonate-Uid, Impersonate-Extra-<key>) headers is served as the user
// they describe, once the authenticated user is authorized, header by
// header, with the "impersonate" verb:
//
//	Impersonate-User: alice                  impersonate users "alice"
//	Impersonate-User: system:serviceaccount:ns:sa
//	                                          impersonate serviceaccounts "sa" in ns
//	Impersonate-Group: dev                   impersonate groups "dev"
//	Impersonate-Uid: 42                      impersonate uids.authentication.k8s.io "42"
//	Impersonate-Extra-Scopes: view           impersonate userextras.authentication.k8s.io/scopes "view"
//
// The impersonated user gets system:authenticated unless it is
// system:anonymous (which gets system:unauthenticated) or the groups asked
// for already say which; a ServiceAccount impersonated without groups gets
// its own. Headers other than a user, without a user, are kube's 500. The
// filter stands after authentication and before authorization; the
// handlers behind it see the impersonated user and no impersonation
// header.
package impersonation

import (
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"

	"github.com/kapi-dev/kapi/apiserver/authn"
	"github.com/kapi-dev/kapi/apiserver/authz"
)

// The impersonation headers.
const (
	UserHeader        = "Impersonate-User"
	GroupHeader       = "Impersonate-Group"
	UIDHeader         = "Impersonate-Uid"
	ExtraHeaderPrefix = "Impersonate-Extra-"
)

// request is one thing to impersonate, as kube's ObjectReference (whose
// %v form kube's error messages print).
type request struct {
	Kind, Namespace, Name, UID, APIVersion, ResourceVersion, FieldPath string
}

const authenticationV1 = "authentication.k8s.io/v1"

// parse reads the impersonation headers in kube's order: user, groups,
// extras, uid.
func parse(h http.Header) ([]request, error) {
	var reqs []request
	user := h.Get(UserHeader)
	if user != "" {
		if ns, name, ok := authn.SplitServiceAccountUsername(user); ok {
			reqs = append(reqs, request{Kind: "ServiceAccount", Namespace: ns, Name: name})
		} else {
			reqs = append(reqs, request{Kind: "User", Name: user})
		}
	}
	others := false
	for _, g := range h.Values(GroupHeader) {
		others = true
		reqs = append(reqs, request{Kind: "Group", Name: g})
	}
	for name, values := range h {
		canonical := http.CanonicalHeaderKey(name)
		if !strings.HasPrefix(canonical, ExtraHeaderPrefix) {
			continue
		}
		others = true
		key := strings.ToLower(canonical[len(ExtraHeaderPrefix):])
		if k, err := url.PathUnescape(key); err == nil {
			key = k
		}
		for _, v := range values {
			reqs = append(reqs, request{Kind: "UserExtra", APIVersion: authenticationV1, Name: v, FieldPath: key})
		}
	}
	if uid := h.Get(UIDHeader); uid != "" {
		others = true
		reqs = append(reqs, request{Kind: "UID", Name: uid, APIVersion: authenticationV1})
	}
	if others && user == "" {
		return nil, fmt.Errorf("requested %v without impersonating a user", reqs)
	}
	return reqs, nil
}

// Filter serves requests with impersonation headers as the impersonated
// user when a allows it; a denial is kube's 403 (written by writeError,
// nil: plain JSON).
func Filter(a authz.Authorizer, writeError authn.ErrorWriter) func(http.Handler) http.Handler {
	if writeError == nil {
		writeError = authn.WriteJSONError
	}
	return func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if !hasImpersonationHeader(r.Header) {
				next.ServeHTTP(w, r)
				return
			}
			reqs, err := parse(r.Header)
			if err != nil {
				authz.InternalError(w, r, err)
				return
			}
			if len(reqs) == 0 { // only empty headers
				next.ServeHTTP(w, r)
				return
			}
			ctx := r.Context()
			requestor, ok := authn.UserFrom(ctx)
			if !ok {
				authz.InternalError(w, r, errors.New("no user found for request"))
				return
			}
			groupsSpecified := len(r.Header.Values(GroupHeader)) > 0
			impersonated := &authn.User{}
			groups := []string{}
			for _, req := range reqs {
				attrs := authz.Attributes{User: requestor, Verb: "impersonate", Namespace: req.Namespace, Name: req.Name, ResourceRequest: true}
				switch req.Kind {
				case "ServiceAccount":
					attrs.Resource = "serviceaccounts"
					impersonated.Name = authn.ServiceAccountUsername(req.Namespace, req.Name)
					if !groupsSpecified {
						groups = authn.ServiceAccountGroups(req.Namespace)
					}
				case "User":
					attrs.Resource = "users"
					impersonated.Name = req.Name
				case "Group":
					attrs.Resource = "groups"
					groups = append(groups, req.Name)
				case "UserExtra":
					attrs.APIGroup, attrs.APIVersion = "authentication.k8s.io", "v1"
					attrs.Resource, attrs.Subresource = "userextras", req.FieldPath
					if impersonated.Extra == nil {
						impersonated.Extra = map[string][]string{}
					}
					impersonated.Extra[req.FieldPath] = append(impersonated.Extra[req.FieldPath], req.Name)
				case "UID":
					attrs.APIGroup, attrs.APIVersion = "authentication.k8s.io", "v1"
					attrs.Resource = "uids"
					impersonated.UID = req.Name
				}
				d, reason, err := a.Authorize(ctx, attrs)
				if err != nil || d != authz.Allow {
					writeError(w, r, authz.Forbidden(attrs, reason))
					return
				}
			}
			if impersonated.Name != authn.Anonymous {
				if !containsAny(groups, authn.AllAuthenticated, authn.AllUnauthenticated) {
					groups = append(groups, authn.AllAuthenticated)
				}
			} else if !containsAny(groups, authn.AllUnauthenticated) {
				groups = append(groups, authn.AllUnauthenticated)
			}
			impersonated.Groups = groups
			r = r.WithContext(authn.WithUser(ctx, impersonated))
			for name := range r.Header {
				if isImpersonationHeader(name) {
					r.Header.Del(name)
				}
			}
			next.ServeHTTP(w, r)
		})
	}
}

func containsAny(list []string, vs ...string) bool {
	for _, e := range list {
		for _, v := range vs {
			if e == v {
				return true
			}
		}
	}
	return false
}

func isImpersonationHeader(name string) bool {
	c := http.CanonicalHeaderKey(name)
	return c == UserHeader || c == GroupHeader || c == UIDHeader || strings.HasPrefix(c, ExtraHeaderPrefix)
}

// hasImpersonationHeader is the cheap test run on every request.
func hasImpersonationHeader(h http.Header) bool {
	for name := range h {
		if len(name) >= len("Impersonate-") && strings.EqualFold(name[:len("Impersonate-")], "Impersonate-") && isImpersonationHeader(name) {
			return true
		}
	}
	return false
}
