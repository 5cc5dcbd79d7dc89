package cel

import (
	"encoding/base64"
	"fmt"
	"net/url"
	"reflect"
	"regexp"
	"strings"
	"time"

	"github.com/google/cel-go/cel"
	"github.com/google/cel-go/common/types"
	"github.com/google/cel-go/common/types/ref"

	"github.com/kapi-dev/kapi/schema"
	"github.com/kapi-dev/kapi/selectors"
)

// formatType is kube's kubernetes.NamedFormat.
var formatType = cel.ObjectType("kubernetes.NamedFormat")

// namedFormat is one of kube's named string formats.
type namedFormat struct {
	name     string
	validate func(string) []string
	// maxRegexSize bounds the cost of a validation.
	maxRegexSize int
}

func (f *namedFormat) ConvertToNative(t reflect.Type) (any, error) {
	return nil, fmt.Errorf("type conversion error from 'Format' to '%v'", t)
}

func (f *namedFormat) ConvertToType(t ref.Type) ref.Val {
	switch t {
	case formatType:
		return f
	case types.TypeType:
		return formatType
	}
	return types.NewErr("type conversion error from '%s' to '%s'", formatType, t)
}

func (f *namedFormat) Equal(other ref.Val) ref.Val {
	o, ok := other.(*namedFormat)
	if !ok {
		return types.MaybeNoSuchOverloadErr(other)
	}
	return types.Bool(f.name == o.name)
}

func (f *namedFormat) Type() ref.Type { return formatType }
func (f *namedFormat) Value() any     { return f }

// asPrefix checks a name prefix: a trailing '-' is allowed.
func asPrefix(check func(string) []string) func(string) []string {
	return func(s string) []string {
		if len(s) > 1 && strings.HasSuffix(s, "-") {
			s = s[:len(s)-1] + "a"
		}
		return check(s)
	}
}

var (
	uuidRE     = regexp.MustCompile(`(?i)^[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}$`)
	timeRE     = regexp.MustCompile(`^([0-9]{2}):([0-9]{2}):([0-9]{2})(.[0-9]+)?(z|([+-][0-9]{2}:[0-9]{2}))$`)
	dateTimeRE = len(`^([0-9]{2}):([0-9]{2}):([0-9]{2})(.[0-9]+)?(z|([+-][0-9]{2}:[0-9]{2}))$`)
)

// isDateTime is the OpenAPI date-time check: a full date, a "t", a time
// with a zone, case-insensitive.
func isDateTime(s string) bool {
	if len(s) < 4 {
		return false
	}
	parts := strings.Split(strings.ToLower(s), "t")
	if len(parts) < 2 {
		return false
	}
	if _, err := time.Parse(time.DateOnly, parts[0]); err != nil {
		return false
	}
	m := timeRE.FindStringSubmatch(parts[1])
	return m != nil && m[1] <= "23" && m[2] <= "59" && m[3] <= "59"
}

func failing(ok bool, msg string) []string {
	if ok {
		return nil
	}
	return []string{msg}
}

// namedFormats are format.named's names, with the zero-argument
// functions format.dns1123Label() and so on.
var namedFormats = map[string]*namedFormat{
	"dns1123Label":           {"DNS1123Label", schema.DNS1123Label, 30},
	"dns1123Subdomain":       {"DNS1123Subdomain", schema.DNS1123Subdomain, 60},
	"dns1035Label":           {"DNS1035Label", schema.DNS1035Label, 30},
	"qualifiedName":          {"QualifiedName", selectors.QualifiedNameErrors, 60},
	"dns1123LabelPrefix":     {"DNS1123LabelPrefix", asPrefix(schema.DNS1123Label), 30},
	"dns1123SubdomainPrefix": {"DNS1123SubdomainPrefix", asPrefix(schema.DNS1123Subdomain), 60},
	"dns1035LabelPrefix":     {"DNS1035LabelPrefix", asPrefix(schema.DNS1035Label), 30},
	"labelValue":             {"LabelValue", selectors.LabelValueErrors, 40},
	"uri": {"URI", func(s string) []string {
		if _, err := url.ParseRequestURI(s); err != nil {
			return []string{err.Error()}
		}
		return nil
	}, 1103},
	"uuid": {"uuid", func(s string) []string { return failing(uuidRE.MatchString(s), "does not match the UUID format") },
		len(uuidRE.String())},
	"byte": {"byte", func(s string) []string {
		_, err := base64.StdEncoding.DecodeString(s)
		return failing(err == nil, "invalid base64")
	}, 84},
	"date": {"date", func(s string) []string {
		_, err := time.Parse(time.DateOnly, s)
		return failing(err == nil, "invalid date")
	}, dateTimeRE},
	"datetime": {"datetime", func(s string) []string { return failing(isDateTime(s), "invalid datetime") }, dateTimeRE},
}

// formatLib is kube's format library: named string formats whose
// validate() returns optional.none() or the problems.
//
//	!format.dns1123Label().validate(self.name).hasValue()  format.named('uuid').value().validate(s)
func formatLib() []cel.EnvOption {
	opts := []cel.EnvOption{
		cel.Function("validate", cel.MemberOverload("format-validate", []*cel.Type{formatType, cel.StringType},
			cel.OptionalType(cel.ListType(cel.StringType)), cel.BinaryBinding(func(f, s ref.Val) ref.Val {
				nf, ok := f.(*namedFormat)
				if !ok {
					return types.MaybeNoSuchOverloadErr(f)
				}
				str, ok := s.Value().(string)
				if !ok {
					return types.MaybeNoSuchOverloadErr(s)
				}
				if problems := nf.validate(str); len(problems) > 0 {
					return types.OptionalOf(types.NewStringList(types.DefaultTypeAdapter, problems))
				}
				return types.OptionalNone
			}))),
		cel.Function("format.named", cel.Overload("format-named", []*cel.Type{cel.StringType},
			cel.OptionalType(formatType), cel.UnaryBinding(func(v ref.Val) ref.Val {
				name, ok := v.Value().(string)
				if !ok {
					return types.MaybeNoSuchOverloadErr(v)
				}
				if f, ok := namedFormats[name]; ok {
					return types.OptionalOf(f)
				}
				return types.OptionalNone
			}))),
	}
	for name, f := range namedFormats {
		fn := "format." + name
		opts = append(opts, cel.Function(fn, cel.Overload(fn, []*cel.Type{}, formatType,
			cel.FunctionBinding(func(...ref.Val) ref.Val { return f }))))
	}
	return opts
}
