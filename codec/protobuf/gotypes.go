package protobuf

import (
	"fmt"
	"reflect"
	"sort"
	"strconv"
	"strings"

	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protodesc"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/types/descriptorpb"
)

// DescriptorsFromGoTypes builds message descriptors by reflection from Go
// structs whose fields carry `protobuf:"..."` and `json:"..."` tags, as the
// k8s.io/api types do, and returns them in the order of types (pointer
// types are dereferenced).
//
// Every struct reachable from types becomes a message named after its Go
// package path and type name, as go-to-protobuf names them ("k8s.io/api/
// core/v1".Pod is k8s.io.api.core.v1.Pod), in one proto2 file per Go
// package. Fields without a protobuf tag (TypeMeta) are not on the wire
// and are left out. The field's number and proto name come from the
// protobuf tag; its type from the Go type (the tag's wire type is ignored,
// as a few Kubernetes tags are wrong): strings, bools and integers map to
// string, bool and int32/int64/uint32/uint64 (zigzag32/64 and fixed32/64
// tags select sint and fixed encodings), float64/32 to double/float,
// []byte to bytes, slices to repeated fields, maps to proto maps, and a
// named slice type (ExtraValue []string) to a message {repeated items = 1}
// shown in JSON as the array itself. The types of k8s.io/apimachinery that
// the library defines (Time, MicroTime, Duration, FieldsV1, ObjectMeta,
// ListMeta, OwnerReference, ManagedFieldsEntry, Status, DeleteOptions,
// RawExtension, IntOrString, Quantity, ...; see BuiltinFiles) are
// recognised by import path and name and refer to the library's
// descriptors; nothing is imported.
//
// Each field's json_name records its JSON form (see the package
// documentation): the key and omitempty/omitzero from the json tag,
// "inline" for an embedded struct without a JSON name (VolumeSource), and
// "nonnull" for a field that is a value rather than a pointer.
func DescriptorsFromGoTypes(types ...reflect.Type) ([]protoreflect.MessageDescriptor, error) {
	b := &goBuilder{
		files: map[string]*goFile{},
		names: map[reflect.Type]protoreflect.FullName{},
	}
	names := make([]protoreflect.FullName, len(types))
	for i, t := range types {
		for t != nil && t.Kind() == reflect.Pointer {
			t = t.Elem()
		}
		if t == nil || t.Kind() != reflect.Struct {
			return nil, fmt.Errorf("protobuf: DescriptorsFromGoTypes: %v is not a struct type", types[i])
		}
		name, _, err := b.message(t)
		if err != nil {
			return nil, fmt.Errorf("protobuf: DescriptorsFromGoTypes: %w", err)
		}
		names[i] = name
	}
	reg := BuiltinFiles()
	if err := b.register(reg); err != nil {
		return nil, fmt.Errorf("protobuf: DescriptorsFromGoTypes: %w", err)
	}
	out := make([]protoreflect.MessageDescriptor, len(names))
	for i, name := range names {
		d, err := reg.FindDescriptorByName(name)
		if err != nil {
			return nil, fmt.Errorf("protobuf: DescriptorsFromGoTypes: %s: %w", name, err)
		}
		out[i] = d.(protoreflect.MessageDescriptor)
	}
	return out, nil
}

type goFile struct {
	fb      *fileBuilder
	goPath  string
	depends map[string]bool // proto packages of reflected files used
}

type goBuilder struct {
	files map[string]*goFile // by proto package
	names map[reflect.Type]protoreflect.FullName
}

// protoPackage is go-to-protobuf's package for a Go import path:
// "k8s.io/api/core/v1" -> "k8s.io.api.core.v1".
func protoPackage(goPath string) string {
	parts := strings.Split(goPath, "/")
	var out []string
	for _, p := range parts {
		for _, q := range strings.Split(p, ".") {
			out = append(out, identifier(q))
		}
	}
	return strings.Join(out, ".")
}

// identifier makes s a proto identifier.
func identifier(s string) string {
	b := []byte(s)
	for i, c := range b {
		if !(c == '_' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9') {
			b[i] = '_'
		}
	}
	if len(b) == 0 || ('0' <= b[0] && b[0] <= '9') {
		b = append([]byte{'_'}, b...)
	}
	return string(b)
}

// file returns the file of a Go package, creating it.
func (b *goBuilder) file(goPath string) *goFile {
	pkg := protoPackage(goPath)
	f := b.files[pkg]
	if f == nil {
		f = &goFile{fb: newFileBuilder(goPath+"/generated.proto", pkg), goPath: goPath, depends: map[string]bool{}}
		b.files[pkg] = f
	}
	return f
}

// message returns the full name of the message of struct (or named slice)
// type t, building it if needed, and the file that defines it ("" for the
// library's own).
func (b *goBuilder) message(t reflect.Type) (protoreflect.FullName, string, error) {
	if t.Name() != "" {
		if name, ok := goBuiltins[t.PkgPath()+"."+t.Name()]; ok {
			return name, builtinFileOf(name), nil
		}
	}
	if name, ok := b.names[t]; ok {
		return name, b.files[string(name.Parent())].fb.fd.GetName(), nil
	}
	if t.Name() == "" || t.PkgPath() == "" {
		return "", "", fmt.Errorf("%v: unnamed types cannot be messages", t)
	}
	f := b.file(t.PkgPath())
	name := protoreflect.FullName(f.fb.fd.GetPackage() + "." + identifier(t.Name()))
	b.names[t] = name
	m := f.fb.message(identifier(t.Name()))

	if t.Kind() == reflect.Slice {
		// A named slice: message {repeated items = 1}, JSON the array.
		fp, err := b.fieldType(f, m, t, 1, "items", "", true, false)
		if err != nil {
			return "", "", fmt.Errorf("%v: %w", t, err)
		}
		fp.JsonName = proto.String(",inline")
		m.Field = append(m.Field, fp)
		return name, f.fb.fd.GetName(), nil
	}
	if t.Kind() != reflect.Struct {
		return "", "", fmt.Errorf("%v: not a struct", t)
	}
	for i := 0; i < t.NumField(); i++ {
		sf := t.Field(i)
		ptag := sf.Tag.Get("protobuf")
		if ptag == "" || ptag == "-" {
			continue
		}
		fp, err := b.structField(f, m, sf, ptag)
		if err != nil {
			return "", "", fmt.Errorf("%v.%s: %w", t, sf.Name, err)
		}
		m.Field = append(m.Field, fp)
	}
	return name, f.fb.fd.GetName(), nil
}

func builtinFileOf(name protoreflect.FullName) string {
	switch name.Parent() {
	case runtimePkg:
		return runtimeFile
	case intstrPkg:
		return intstrFile
	case resourcePkg:
		return resourceFile
	}
	return metaFile
}

// protoTag is a parsed `protobuf:"wire,num,label,name=x,..."` tag.
type protoTag struct {
	wire  string
	num   int32
	label string
	name  string
}

func parseProtoTag(tag string) (protoTag, error) {
	parts := strings.Split(tag, ",")
	if len(parts) < 2 {
		return protoTag{}, fmt.Errorf("invalid protobuf tag %q", tag)
	}
	n, err := strconv.ParseInt(parts[1], 10, 32)
	if err != nil || n < 1 || n > int64(protoreflect.FieldNumber(1<<29-1)) {
		return protoTag{}, fmt.Errorf("invalid field number in protobuf tag %q", tag)
	}
	pt := protoTag{wire: parts[0], num: int32(n)}
	for _, p := range parts[2:] {
		switch {
		case p == "opt" || p == "rep" || p == "req":
			pt.label = p
		case strings.HasPrefix(p, "name="):
			pt.name = strings.TrimPrefix(p, "name=")
		}
	}
	return pt, nil
}

// lowerFirst is go-to-protobuf's field name for a tag without name=:
// "EphemeralContainerCommon" -> "ephemeralContainerCommon".
func lowerFirst(s string) string {
	if s != "" && 'A' <= s[0] && s[0] <= 'Z' {
		return string(s[0]+'a'-'A') + s[1:]
	}
	return s
}

func (b *goBuilder) structField(f *goFile, m *descriptorpb.DescriptorProto, sf reflect.StructField, ptag string) (*descriptorpb.FieldDescriptorProto, error) {
	pt, err := parseProtoTag(ptag)
	if err != nil {
		return nil, err
	}
	if pt.name == "" {
		pt.name = lowerFirst(sf.Name)
	}
	// JSON spec, with encoding/json's rules.
	jtag, hasJSON := sf.Tag.Lookup("json")
	jname, jopts, _ := strings.Cut(jtag, ",")
	ft := sf.Type
	ptr := ft.Kind() == reflect.Pointer
	if ptr {
		ft = ft.Elem()
	}
	var spec []string
	switch {
	case jtag == "-":
		spec = []string{"-"}
	case jname == "" && sf.Anonymous && ft.Kind() == reflect.Struct:
		spec = []string{"", "inline"}
	default:
		if jname == "" {
			jname = sf.Name
		}
		spec = []string{jname}
		if hasJSON {
			for _, o := range strings.Split(jopts, ",") {
				if o == "omitempty" || o == "omitzero" {
					spec = append(spec, o)
				}
			}
		}
	}
	isSlice := ft.Kind() == reflect.Slice && !isBytes(ft)
	if !ptr && !isSlice && ft.Kind() != reflect.Map && !isBytes(ft) && spec[0] != "-" {
		spec = append(spec, "nonnull")
	}
	// A named slice of structs (apiextensions' ValidationRules) is a
	// repeated field, as go-to-protobuf writes it; a named slice of
	// scalars (ExtraValue) a message of its own.
	repeated := isSlice && (ft.Name() == "" || isBuiltinNamed(ft) || structElem(ft))
	fp, err := b.fieldType(f, m, ft, pt.num, pt.name, pt.wire, repeated, true)
	if err != nil {
		return nil, err
	}
	fp.JsonName = proto.String(strings.Join(spec, ","))
	return fp, nil
}

func structElem(t reflect.Type) bool {
	e := t.Elem()
	if e.Kind() == reflect.Pointer {
		e = e.Elem()
	}
	return e.Kind() == reflect.Struct
}

func isBuiltinNamed(t reflect.Type) bool {
	_, ok := goBuiltins[t.PkgPath()+"."+t.Name()]
	return ok
}

func isBytes(t reflect.Type) bool {
	return t.Kind() == reflect.Slice && t.Elem().Kind() == reflect.Uint8
}

// fieldType makes the field for Go type t. repeated unrolls an unnamed
// slice into a repeated field; allowMap permits a map (not as a map value).
func (b *goBuilder) fieldType(f *goFile, m *descriptorpb.DescriptorProto, t reflect.Type, num int32, name, wire string, repeated, allowMap bool) (*descriptorpb.FieldDescriptorProto, error) {
	if repeated {
		et := t.Elem()
		if et.Kind() == reflect.Pointer {
			et = et.Elem()
		}
		if et.Kind() == reflect.Slice && !isBytes(et) && et.Name() == "" {
			return nil, fmt.Errorf("nested unnamed slices have no protobuf form")
		}
		fp, err := b.fieldType(f, m, et, num, name, wire, false, false)
		if err != nil {
			return nil, err
		}
		fp.Label = descriptorpb.FieldDescriptorProto_LABEL_REPEATED.Enum()
		return fp, nil
	}
	if t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch {
	case isBytes(t):
		return fieldProto(num, name, tBytes, "", false, ""), nil
	case t.Kind() == reflect.Map:
		if !allowMap {
			return nil, fmt.Errorf("maps of maps have no protobuf form")
		}
		kt, err := scalarType(t.Key(), "")
		if err != nil {
			return nil, fmt.Errorf("map key: %w", err)
		}
		entry := &descriptorpb.DescriptorProto{
			Name:    proto.String(mapEntryName(name)),
			Options: &descriptorpb.MessageOptions{MapEntry: proto.Bool(true)},
		}
		kf := fieldProto(1, "key", kt, "", false, "")
		vf, err := b.fieldType(f, m, t.Elem(), 2, "value", "", false, false)
		if err != nil {
			return nil, fmt.Errorf("map value: %w", err)
		}
		if vf.GetLabel() == descriptorpb.FieldDescriptorProto_LABEL_REPEATED {
			return nil, fmt.Errorf("map value: unnamed slices have no protobuf form in maps")
		}
		vf.JsonName = nil
		entry.Field = []*descriptorpb.FieldDescriptorProto{kf, vf}
		m.NestedType = append(m.NestedType, entry)
		return fieldProto(num, name, tMessage, f.fb.fd.GetPackage()+"."+m.GetName()+"."+entry.GetName(), true, ""), nil
	case t.Kind() == reflect.Struct || (t.Kind() == reflect.Slice && t.Name() != ""):
		mn, file, err := b.message(t)
		if err != nil {
			return nil, err
		}
		if file != f.fb.fd.GetName() {
			f.fb.depend(file)
			if pkg := string(mn.Parent()); b.files[pkg] != nil && file == b.files[pkg].fb.fd.GetName() {
				f.depends[pkg] = true
			}
		}
		return fieldProto(num, name, tMessage, string(mn), false, ""), nil
	case t.Kind() == reflect.Slice:
		return nil, fmt.Errorf("unnamed slice %v here has no protobuf form", t)
	}
	st, err := scalarType(t, wire)
	if err != nil {
		return nil, err
	}
	return fieldProto(num, name, st, "", false, ""), nil
}

// scalarType maps a Go scalar kind (and the tag's wire type, for the
// encoding of integers) to a proto type.
func scalarType(t reflect.Type, wire string) (descriptorpb.FieldDescriptorProto_Type, error) {
	type T = descriptorpb.FieldDescriptorProto_Type
	signed := func(bits int) T {
		switch {
		case wire == "zigzag32" || wire == "zigzag64":
			if bits == 32 {
				return descriptorpb.FieldDescriptorProto_TYPE_SINT32
			}
			return descriptorpb.FieldDescriptorProto_TYPE_SINT64
		case wire == "fixed32" && bits == 32:
			return descriptorpb.FieldDescriptorProto_TYPE_SFIXED32
		case wire == "fixed64" && bits == 64:
			return descriptorpb.FieldDescriptorProto_TYPE_SFIXED64
		case bits == 32:
			return tInt32
		}
		return tInt64
	}
	unsigned := func(bits int) T {
		switch {
		case wire == "fixed32" && bits == 32:
			return descriptorpb.FieldDescriptorProto_TYPE_FIXED32
		case wire == "fixed64" && bits == 64:
			return descriptorpb.FieldDescriptorProto_TYPE_FIXED64
		case bits == 32:
			return descriptorpb.FieldDescriptorProto_TYPE_UINT32
		}
		return descriptorpb.FieldDescriptorProto_TYPE_UINT64
	}
	switch t.Kind() {
	case reflect.String:
		return tString, nil
	case reflect.Bool:
		return tBool, nil
	case reflect.Int8, reflect.Int16, reflect.Int32:
		return signed(32), nil
	case reflect.Int, reflect.Int64:
		return signed(64), nil
	case reflect.Uint8, reflect.Uint16, reflect.Uint32:
		return unsigned(32), nil
	case reflect.Uint, reflect.Uint64, reflect.Uintptr:
		return unsigned(64), nil
	case reflect.Float32:
		return descriptorpb.FieldDescriptorProto_TYPE_FLOAT, nil
	case reflect.Float64:
		return descriptorpb.FieldDescriptorProto_TYPE_DOUBLE, nil
	}
	return 0, fmt.Errorf("Go type %v has no protobuf form", t)
}

// register builds the files, dependencies first, into reg.
func (b *goBuilder) register(reg interface {
	protodesc.Resolver
	RegisterFile(protoreflect.FileDescriptor) error
}) error {
	pkgs := make([]string, 0, len(b.files))
	for p := range b.files {
		pkgs = append(pkgs, p)
	}
	sort.Strings(pkgs)
	done := map[string]bool{}
	var visit func(p string, stack map[string]bool) error
	visit = func(p string, stack map[string]bool) error {
		if done[p] {
			return nil
		}
		if stack[p] {
			return fmt.Errorf("protobuf packages depend on each other in a cycle through %s", p)
		}
		stack[p] = true
		f := b.files[p]
		deps := make([]string, 0, len(f.depends))
		for d := range f.depends {
			deps = append(deps, d)
		}
		sort.Strings(deps)
		for _, d := range deps {
			if d != p {
				if err := visit(d, stack); err != nil {
					return err
				}
			}
		}
		delete(stack, p)
		fd, err := protodesc.NewFile(f.fb.fd, reg)
		if err != nil {
			return fmt.Errorf("%s: %w", f.goPath, err)
		}
		if err := reg.RegisterFile(fd); err != nil {
			return fmt.Errorf("%s: %w", f.goPath, err)
		}
		done[p] = true
		return nil
	}
	for _, p := range pkgs {
		if err := visit(p, map[string]bool{}); err != nil {
			return err
		}
	}
	return nil
}
