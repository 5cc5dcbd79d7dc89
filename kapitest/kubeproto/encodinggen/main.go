// Command encodinggen writes, from the k8s.io/api Go types of every
// built-in kind (kubeproto.Types), what kube's JSON encoding of those types
// does that their OpenAPI schemas do not say, for apiserver/builtin
// (data, not code):
//
//   - "omit": the fields dropped when they hold their zero value: omitempty
//     strings, numbers, booleans, slices and maps that are values, not
//     pointers (a pointer field keeps an explicit false or 0);
//   - "null": the fields always encoded, as null when unset: timestamps
//     that are values (the creationTimestamp of a pod template's
//     metadata), and slices, maps and pointers without omitempty (a
//     ClusterRole's rules).
//
// Each is listed by OpenAPI component name, as in kube's /openapi/v3
// documents. Run it from the kapitest module (go generate in
// kapitest/kubeproto does):
//
//	go run ./kubeproto/encodinggen -out ../apiserver/builtin/encoding.json
package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"reflect"
	"sort"
	"strings"

	"github.com/kapi-dev/kapi/kapitest/kubeproto"
)

type facts struct {
	Omit []string `json:"omit,omitempty"`
	Null []string `json:"null,omitempty"`
}

func main() {
	out := flag.String("out", "../apiserver/builtin/encoding.json", "the file to write")
	flag.Parse()
	all := map[string]*facts{}
	seen := map[reflect.Type]bool{}
	var types []reflect.Type
	for _, v := range kubeproto.Types {
		types = append(types, reflect.TypeOf(v).Elem())
	}
	sort.Slice(types, func(i, j int) bool { return types[i].String() < types[j].String() })
	for _, t := range types {
		visit(t, all, seen)
	}
	for name, f := range all {
		if len(f.Omit) == 0 && len(f.Null) == 0 {
			delete(all, name)
			continue
		}
		sort.Strings(f.Omit)
		sort.Strings(f.Null)
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetIndent("", " ")
	if err := enc.Encode(all); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	if err := os.WriteFile(*out, buf.Bytes(), 0o644); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}

var marshaler = reflect.TypeOf((*json.Marshaler)(nil)).Elem()

// leaf reports whether a type encodes itself (Time, Quantity,
// IntOrString, RawExtension...): nothing inside it is listed.
func leaf(t reflect.Type) bool {
	return t.Implements(marshaler) || reflect.PointerTo(t).Implements(marshaler)
}

// isTime reports whether t is metav1.Time or MicroTime.
func isTime(t reflect.Type) bool {
	return t.PkgPath() == "k8s.io/apimachinery/pkg/apis/meta/v1" && (t.Name() == "Time" || t.Name() == "MicroTime")
}

// component is the OpenAPI component name of a Go struct type.
func component(t reflect.Type) string {
	p := t.PkgPath()
	switch {
	case strings.HasPrefix(p, "k8s.io/"):
		return "io.k8s." + strings.ReplaceAll(strings.TrimPrefix(p, "k8s.io/"), "/", ".") + "." + t.Name()
	case strings.HasSuffix(p, "/kubeproto"): // the APIService mirror
		return "io.k8s.kube-aggregator.pkg.apis.apiregistration.v1." + t.Name()
	}
	return p + "." + t.Name()
}

func visit(t reflect.Type, all map[string]*facts, seen map[reflect.Type]bool) {
	for t.Kind() == reflect.Pointer || t.Kind() == reflect.Slice || t.Kind() == reflect.Map || t.Kind() == reflect.Array {
		t = t.Elem()
	}
	if t.Kind() != reflect.Struct || seen[t] || leaf(t) {
		return
	}
	seen[t] = true
	f := &facts{}
	all[component(t)] = f
	fields(t, f, all, seen)
}

// fields lists t's JSON fields into f, flattening inline structs.
func fields(t reflect.Type, f *facts, all map[string]*facts, seen map[reflect.Type]bool) {
	for i := 0; i < t.NumField(); i++ {
		sf := t.Field(i)
		tag := sf.Tag.Get("json")
		if tag == "-" || (!sf.IsExported() && !sf.Anonymous) {
			continue
		}
		name, opts, _ := strings.Cut(tag, ",")
		if sf.Anonymous && name == "" {
			ft := sf.Type
			if ft.Kind() == reflect.Pointer {
				ft = ft.Elem()
			}
			if ft.Kind() == reflect.Struct && !leaf(ft) {
				fields(ft, f, all, seen) // inline (TypeMeta, VolumeSource...)
				continue
			}
		}
		if name == "" {
			name = sf.Name
		}
		omitempty := strings.Contains(","+opts+",", ",omitempty,")
		ft := sf.Type
		switch ft.Kind() {
		case reflect.String, reflect.Bool, reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
			reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Float32, reflect.Float64:
			if omitempty {
				f.Omit = append(f.Omit, name)
			}
		case reflect.Slice, reflect.Map:
			if omitempty {
				f.Omit = append(f.Omit, name)
			} else {
				f.Null = append(f.Null, name)
			}
		case reflect.Pointer, reflect.Interface:
			if !omitempty {
				f.Null = append(f.Null, name)
			}
		case reflect.Struct:
			if isTime(ft) {
				f.Null = append(f.Null, name)
			}
		}
		visit(ft, all, seen)
	}
}
