package protobuf

import (
	"encoding/json"
	"reflect"
	"testing"

	"google.golang.org/protobuf/reflect/protoreflect"

	"github.com/kapi-dev/kapi/meta"
)

type tInner struct {
	Medium string `json:"medium,omitempty" protobuf:"bytes,1,opt,name=medium"`
}

type tSource struct {
	EmptyDir *tInner `json:"emptyDir,omitempty" protobuf:"bytes,1,opt,name=emptyDir"`
	Path     *string `json:"path,omitempty" protobuf:"bytes,2,opt,name=path"`
}

type tStrings []string

type tTypeMeta struct {
	Kind string `json:"kind,omitempty"`
}

type tThing struct {
	tTypeMeta `json:",inline"`
	Name      string            `json:"name" protobuf:"bytes,1,opt,name=name"`
	Count     int32             `json:"count,omitempty" protobuf:"varint,2,opt,name=count"`
	Replicas  *int32            `json:"replicas,omitempty" protobuf:"varint,3,opt,name=replicas"`
	Tags      []string          `json:"tags" protobuf:"bytes,4,rep,name=tags"`
	Labels    map[string]string `json:"labels,omitempty" protobuf:"bytes,5,rep,name=labels"`
	Data      []byte            `json:"data,omitempty" protobuf:"bytes,6,opt,name=data"`
	tSource   `json:"" protobuf:"bytes,7,opt,name=source"`
	Extra     map[string]tStrings `json:"extra,omitempty" protobuf:"bytes,8,rep,name=extra"`
	Verbs     tStrings            `json:"verbs" protobuf:"bytes,9,opt,name=verbs"`
	Children  []tThing            `json:"children,omitempty" protobuf:"bytes,10,rep,name=children"`
	Ratio     float64             `json:"ratio,omitempty" protobuf:"fixed64,11,opt,name=ratio"`
	Z         int64               `json:"z,omitempty" protobuf:"zigzag64,12,opt,name=z"`
	Ints      []int64             `json:"ints,omitempty" protobuf:"varint,13,rep,name=ints"`
	Flag      bool                `json:"flag" protobuf:"varint,14,opt,name=flag"`
	Counts    map[int32]string    `json:"counts,omitempty" protobuf:"bytes,15,rep,name=counts"`
	Bins      map[string][]byte   `json:"bins,omitempty" protobuf:"bytes,16,rep,name=bins"`
	Skipped   string              `json:"skipped,omitempty"`
	U         uint32              `json:"u,omitempty" protobuf:"varint,17,opt,name=u"`
	Noname    string              `json:"noname,omitempty" protobuf:"bytes,18,opt"`
	Pointer   *tInner             `json:"pointer" protobuf:"bytes,19,opt,name=pointer"`
	Inner     tInner              `json:"inner" protobuf:"bytes,20,opt,name=inner"`
}

func thingCodec(t *testing.T) (*Codec, protoreflect.MessageDescriptor) {
	t.Helper()
	mds, err := DescriptorsFromGoTypes(reflect.TypeOf(&tThing{}))
	if err != nil {
		t.Fatal(err)
	}
	md := mds[0]
	return New(func(gvk meta.GroupVersionKind) protoreflect.MessageDescriptor {
		if gvk.Kind == "Thing" {
			return md
		}
		return nil
	}), md
}

func TestDescriptorsFromGoTypes(t *testing.T) {
	_, md := thingCodec(t)
	if md.FullName() != "github.com.kapi_dev.kapi.codec.protobuf.tThing" {
		t.Fatalf("full name %s", md.FullName())
	}
	if p := md.ParentFile().Path(); p != "github.com/kapi-dev/kapi/codec/protobuf/generated.proto" {
		t.Fatalf("file %s", p)
	}
	wantJSON := map[string]string{
		"name": "name,nonnull", "count": "count,omitempty,nonnull", "replicas": "replicas,omitempty",
		"tags": "tags", "labels": "labels,omitempty", "data": "data,omitempty", "source": ",inline,nonnull",
		"extra": "extra,omitempty", "verbs": "verbs", "children": "children,omitempty",
		"ratio": "ratio,omitempty,nonnull", "flag": "flag,nonnull", "noname": "noname,omitempty,nonnull",
		"pointer": "pointer", "inner": "inner,nonnull",
	}
	for name, want := range wantJSON {
		fd := md.Fields().ByName(protoreflect.Name(name))
		if fd == nil {
			t.Errorf("no field %s", name)
			continue
		}
		if fd.JSONName() != want {
			t.Errorf("%s: json_name %q, want %q", name, fd.JSONName(), want)
		}
	}
	check := func(name string, kind protoreflect.Kind, card protoreflect.Cardinality) {
		t.Helper()
		fd := md.Fields().ByName(protoreflect.Name(name))
		if fd.Kind() != kind || fd.Cardinality() != card {
			t.Errorf("%s: %s %s", name, fd.Cardinality(), fd.Kind())
		}
	}
	check("ratio", protoreflect.DoubleKind, protoreflect.Optional)
	check("z", protoreflect.Sint64Kind, protoreflect.Optional)
	check("ints", protoreflect.Int64Kind, protoreflect.Repeated)
	check("u", protoreflect.Uint32Kind, protoreflect.Optional)
	check("data", protoreflect.BytesKind, protoreflect.Optional)
	check("children", protoreflect.MessageKind, protoreflect.Repeated)
	if fd := md.Fields().ByName("counts"); !fd.IsMap() || fd.MapKey().Kind() != protoreflect.Int32Kind || fd.Message().Name() != "CountsEntry" {
		t.Errorf("counts: %v", fd)
	}
	if fd := md.Fields().ByName("extra"); fd.MapValue().Message().FullName() != "github.com.kapi_dev.kapi.codec.protobuf.tStrings" {
		t.Errorf("extra value: %v", fd.MapValue().Message().FullName())
	}
	if fd := md.Fields().ByName("verbs").Message().Fields().Get(0); fd.Name() != "items" || !fd.IsList() || fd.JSONName() != ",inline" {
		t.Errorf("tStrings: %v", fd)
	}
	if md.Fields().ByNumber(1).Name() != "name" || md.Fields().Len() != 20 {
		t.Errorf("fields: %d", md.Fields().Len())
	}
}

// TestGoTypesAgainstJSON checks the zero-value policy against the oracle:
// decoding gives json.Marshal of the Go value.
func TestGoTypesAgainstJSON(t *testing.T) {
	c, _ := thingCodec(t)
	path := "/p"
	three := int32(0)
	values := []tThing{
		{},
		{
			Name: "n", Count: 2, Replicas: &three, Tags: []string{"a", ""}, Labels: map[string]string{"k": "v", "": ""},
			Data: []byte{0, 1, 2}, tSource: tSource{EmptyDir: &tInner{}, Path: &path},
			Extra: map[string]tStrings{"a": {"x", "y"}, "b": {}}, Verbs: tStrings{"get"},
			Children: []tThing{{Name: "c"}, {Count: 1, Verbs: tStrings{}}},
			Ratio:    -1.5, Z: -7, Ints: []int64{-1, 0, 1 << 40}, Flag: true,
			Counts: map[int32]string{-3: "m", 4: "f"}, Bins: map[string][]byte{"e": {}, "n": nil, "x": {0xff}},
			Skipped: "dropped", U: 1 << 31, Noname: "x", Pointer: &tInner{Medium: "m"}, Inner: tInner{Medium: "i"},
		},
	}
	for _, v := range values {
		v.Kind = "Thing"
		j, err := json.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		want := obj(t, string(j))
		want["apiVersion"] = "example.com/v1"
		delete(want, "skipped") // not on the wire
		pb, err := c.Encode(want)
		if err != nil {
			t.Fatal(err)
		}
		d, err := c.Decode(pb)
		if err != nil {
			t.Fatal(err)
		}
		if jsonString(d.Object) != jsonString(want) {
			t.Errorf("\n got %s\nwant %s", jsonString(d.Object), jsonString(want))
		}
	}
}

func TestDescriptorsFromGoTypesErrors(t *testing.T) {
	type withInterface struct {
		X any `protobuf:"bytes,1,opt,name=x"`
	}
	type withMapOfMaps struct {
		X map[string]map[string]string `protobuf:"bytes,1,rep,name=x"`
	}
	type badTag struct {
		X string `protobuf:"bytes,x,opt,name=x"`
	}
	type anonymous struct {
		X struct{ A string } `protobuf:"bytes,1,opt,name=x"`
	}
	for _, typ := range []reflect.Type{
		reflect.TypeOf(0), reflect.TypeOf(withInterface{}), reflect.TypeOf(withMapOfMaps{}),
		reflect.TypeOf(badTag{}), reflect.TypeOf(anonymous{}), nil,
	} {
		if _, err := DescriptorsFromGoTypes(typ); err == nil {
			t.Errorf("DescriptorsFromGoTypes(%v) succeeded", typ)
		}
	}
}

func TestBuiltinFiles(t *testing.T) {
	reg := BuiltinFiles()
	for _, name := range []string{nameTime, nameObjectMeta, nameStatus, nameDeleteOptions, nameWatchEvent,
		nameIntOrString, nameQuantity, nameRawExtension, runtimePkg + ".Unknown", namePartialList} {
		if _, err := reg.FindDescriptorByName(protoreflect.FullName(name)); err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
	// Every built-in message compiles into a plan.
	c := New(nil)
	reg.RangeFiles(func(fd protoreflect.FileDescriptor) bool {
		for i := 0; i < fd.Messages().Len(); i++ {
			if _, err := c.plans.get(fd.Messages().Get(i)); err != nil {
				t.Errorf("%s: %v", fd.Messages().Get(i).FullName(), err)
			}
		}
		return true
	})
}
