// Command protogen writes the protobuf message descriptors of the built-in
// kinds that the library embeds (codec/protobuf/builtinproto): it builds
// them from the k8s.io/api Go types of kubeproto.Types with
// codec/protobuf.DescriptorsFromGoTypes and writes
//
//   - descriptors.pb.gz: a gzipped FileDescriptorSet of every file those
//     messages need, dependencies first, less the library's own files
//     (protobuf.BuiltinFiles), which they import;
//   - index.json: each kind with the full name of its message, and the
//     versions of the modules the types came from (this module's go.mod
//     chooses them).
//
// For a new Kubernetes release, raise k8s.io/api and
// k8s.io/apiextensions-apiserver in kapitest/go.mod, then run it from the
// kapitest module (go generate in kapitest/kubeproto does) and the tests
// of kapitest/kubeproto, which hold the data equal to the Go types:
//
//	go run ./kubeproto/protogen -out ../codec/protobuf/builtinproto
package main

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"runtime/debug"
	"sort"
	"strings"

	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protodesc"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/types/descriptorpb"

	"github.com/kapi-dev/kapi/codec/protobuf/builtinproto"
	"github.com/kapi-dev/kapi/kapitest/kubeproto"
)

// sourceModules are the modules whose Go types the descriptors describe.
var sourceModules = []string{"k8s.io/api", "k8s.io/apiextensions-apiserver", "k8s.io/apimachinery"}

func main() {
	out := flag.String("out", "../codec/protobuf/builtinproto", "the directory to write descriptors.pb.gz and index.json to")
	flag.Parse()
	if err := run(*out); err != nil {
		fmt.Fprintln(os.Stderr, "protogen:", err)
		os.Exit(1)
	}
}

func run(out string) error {
	mds, err := kubeproto.FromGoTypes()
	if err != nil {
		return err
	}
	var ix builtinproto.Index
	if ix.Source, err = sources(); err != nil {
		return err
	}
	for gvk, md := range mds {
		ix.Kinds = append(ix.Kinds, builtinproto.Kind{Group: gvk.Group, Version: gvk.Version, Kind: gvk.Kind, Message: string(md.FullName())})
	}
	sort.Slice(ix.Kinds, func(i, j int) bool {
		a, b := ix.Kinds[i], ix.Kinds[j]
		if a.Group != b.Group {
			return a.Group < b.Group
		}
		if a.Version != b.Version {
			return a.Version < b.Version
		}
		return a.Kind < b.Kind
	})
	set := &descriptorpb.FileDescriptorSet{}
	done := map[string]bool{}
	var visit func(fd protoreflect.FileDescriptor)
	visit = func(fd protoreflect.FileDescriptor) {
		if done[fd.Path()] || strings.HasPrefix(fd.Path(), "kapi/builtin/") {
			return
		}
		done[fd.Path()] = true
		imports := fd.Imports()
		for i := 0; i < imports.Len(); i++ {
			visit(imports.Get(i).FileDescriptor)
		}
		set.File = append(set.File, protodesc.ToFileDescriptorProto(fd))
	}
	for _, k := range ix.Kinds {
		visit(mds[k.GVK()].ParentFile())
	}
	raw, err := proto.MarshalOptions{Deterministic: true}.Marshal(set)
	if err != nil {
		return err
	}
	var gz bytes.Buffer
	zw, err := gzip.NewWriterLevel(&gz, gzip.BestCompression)
	if err != nil {
		return err
	}
	if _, err := zw.Write(raw); err != nil {
		return err
	}
	if err := zw.Close(); err != nil {
		return err
	}
	js, err := json.MarshalIndent(ix, "", " ")
	if err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(out, "descriptors.pb.gz"), gz.Bytes(), 0o644); err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(out, "index.json"), append(js, '\n'), 0o644)
}

// sources returns path@version of each of sourceModules, as this build
// (this module's go.mod) has them.
func sources() ([]string, error) {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return nil, fmt.Errorf("no build information: run it with go run from the kapitest module")
	}
	var out []string
	for _, want := range sourceModules {
		for _, d := range bi.Deps {
			if d.Path != want {
				continue
			}
			if d.Replace != nil {
				d = d.Replace
			}
			out = append(out, want+"@"+d.Version)
		}
	}
	return out, nil
}
