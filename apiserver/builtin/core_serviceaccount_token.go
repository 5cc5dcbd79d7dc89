package builtin

import (
	"net/http"
	"slices"

	"github.com/kapi-dev/kapi/apiserver"
	"github.com/kapi-dev/kapi/apiserver/authn"
	"github.com/kapi-dev/kapi/meta"
)

// WithTokenRequest adds the serviceaccounts/token subresource (TokenRequest,
// `kubectl create token`) to the ServiceAccount registration in rs,
// answered by tokens.
func WithTokenRequest(rs []apiserver.Resource, tokens *authn.ServiceAccountTokens) []apiserver.Resource {
	for i := range rs {
		if rs[i].Group != "" || rs[i].Plural != "serviceaccounts" {
			continue
		}
		inner := rs[i].Strategy
		if inner == nil {
			inner = apiserver.GenericStrategy{}
		}
		rs[i].Strategy = tokenStrategy{Strategy: inner, tokens: tokens}
	}
	return rs
}

// tokenStrategy is a ServiceAccount's strategy with the token subresource.
type tokenStrategy struct {
	apiserver.Strategy
	tokens *authn.ServiceAccountTokens
}

// Unwrap is the ServiceAccount's own strategy, whose capabilities
// apiserver finds through it.
func (s tokenStrategy) Unwrap() apiserver.Strategy { return s.Strategy }

func (s tokenStrategy) Subresources() []apiserver.Subresource {
	subs := slices.DeleteFunc(slices.Clone(s.Strategy.Subresources()), func(sub apiserver.Subresource) bool {
		return sub.Name == "token" // the one discovery lists, now answered
	})
	return append(subs, apiserver.Subresource{
		Name: "token", Verbs: []string{"create"},
		Kind: meta.GroupVersionKind{Group: "authentication.k8s.io", Version: "v1", Kind: "TokenRequest"},
		Serve: func(c *apiserver.SubresourceCall) (int, meta.Object, error) {
			out, err := s.tokens.TokenRequest(c.Context, c.Namespace, c.Name, c.Body)
			return http.StatusCreated, out, err
		},
	})
}
