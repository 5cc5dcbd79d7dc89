// Package builtinproto holds the protobuf message descriptors of the kinds
// kube-apiserver serves (every built-in kind, its list, the scale,
// eviction and token subresources' kinds, APIService and
// CustomResourceDefinition) as data: a serialized FileDescriptorSet and an
// index from kind to message, embedded in the library. With it the
// protobuf codec understands the built-in kinds that clients send as
// protobuf (kubectl, client-go's typed clientsets, controller-runtime)
// with google.golang.org/protobuf alone: no k8s.io module is compiled in.
//
//	c := protobuf.New(builtinproto.Resolver())
//
// apiserver.New serves protobuf with it when Config.Codecs is nil.
//
// The data is generated from the k8s.io/api Go types by
// kapitest/kubeproto/protogen (codec/protobuf.DescriptorsFromGoTypes over
// kubeproto.Types), so the descriptors carry the JSON field specs the codec
// reads from json_name. Source names the module versions it came from. To
// regenerate it for a new Kubernetes release, raise k8s.io/api (and
// k8s.io/apiextensions-apiserver) in kapitest/go.mod, then, in kapitest:
//
//	go generate ./kubeproto
//	go test ./kubeproto
//
// The test holds the embedded descriptors equal, message by message, to
// those built from the Go types.
package builtinproto

import (
	"bytes"
	"compress/gzip"
	_ "embed"
	"encoding/json"
	"fmt"
	"io"
	"sync"

	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protodesc"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/types/descriptorpb"

	"github.com/kapi-dev/kapi/codec/protobuf"
	"github.com/kapi-dev/kapi/meta"
)

// descriptorSet is a gzipped FileDescriptorSet: the files of the
// k8s.io/api packages (and of kapitest/kubeproto's APIService mirror),
// dependencies first. They import the library's own files
// (protobuf.BuiltinFiles), which it does not repeat.
//
//go:embed descriptors.pb.gz
var descriptorSet []byte

// indexJSON maps each kind to its message, and says where the data came
// from.
//
//go:embed index.json
var indexJSON []byte

// Index is the form of index.json.
type Index struct {
	// Source lists the Go modules (path@version) the descriptors were
	// generated from.
	Source []string `json:"source"`
	// Kinds are the kinds served, each with the full name of its message.
	Kinds []Kind `json:"kinds"`
}

// Kind is one kind and its message.
type Kind struct {
	Group   string `json:"group,omitempty"`
	Version string `json:"version"`
	Kind    string `json:"kind"`
	Message string `json:"message"`
}

// GVK returns the kind's group, version and kind.
func (k Kind) GVK() meta.GroupVersionKind {
	return meta.GroupVersionKind{Group: k.Group, Version: k.Version, Kind: k.Kind}
}

var index = sync.OnceValues(func() (Index, error) {
	var ix Index
	if err := json.Unmarshal(indexJSON, &ix); err != nil {
		return Index{}, fmt.Errorf("builtinproto: index.json: %w", err)
	}
	return ix, nil
})

// Source returns the Go modules (path@version) the descriptors were
// generated from.
func Source() []string {
	ix, err := index()
	if err != nil {
		return nil
	}
	return ix.Source
}

// FileDescriptorSet returns the embedded descriptor files, dependencies
// first (without the library's own, protobuf.BuiltinFiles).
func FileDescriptorSet() (*descriptorpb.FileDescriptorSet, error) {
	zr, err := gzip.NewReader(bytes.NewReader(descriptorSet))
	if err != nil {
		return nil, fmt.Errorf("builtinproto: descriptors.pb.gz: %w", err)
	}
	raw, err := io.ReadAll(zr)
	if err != nil {
		return nil, fmt.Errorf("builtinproto: descriptors.pb.gz: %w", err)
	}
	set := &descriptorpb.FileDescriptorSet{}
	if err := proto.Unmarshal(raw, set); err != nil {
		return nil, fmt.Errorf("builtinproto: descriptors.pb.gz: %w", err)
	}
	return set, nil
}

var descriptors = sync.OnceValues(func() (map[meta.GroupVersionKind]protoreflect.MessageDescriptor, error) {
	ix, err := index()
	if err != nil {
		return nil, err
	}
	set, err := FileDescriptorSet()
	if err != nil {
		return nil, err
	}
	reg := protobuf.BuiltinFiles()
	for _, fp := range set.GetFile() {
		fd, err := protodesc.NewFile(fp, reg)
		if err != nil {
			return nil, fmt.Errorf("builtinproto: %s: %w", fp.GetName(), err)
		}
		if err := reg.RegisterFile(fd); err != nil {
			return nil, fmt.Errorf("builtinproto: %s: %w", fp.GetName(), err)
		}
	}
	out := make(map[meta.GroupVersionKind]protoreflect.MessageDescriptor, len(ix.Kinds))
	for _, k := range ix.Kinds {
		d, err := reg.FindDescriptorByName(protoreflect.FullName(k.Message))
		if err != nil {
			return nil, fmt.Errorf("builtinproto: %s: %w", k.Message, err)
		}
		md, ok := d.(protoreflect.MessageDescriptor)
		if !ok {
			return nil, fmt.Errorf("builtinproto: %s is not a message", k.Message)
		}
		out[k.GVK()] = md
	}
	return out, nil
})

// Descriptors returns the message descriptor of every kind in the index,
// read from the embedded data once (a few milliseconds).
func Descriptors() (map[meta.GroupVersionKind]protoreflect.MessageDescriptor, error) {
	return descriptors()
}

// Resolver returns a protobuf.TypeResolver over Descriptors, read on the
// first protobuf request rather than at start-up. It panics if the
// embedded data does not load (a broken build, covered by tests).
func Resolver() protobuf.TypeResolver {
	return func(gvk meta.GroupVersionKind) protoreflect.MessageDescriptor {
		mds, err := descriptors()
		if err != nil {
			panic(err)
		}
		return mds[gvk]
	}
}
