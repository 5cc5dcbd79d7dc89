package cel

import (
	"fmt"
	"maps"
	"sort"

	"github.com/google/cel-go/cel"
	"github.com/google/cel-go/common/types"
	"github.com/google/cel-go/common/types/ref"

	"github.com/kapi-dev/kapi/schema"
)

// Size bounds kube uses to estimate how large data can be when a schema
// declares no maxLength, maxItems or maxProperties: a request is at most
// 3 MiB, and the smallest JSON encodings of each kind of value.
const (
	maxRequestSizeBytes = int64(3 * 1024 * 1024)
	maxDurationSizeJSON = 32
	maxDatetimeSizeJSON = 32
	minDurationSizeJSON = 3
	jsonDateSize        = 12
	minDatetimeSizeJSON = 21
	minStringSize       = 2
	minBoolSize         = 4
	minNumberSize       = 1
)

// declType is the CEL type a schema node has in a rule, with the size
// bounds the cost estimator uses, as kube derives it (its DeclType): an
// object with properties is a message type whose fields are the
// properties a rule can name, a map is map(string, V), an array a list.
type declType struct {
	name    string
	celType *types.Type
	// fields are an object's, by escaped name.
	fields map[string]*declType
	// elem is a list's item or a map's value type.
	elem *declType
	// isMap and isList tell the container kinds apart (objects have
	// fields, possibly none).
	isMap, isList, isObject bool
	// maxElements bounds a string's, bytes' or container's size.
	maxElements int64
	// minSize is the smallest JSON encoding of a value.
	minSize int64
}

func simpleType(name string, t *types.Type, minSize int64) *declType {
	return &declType{name: name, celType: t, minSize: minSize}
}

func listType(elem *declType, maxItems int64) *declType {
	return &declType{name: "list", celType: types.NewListType(elem.celType), elem: elem, isList: true,
		maxElements: maxItems, minSize: 2}
}

func mapType(elem *declType, maxProperties int64) *declType {
	return &declType{name: "map", celType: types.NewMapType(types.StringType, elem.celType), elem: elem,
		isMap: true, maxElements: maxProperties, minSize: 2}
}

func objectType(name string, fields map[string]*declType) *declType {
	return &declType{name: name, celType: types.NewObjectType(name), fields: fields, isObject: true, minSize: 2}
}

// typeOf is the CEL type of values of s; nil when a rule cannot see such
// values (no type, an array without items). root marks the root of a
// resource (the custom resource, or an embedded resource), whose
// apiVersion, kind and metadata.name and generateName are always visible.
func typeOf(s *schema.Schema, root bool) *declType {
	return typeOfIn(s, root, map[*schema.Schema]bool{})
}

// typeOfIn is typeOf with the nodes being typed above s: a schema that
// contains itself (a published schema may) is dyn below its first
// occurrence.
func typeOfIn(s *schema.Schema, root bool, inProgress map[*schema.Schema]bool) *declType {
	if s == nil {
		return nil
	}
	if inProgress[s] {
		t := simpleType("dyn", types.DynType, 1)
		t.maxElements = maxRequestSizeBytes - 2
		return t
	}
	inProgress[s] = true
	defer delete(inProgress, s)
	if s.XIntOrString {
		t := simpleType("dyn", types.DynType, 1)
		t.maxElements = maxRequestSizeBytes - 2
		return t
	}
	if root {
		s = withTypeAndObjectMeta(s)
	}
	switch s.Type {
	case "array":
		if s.Items == nil {
			return nil
		}
		items := typeOfIn(s.Items, s.Items.XEmbeddedResource, inProgress)
		if items == nil {
			return nil
		}
		var maxItems int64
		if s.MaxItems != nil {
			maxItems = max(*s.MaxItems, 0)
		} else {
			maxItems = (maxRequestSizeBytes - 2) / (items.minSize + 1)
		}
		return listType(items, maxItems)
	case "object":
		if ap := s.AdditionalPropertiesSchema(); ap != nil {
			vt := typeOfIn(ap, ap.XEmbeddedResource, inProgress)
			if vt == nil {
				return nil
			}
			var maxProps int64
			if s.MaxProperties != nil {
				maxProps = max(*s.MaxProperties, 0)
			} else {
				maxProps = (maxRequestSizeBytes - 2) / (vt.minSize + 6)
			}
			return mapType(vt, maxProps)
		}
		fields := make(map[string]*declType, len(s.Properties))
		minSize := int64(2)
		// (s may be a copy with the resource fields added: its property
		// names are read from the map, not the parsed node's sorted list.)
		for _, name := range sortedSchemaNames(s.Properties) {
			prop := s.Properties[name]
			ft := typeOfIn(prop, prop.XEmbeddedResource, inProgress)
			if ft == nil {
				continue
			}
			if escaped, ok := escapeName(name); ok {
				fields[escaped] = ft
			}
			if isRequired(s, name) && prop.DefaultValue == nil {
				minSize += int64(len(name)) + ft.minSize + 4
			}
		}
		t := objectType("object", fields)
		t.minSize = minSize
		return t
	case "string":
		switch s.Format {
		case "byte":
			t := simpleType("bytes", types.BytesType, minStringSize)
			if s.MaxLength != nil {
				t.maxElements = max(*s.MaxLength, 0)
			} else {
				t.maxElements = maxRequestSizeBytes - 2
			}
			return t
		case "duration":
			t := simpleType("duration", types.DurationType, minDurationSizeJSON)
			t.maxElements = maxDurationSizeJSON
			return t
		case "date":
			t := simpleType("timestamp", types.TimestampType, jsonDateSize)
			t.maxElements = jsonDateSize
			return t
		case "date-time":
			t := simpleType("timestamp", types.TimestampType, minDatetimeSizeJSON)
			t.maxElements = maxDatetimeSizeJSON
			return t
		}
		t := simpleType("string", types.StringType, minStringSize)
		switch {
		case s.MaxLength != nil:
			t.maxElements = max(*s.MaxLength, 0) * 4 // UTF-8: up to 4 bytes a character
		case len(s.Enum) > 0:
			for _, e := range s.Enum {
				if str, ok := e.(string); ok && int64(len(str)) > t.maxElements {
					t.maxElements = int64(len(str))
				}
			}
		default:
			t.maxElements = maxRequestSizeBytes - 2
		}
		return t
	case "boolean":
		return simpleType("bool", types.BoolType, minBoolSize)
	case "number":
		return simpleType("double", types.DoubleType, minNumberSize)
	case "integer":
		return simpleType("int", types.IntType, minNumberSize)
	}
	return nil
}

func isRequired(s *schema.Schema, name string) bool {
	for _, r := range s.Required {
		if r == name {
			return true
		}
	}
	return false
}

// withTypeAndObjectMeta is s with the fields every resource has (kind,
// apiVersion, metadata.name and metadata.generateName) declared, unless s
// declares them already.
func withTypeAndObjectMeta(s *schema.Schema) *schema.Schema {
	str := func(p *schema.Schema) bool { return p != nil && p.Type == "string" }
	if md := s.Properties["metadata"]; str(s.Properties["kind"]) && str(s.Properties["apiVersion"]) &&
		md != nil && md.Type == "object" && str(md.Properties["name"]) && str(md.Properties["generateName"]) {
		return s
	}
	out := *s
	out.Properties = maps.Clone(s.Properties)
	if out.Properties == nil {
		out.Properties = map[string]*schema.Schema{}
	}
	out.Properties["kind"] = &schema.Schema{Type: "string"}
	out.Properties["apiVersion"] = &schema.Schema{Type: "string"}
	out.Properties["metadata"] = &schema.Schema{Type: "object", Properties: map[string]*schema.Schema{
		"name": {Type: "string"}, "generateName": {Type: "string"},
	}}
	return &out
}

// named is t with its object types named from name, as kube names a
// rule's types ("selfType1.spec", "selfType1.spec.items.@idx"), so that
// they can be registered with the type provider.
func (t *declType) named(name string) *declType {
	switch {
	case t.isObject:
		if t.name != "object" {
			name = t.name
		}
		fields := make(map[string]*declType, len(t.fields))
		for fn, ft := range t.fields {
			fields[fn] = ft.named(name + "." + fn)
		}
		out := *t
		out.name, out.fields, out.celType = name, fields, types.NewObjectType(name)
		return &out
	case t.isMap:
		elem := t.elem.named(name + ".@elem")
		if elem == t.elem {
			return t
		}
		return mapType(elem, t.maxElements)
	case t.isList:
		elem := t.elem.named(name + ".@idx")
		if elem == t.elem {
			return t
		}
		return listType(elem, t.maxElements)
	}
	return t
}

// register adds t's object types, by name, to m.
func (t *declType) register(m map[string]*declType) {
	switch {
	case t.isObject:
		m[t.name] = t
		for _, ft := range t.fields {
			ft.register(m)
		}
	case t.isMap, t.isList:
		t.elem.register(m)
	}
}

// provider resolves the object types of rules over a base provider (the
// environment's): cel-go asks it for a message's fields while checking a
// rule.
type provider struct {
	types.Provider
	adapter types.Adapter
	objects map[string]*declType
}

var (
	_ types.Provider = (*provider)(nil)
	_ types.Adapter  = (*provider)(nil)
)

func newProvider(base types.Provider, roots ...*declType) *provider {
	p := &provider{Provider: base, adapter: types.DefaultTypeAdapter, objects: map[string]*declType{}}
	if a, ok := base.(types.Adapter); ok {
		p.adapter = a
	}
	for _, r := range roots {
		r.register(p.objects)
	}
	return p
}

func (p *provider) FindStructType(name string) (*types.Type, bool) {
	if t, ok := p.objects[name]; ok {
		return types.NewTypeTypeWithParam(t.celType), true
	}
	return p.Provider.FindStructType(name)
}

func (p *provider) FindStructFieldNames(name string) ([]string, bool) {
	if _, ok := p.objects[name]; ok {
		return []string{}, false
	}
	return p.Provider.FindStructFieldNames(name)
}

func (p *provider) FindStructFieldType(name, field string) (*types.FieldType, bool) {
	t, ok := p.objects[name]
	if !ok {
		return p.Provider.FindStructFieldType(name, field)
	}
	f, found := t.fields[field]
	if !found && celReserved[field] {
		f, found = t.fields["__"+field+"__"]
	}
	if !found {
		return nil, false
	}
	return &types.FieldType{Type: f.celType}, true
}

func (p *provider) NativeToValue(v any) ref.Val { return p.adapter.NativeToValue(v) }

// envOptions declares the provider to an environment.
func (p *provider) envOptions() []cel.EnvOption {
	return []cel.EnvOption{cel.CustomTypeProvider(p), cel.CustomTypeAdapter(p)}
}

func (t *declType) String() string { return fmt.Sprintf("%s(%s)", t.name, t.celType) }

func sortedSchemaNames(m map[string]*schema.Schema) []string {
	names := make([]string, 0, len(m))
	for k := range m {
		names = append(names, k)
	}
	sort.Strings(names)
	return names
}
