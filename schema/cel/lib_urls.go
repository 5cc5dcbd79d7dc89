package cel

import (
	"fmt"
	"net/url"
	"reflect"

	"github.com/google/cel-go/cel"
	"github.com/google/cel-go/common/types"
	"github.com/google/cel-go/common/types/ref"
)

// urlType is kube's kubernetes.URL.
var urlType = cel.ObjectType("kubernetes.URL")

// urlValue is a parsed URL (an absolute URI or an absolute path).
type urlValue struct{ u *url.URL }

func (v urlValue) ConvertToNative(t reflect.Type) (any, error) {
	if reflect.TypeOf(v.u).AssignableTo(t) {
		return v.u, nil
	}
	if reflect.TypeOf("").AssignableTo(t) {
		return v.u.String(), nil
	}
	return nil, fmt.Errorf("type conversion error from 'URL' to '%v'", t)
}

func (v urlValue) ConvertToType(t ref.Type) ref.Val {
	switch t {
	case urlType:
		return v
	case types.TypeType:
		return urlType
	}
	return types.NewErr("type conversion error from '%s' to '%s'", urlType, t)
}

func (v urlValue) Equal(other ref.Val) ref.Val {
	o, ok := other.(urlValue)
	if !ok {
		return types.MaybeNoSuchOverloadErr(other)
	}
	return types.Bool(v.u.String() == o.u.String())
}

func (v urlValue) Type() ref.Type { return urlType }
func (v urlValue) Value() any     { return v.u }

// urlsLib is kube's URL library: url(), isURL() and the parts of a URL.
//
//	url('https://example.com:80/p?q=1').getHost() == 'example.com:80'  isURL('/path')
func urlsLib() []cel.EnvOption {
	part := func(id string, get func(*url.URL) string) cel.FunctionOpt {
		return cel.MemberOverload(id, []*cel.Type{urlType}, cel.StringType, cel.UnaryBinding(func(v ref.Val) ref.Val {
			u, ok := v.Value().(*url.URL)
			if !ok {
				return types.MaybeNoSuchOverloadErr(v)
			}
			return types.String(get(u))
		}))
	}
	return []cel.EnvOption{
		cel.Function("url", cel.Overload("string_to_url", []*cel.Type{cel.StringType}, urlType,
			cel.UnaryBinding(func(v ref.Val) ref.Val {
				s, ok := v.Value().(string)
				if !ok {
					return types.MaybeNoSuchOverloadErr(v)
				}
				if _, err := url.ParseRequestURI(s); err != nil {
					return types.NewErr("URL parse error during conversion from string: %v", err)
				}
				u, err := url.Parse(s)
				if err != nil {
					return types.NewErr("URL parse error during conversion from string: %v", err)
				}
				return urlValue{u}
			}))),
		cel.Function("getScheme", part("url_get_scheme", func(u *url.URL) string { return u.Scheme })),
		cel.Function("getHost", part("url_get_host", func(u *url.URL) string { return u.Host })),
		cel.Function("getHostname", part("url_get_hostname", (*url.URL).Hostname)),
		cel.Function("getPort", part("url_get_port", (*url.URL).Port)),
		cel.Function("getEscapedPath", part("url_get_escaped_path", (*url.URL).EscapedPath)),
		cel.Function("getQuery", cel.MemberOverload("url_get_query", []*cel.Type{urlType},
			cel.MapType(cel.StringType, cel.ListType(cel.StringType)), cel.UnaryBinding(func(v ref.Val) ref.Val {
				u, ok := v.Value().(*url.URL)
				if !ok {
					return types.MaybeNoSuchOverloadErr(v)
				}
				out := map[ref.Val]ref.Val{}
				for k, vs := range u.Query() {
					out[types.String(k)] = types.NewStringList(types.DefaultTypeAdapter, vs)
				}
				return types.NewRefValMap(types.DefaultTypeAdapter, out)
			}))),
		cel.Function("isURL", cel.Overload("is_url_string", []*cel.Type{cel.StringType}, cel.BoolType,
			cel.UnaryBinding(func(v ref.Val) ref.Val {
				s, ok := v.Value().(string)
				if !ok {
					return types.MaybeNoSuchOverloadErr(v)
				}
				_, err := url.ParseRequestURI(s)
				return types.Bool(err == nil)
			}))),
	}
}
