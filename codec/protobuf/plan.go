package protobuf

import (
	"fmt"
	"sort"
	"strings"
	"sync"

	"google.golang.org/protobuf/encoding/protowire"
	"google.golang.org/protobuf/reflect/protoreflect"
)

// special says how a message is represented in JSON when that is not a
// JSON object of its fields.
type special uint8

const (
	specNone            special = iota
	specTime                    // metav1.Time: RFC 3339 string, seconds
	specMicroTime               // metav1.MicroTime: RFC 3339 string, microseconds
	specDuration                // metav1.Duration: Go duration string
	specIntOrString             // intstr.IntOrString: number or string
	specQuantity                // resource.Quantity: string
	specRawExtension            // runtime.RawExtension: embedded JSON (or enveloped protobuf)
	specFieldsV1                // metav1.FieldsV1: embedded JSON
	specArray                   // a named slice (ExtraValue): the array of its one inline repeated field
	specSchemaOrBool            // apiextensions JSONSchemaPropsOrBool {allows=1, schema=2}: a schema or a bool
	specSchemaOrArray           // apiextensions JSONSchemaPropsOrArray {schema=1, jSONSchemas=2}: a schema or an array of them
	specSchemaOrStrings         // apiextensions JSONSchemaPropsOrStringArray {schema=1, property=2}: a schema or strings
)

var specialNames = map[protoreflect.FullName]special{
	nameTime:         specTime,
	nameMicroTime:    specMicroTime,
	nameDuration:     specDuration,
	nameIntOrString:  specIntOrString,
	nameQuantity:     specQuantity,
	nameQuantityVal:  specQuantity,
	nameRawExtension: specRawExtension,
	nameFieldsV1:     specFieldsV1,
	// A CRD schema's default, example and enum values: any JSON value,
	// held as JSON in raw, as FieldsV1.
	nameJSON:                       specFieldsV1,
	nameJSONSchemaPropsOrBool:      specSchemaOrBool,
	nameJSONSchemaPropsOrArray:     specSchemaOrArray,
	nameJSONSchemaPropsOrStringArr: specSchemaOrStrings,
}

// msgPlan is a message descriptor compiled for transcoding.
type msgPlan struct {
	name    protoreflect.FullName
	special special
	fields  []*fieldPlan // ascending field number
	dense   []*fieldPlan // by field number when numbers are small
	sparse  map[protowire.Number]*fieldPlan
	items   *fieldPlan // specArray: the repeated field
	merging bool       // has a field with merges set
}

func (p *msgPlan) field(n protowire.Number) *fieldPlan {
	if p.dense != nil {
		if int(n) < len(p.dense) {
			return p.dense[n]
		}
		return nil
	}
	return p.sparse[n]
}

// fieldPlan is one field compiled for transcoding.
type fieldPlan struct {
	index int
	num   protowire.Number
	name  string // proto name, for errors
	key   string // JSON key

	// JSON field spec, see doc.go.
	skipJSON  bool // "-"
	omitEmpty bool
	omitZero  bool
	inline    bool
	nonNull   bool

	kind     protoreflect.Kind
	wireType protowire.Type
	list     bool
	packed   bool // write repeated scalars packed
	isMap    bool
	merges   bool       // a message field whose occurrences merge
	msg      *msgPlan   // message fields and lists; map values
	mapKey   *fieldPlan // maps
	mapVal   *fieldPlan // maps
}

// omits reports whether an absent or empty field is left out of JSON.
func (f *fieldPlan) omits() bool { return f.omitEmpty || f.omitZero }

// jsonSpec is a parsed json_name: key[,option]...
type jsonSpec struct {
	key                                   string
	skip, omitEmpty, omitZero, inline, nn bool
}

func parseJSONSpec(s string) (jsonSpec, error) {
	if s == "-" {
		return jsonSpec{skip: true}, nil
	}
	key, opts, _ := strings.Cut(s, ",")
	js := jsonSpec{key: key}
	for opts != "" {
		var o string
		o, opts, _ = strings.Cut(opts, ",")
		switch o {
		case "omitempty":
			js.omitEmpty = true
		case "omitzero":
			js.omitZero = true
		case "inline":
			js.inline = true
		case "nonnull":
			js.nn = true
		case "", "string":
		default:
			return js, fmt.Errorf("unknown json_name option %q", o)
		}
	}
	if js.inline && js.key != "" {
		return js, fmt.Errorf("inline field with JSON key %q", js.key)
	}
	return js, nil
}

// planCache compiles descriptors once.
type planCache struct {
	mu    sync.Mutex
	plans sync.Map // protoreflect.MessageDescriptor -> *msgPlan
}

func (c *planCache) get(md protoreflect.MessageDescriptor) (*msgPlan, error) {
	if p, ok := c.plans.Load(md); ok {
		return p.(*msgPlan), nil
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if p, ok := c.plans.Load(md); ok {
		return p.(*msgPlan), nil
	}
	b := planBuilder{cache: c, building: map[protoreflect.MessageDescriptor]*msgPlan{}}
	p, err := b.message(md)
	if err != nil {
		return nil, err
	}
	for d, bp := range b.building {
		c.plans.Store(d, bp)
	}
	return p, nil
}

type planBuilder struct {
	cache    *planCache
	building map[protoreflect.MessageDescriptor]*msgPlan
}

func (b *planBuilder) message(md protoreflect.MessageDescriptor) (*msgPlan, error) {
	if p, ok := b.cache.plans.Load(md); ok {
		return p.(*msgPlan), nil
	}
	if p, ok := b.building[md]; ok {
		return p, nil
	}
	p := &msgPlan{name: md.FullName(), special: specialNames[md.FullName()]}
	b.building[md] = p
	fds := md.Fields()
	maxNum := protowire.Number(0)
	for i := 0; i < fds.Len(); i++ {
		fd := fds.Get(i)
		f, err := b.field(fd, i)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", fd.FullName(), err)
		}
		p.fields = append(p.fields, f)
		maxNum = max(maxNum, f.num)
	}
	sort.Slice(p.fields, func(i, j int) bool { return p.fields[i].num < p.fields[j].num })
	for i, f := range p.fields {
		f.index = i
	}
	if maxNum <= 1024 {
		p.dense = make([]*fieldPlan, maxNum+1)
		for _, f := range p.fields {
			p.dense[f.num] = f
		}
	} else {
		p.sparse = make(map[protowire.Number]*fieldPlan, len(p.fields))
		for _, f := range p.fields {
			p.sparse[f.num] = f
		}
	}
	for _, f := range p.fields {
		if f.kind == protoreflect.MessageKind && !f.list && !f.isMap && !f.skipJSON {
			// Whether f.msg merges depends on its special kind, known
			// now even for a plan still being built (set on creation).
			f.merges = mergesOnDuplicate(f.msg)
			p.merging = p.merging || f.merges
		}
	}
	if p.special == specNone && len(p.fields) == 1 && p.fields[0].inline && p.fields[0].list && !p.fields[0].isMap {
		p.special = specArray
		p.items = p.fields[0]
	}
	if p.special == specNone {
		for _, f := range p.fields {
			switch {
			case f.inline && f.list:
				return nil, fmt.Errorf("%s: field %s: an inline repeated field must be its message's only field", p.name, f.name)
			case f.inline && f.msg.special != specNone:
				return nil, fmt.Errorf("%s: field %s: inline field of special type %s", p.name, f.name, f.msg.name)
			}
		}
	}
	return p, nil
}

func (b *planBuilder) field(fd protoreflect.FieldDescriptor, i int) (*fieldPlan, error) {
	f := &fieldPlan{
		index: i,
		num:   fd.Number(),
		name:  string(fd.Name()),
		kind:  fd.Kind(),
		list:  fd.IsList(),
		isMap: fd.IsMap(),
	}
	if fd.HasJSONName() {
		js, err := parseJSONSpec(fd.JSONName())
		if err != nil {
			return nil, err
		}
		f.key, f.skipJSON, f.omitEmpty, f.omitZero, f.inline, f.nonNull = js.key, js.skip, js.omitEmpty, js.omitZero, js.inline, js.nn
	} else {
		// A descriptor without json_name: the proto name is the JSON key
		// and presence decides (proto2 semantics).
		f.key, f.omitEmpty = string(fd.Name()), true
	}
	if f.key == "" && !f.inline && !f.skipJSON {
		return nil, fmt.Errorf("empty JSON key")
	}
	if f.inline && f.kind != protoreflect.MessageKind && !f.list {
		return nil, fmt.Errorf("inline field is not a message or a repeated field")
	}
	if f.inline && f.isMap {
		return nil, fmt.Errorf("inline map field")
	}
	wt, err := wireTypeOf(f.kind)
	if err != nil {
		return nil, err
	}
	f.wireType = wt
	f.packed = fd.IsPacked()
	switch {
	case f.isMap:
		kp, err := b.entryField(fd.MapKey())
		if err != nil {
			return nil, err
		}
		vp, err := b.entryField(fd.MapValue())
		if err != nil {
			return nil, err
		}
		switch kp.kind {
		case protoreflect.StringKind, protoreflect.BoolKind,
			protoreflect.Int32Kind, protoreflect.Int64Kind, protoreflect.Sint32Kind, protoreflect.Sint64Kind,
			protoreflect.Uint32Kind, protoreflect.Uint64Kind, protoreflect.Fixed32Kind, protoreflect.Fixed64Kind,
			protoreflect.Sfixed32Kind, protoreflect.Sfixed64Kind:
		default:
			return nil, fmt.Errorf("unsupported map key kind %s", kp.kind)
		}
		f.mapKey, f.mapVal = kp, vp
		f.nonNull = false
	case f.kind == protoreflect.MessageKind:
		mp, err := b.message(fd.Message())
		if err != nil {
			return nil, err
		}
		f.msg = mp
	}
	if f.list || f.isMap || f.kind == protoreflect.BytesKind {
		f.nonNull = false // slices and maps are never "value" fields
	}
	return f, nil
}

// entryField compiles a map entry's key or value: like a repeated element,
// always written.
func (b *planBuilder) entryField(fd protoreflect.FieldDescriptor) (*fieldPlan, error) {
	f := &fieldPlan{num: fd.Number(), name: string(fd.Name()), kind: fd.Kind(), nonNull: true}
	wt, err := wireTypeOf(f.kind)
	if err != nil {
		return nil, err
	}
	f.wireType = wt
	if f.kind == protoreflect.MessageKind {
		mp, err := b.message(fd.Message())
		if err != nil {
			return nil, err
		}
		f.msg = mp
	}
	return f, nil
}

func wireTypeOf(k protoreflect.Kind) (protowire.Type, error) {
	switch k {
	case protoreflect.BoolKind, protoreflect.EnumKind,
		protoreflect.Int32Kind, protoreflect.Sint32Kind, protoreflect.Uint32Kind,
		protoreflect.Int64Kind, protoreflect.Sint64Kind, protoreflect.Uint64Kind:
		return protowire.VarintType, nil
	case protoreflect.Fixed32Kind, protoreflect.Sfixed32Kind, protoreflect.FloatKind:
		return protowire.Fixed32Type, nil
	case protoreflect.Fixed64Kind, protoreflect.Sfixed64Kind, protoreflect.DoubleKind:
		return protowire.Fixed64Type, nil
	case protoreflect.StringKind, protoreflect.BytesKind, protoreflect.MessageKind:
		return protowire.BytesType, nil
	}
	return 0, fmt.Errorf("unsupported field kind %s", k)
}

// listPlan is the plan of an XList: metadata=1 ListMeta, items=2 repeated X.
func listPlan(listMeta, item *msgPlan) *msgPlan {
	p := &msgPlan{name: item.name + "List"}
	p.fields = []*fieldPlan{
		{index: 0, num: 1, name: "metadata", key: "metadata", omitEmpty: true, nonNull: true,
			kind: protoreflect.MessageKind, wireType: protowire.BytesType, msg: listMeta},
		{index: 1, num: 2, name: "items", key: "items",
			kind: protoreflect.MessageKind, wireType: protowire.BytesType, list: true, msg: item},
	}
	p.dense = []*fieldPlan{nil, p.fields[0], p.fields[1]}
	return p
}
