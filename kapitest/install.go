package kapitest

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"net/http"
	"net/http/httptest"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	utilyaml "k8s.io/apimachinery/pkg/util/yaml"
	clientscheme "k8s.io/client-go/kubernetes/scheme"

	"github.com/kapi-dev/kapi/apiserver"
)

// source yields objects (CRDs or objects to seed).
type source interface {
	read(scheme *runtime.Scheme) ([]doc, error)
}

// doc is one object read from a source: JSON-shaped, shared with the
// decoding cache (never changed), with the SHA-256 of its JSON encoding
// when known (computed once for documents decoded from YAML or JSON).
type doc struct {
	obj    map[string]any
	sum    [32]byte
	hasSum bool
}

func (d doc) digest() ([32]byte, error) {
	if d.hasSum {
		return d.sum, nil
	}
	b, err := json.Marshal(d.obj)
	if err != nil {
		return [32]byte{}, err
	}
	return sha256.Sum256(b), nil
}

// objects returns the objects of docs.
func objects(docs []doc) []map[string]any {
	out := make([]map[string]any, len(docs))
	for i, d := range docs {
		out[i] = d.obj
	}
	return out
}

// objectsSource is objects given in Go.
type objectsSource []any

func (src objectsSource) read(scheme *runtime.Scheme) ([]doc, error) {
	var out []doc
	for _, o := range src {
		switch v := o.(type) {
		case nil:
			return nil, errors.New("a nil object")
		case []byte:
			docs, err := decodeDocuments(v, "an object given as bytes")
			if err != nil {
				return nil, err
			}
			out = append(out, docs...)
		case string:
			docs, err := decodeDocuments([]byte(v), "an object given as a string")
			if err != nil {
				return nil, err
			}
			out = append(out, docs...)
		case map[string]any:
			out = append(out, doc{obj: v})
		case *unstructured.Unstructured:
			out = append(out, doc{obj: v.Object})
		case runtime.Object:
			m, err := runtime.DefaultUnstructuredConverter.ToUnstructured(v)
			if err != nil {
				return nil, fmt.Errorf("%T: %w", v, err)
			}
			if m["kind"] == nil || m["apiVersion"] == nil {
				gvk, err := kindOf(v, scheme)
				if err != nil {
					return nil, err
				}
				m["apiVersion"], m["kind"] = gvk.GroupVersion().String(), gvk.Kind
			}
			out = append(out, doc{obj: m})
		default:
			return nil, fmt.Errorf("%T is not an object kapitest can read (a runtime.Object, map[string]any, YAML or JSON)", o)
		}
	}
	return out, nil
}

// kindOf finds the kind of a typed object in scheme or client-go's.
func kindOf(obj runtime.Object, scheme *runtime.Scheme) (schema.GroupVersionKind, error) {
	if isCRD(obj) {
		return schema.GroupVersionKind{Group: "apiextensions.k8s.io", Version: "v1", Kind: "CustomResourceDefinition"}, nil
	}
	for _, s := range []*runtime.Scheme{scheme, clientscheme.Scheme} {
		if s == nil {
			continue
		}
		if gvks, _, err := s.ObjectKinds(obj); err == nil && len(gvks) > 0 {
			return gvks[0], nil
		}
	}
	return schema.GroupVersionKind{}, fmt.Errorf("%T: its kind is unknown: set its TypeMeta, or pass its scheme with kapitest.WithScheme", obj)
}

// isCRD recognises apiextensions' CustomResourceDefinition types (v1 or
// v1beta1) without importing them.
func isCRD(obj runtime.Object) bool {
	t := fmt.Sprintf("%T", obj)
	return strings.HasSuffix(t, ".CustomResourceDefinition") && strings.Contains(t, "v1")
}

// pathsSource is files and directories.
type pathsSource struct {
	fsys  fs.FS
	paths []string
	// all keeps every document; otherwise only CRDs.
	all bool
}

func (src pathsSource) read(*runtime.Scheme) ([]doc, error) {
	var out []doc
	for _, p := range src.paths {
		files, err := filesAt(src.fsys, p)
		if err != nil {
			return nil, err
		}
		for _, f := range files {
			b, err := fs.ReadFile(src.fsys, f)
			if err != nil {
				return nil, err
			}
			docs, err := decodeDocuments(b, f)
			if err != nil {
				return nil, err
			}
			for _, d := range docs {
				if src.all || d.obj["kind"] == "CustomResourceDefinition" {
					out = append(out, d)
				}
			}
		}
	}
	return out, nil
}

// filesAt lists p if it is a file, or the YAML and JSON files directly in
// it if it is a directory, in name order.
func filesAt(fsys fs.FS, p string) ([]string, error) {
	if _, ok := fsys.(osFS); !ok {
		p = path.Clean(filepath.ToSlash(p))
	}
	info, err := fs.Stat(fsys, p)
	if err != nil {
		return nil, err
	}
	if !info.IsDir() {
		return []string{p}, nil
	}
	entries, err := fs.ReadDir(fsys, p)
	if err != nil {
		return nil, err
	}
	var files []string
	for _, e := range entries {
		switch strings.ToLower(path.Ext(e.Name())) {
		case ".yaml", ".yml", ".json":
			if !e.IsDir() {
				if _, ok := fsys.(osFS); ok {
					files = append(files, filepath.Join(p, e.Name()))
				} else {
					files = append(files, path.Join(p, e.Name()))
				}
			}
		}
	}
	slices.Sort(files)
	return files, nil
}

// decoded caches decodeDocuments by content: a suite's tests read the same
// files and strings again and again, and YAML decoding would otherwise
// cost more than starting the server. The documents are shared and never
// changed.
var decoded sync.Map // string → []doc

// decodeDocuments reads every YAML or JSON document of b, skipping empty
// ones and expanding lists (kind: List, or any kind ending in List with
// items).
func decodeDocuments(b []byte, name string) ([]doc, error) {
	if v, ok := decoded.Load(string(b)); ok {
		return v.([]doc), nil
	}
	docs, err := decodeUncached(b, name)
	if err != nil {
		return nil, err
	}
	decoded.Store(string(b), docs)
	return docs, nil
}

func decodeUncached(b []byte, name string) ([]doc, error) {
	dec := utilyaml.NewYAMLOrJSONDecoder(bytes.NewReader(b), 4096)
	var objs []map[string]any
	for i := 1; ; i++ {
		var m map[string]any
		err := dec.Decode(&m)
		if errors.Is(err, io.EOF) {
			out := make([]doc, len(objs))
			for i, o := range objs {
				b, err := json.Marshal(o)
				if err != nil {
					return nil, fmt.Errorf("%s: %w", name, err)
				}
				out[i] = doc{obj: o, sum: sha256.Sum256(b), hasSum: true}
			}
			return out, nil
		}
		if err != nil {
			return nil, fmt.Errorf("%s: document %d: %w", name, i, err)
		}
		if len(m) == 0 {
			continue
		}
		if items, ok := m["items"].([]any); ok && strings.HasSuffix(fmt.Sprint(m["kind"]), "List") {
			for _, it := range items {
				if item, ok := it.(map[string]any); ok {
					objs = append(objs, item)
				}
			}
			continue
		}
		objs = append(objs, m)
	}
}

// kinds maps each kind the server serves to its resource.
type kinds struct {
	byGVK map[schema.GroupVersionKind]kindInfo
}

type kindInfo struct {
	plural     string
	namespaced bool
}

func newKinds(rs []apiserver.Resource) *kinds {
	k := &kinds{byGVK: make(map[schema.GroupVersionKind]kindInfo, len(rs)+2)}
	k.byGVK[schema.GroupVersionKind{Version: "v1", Kind: "Namespace"}] = kindInfo{plural: "namespaces"}
	k.byGVK[crdGVK] = kindInfo{plural: "customresourcedefinitions"}
	for _, r := range rs {
		k.byGVK[schema.GroupVersionKind{Group: r.Group, Version: r.Version, Kind: r.Kind}] = kindInfo{plural: r.Plural, namespaced: r.Namespaced}
	}
	return k
}

var crdGVK = schema.GroupVersionKind{Group: "apiextensions.k8s.io", Version: "v1", Kind: "CustomResourceDefinition"}

// addCRD records the kinds a CRD serves.
func (k *kinds) addCRD(crd map[string]any) {
	spec, _ := crd["spec"].(map[string]any)
	names, _ := spec["names"].(map[string]any)
	group, _ := spec["group"].(string)
	kind, _ := names["kind"].(string)
	plural, _ := names["plural"].(string)
	scope, _ := spec["scope"].(string)
	versions, _ := spec["versions"].([]any)
	for _, v := range versions {
		vm, _ := v.(map[string]any)
		name, _ := vm["name"].(string)
		k.byGVK[schema.GroupVersionKind{Group: group, Version: name, Kind: kind}] = kindInfo{plural: plural, namespaced: scope == "Namespaced"}
	}
}

// path is the collection an object of gvk in namespace ns is created in.
func (k *kinds) path(gvk schema.GroupVersionKind, ns string) (string, error) {
	info, ok := k.byGVK[gvk]
	if !ok {
		return "", fmt.Errorf("the server does not serve kind %s", gvk)
	}
	p := "/apis/" + gvk.Group + "/" + gvk.Version
	if gvk.Group == "" {
		p = "/api/" + gvk.Version
	}
	if info.namespaced {
		if ns == "" {
			ns = "default"
		}
		p += "/namespaces/" + ns
	}
	return p + "/" + info.plural, nil
}

// readAll reads every source, in order.
func readAll(srcs []source, scheme *runtime.Scheme) ([]doc, error) {
	var out []doc
	for _, src := range srcs {
		docs, err := src.read(scheme)
		if err != nil {
			return nil, err
		}
		out = append(out, docs...)
	}
	return out, nil
}

// withCRDDefaults returns crds with apiVersion and kind set where they are
// missing (CRDs given as typed objects or maps), leaving the documents
// given untouched.
func withCRDDefaults(crds []doc) []doc {
	out := make([]doc, len(crds))
	for i, c := range crds {
		if apiVersion, _ := c.obj["apiVersion"].(string); apiVersion == "" {
			c = doc{obj: maps.Clone(c.obj)}
			c.obj["apiVersion"], c.obj["kind"] = "apiextensions.k8s.io/v1", "CustomResourceDefinition"
		}
		out[i] = c
	}
	return out
}

// installCRDs creates the CRDs through the server and waits until each is
// established, as envtest does (for a server not started from a template).
func (s *Server) installCRDs(ctx context.Context, crds []map[string]any) error {
	for _, crd := range crds {
		created, err := s.create(ctx, crd)
		if errors.Is(err, errExists) {
			created, err = nil, nil // installed by another server on the same store
		}
		if err != nil {
			return fmt.Errorf("CRD %s: %w", nameOf(crd), err)
		}
		if err := waitEstablished(ctx, s.API, s.admin, nameOf(crd), created); err != nil {
			return err
		}
	}
	return nil
}

// seed creates the objects, in order.
func (s *Server) seed(ctx context.Context, objs []map[string]any) error {
	for _, obj := range objs {
		if _, err := s.create(ctx, obj); err != nil {
			return fmt.Errorf("%s %s: %w", obj["kind"], nameOf(obj), err)
		}
		if obj["kind"] == "CustomResourceDefinition" {
			s.kinds.addCRD(obj)
		}
	}
	return nil
}

func nameOf(obj map[string]any) string {
	md, _ := obj["metadata"].(map[string]any)
	name, _ := md["name"].(string)
	if ns, _ := md["namespace"].(string); ns != "" {
		return ns + "/" + name
	}
	return name
}

// create sends obj to the server as the administrator, in-process.
func (s *Server) create(ctx context.Context, obj map[string]any) (map[string]any, error) {
	apiVersion, _ := obj["apiVersion"].(string)
	kind, _ := obj["kind"].(string)
	gv, err := schema.ParseGroupVersion(apiVersion)
	if err != nil || kind == "" {
		return nil, fmt.Errorf("apiVersion %q and kind %q do not name a kind", apiVersion, kind)
	}
	md, _ := obj["metadata"].(map[string]any)
	ns, _ := md["namespace"].(string)
	p, err := s.kinds.path(gv.WithKind(kind), ns)
	if err != nil {
		return nil, err
	}
	code, out, err := send(ctx, s.API, s.admin, http.MethodPost, p, obj)
	if err != nil {
		return nil, err
	}
	if code == http.StatusConflict && out["reason"] == "AlreadyExists" {
		return nil, fmt.Errorf("%w: %v", errExists, out["message"])
	}
	if code != http.StatusCreated && code != http.StatusOK {
		return nil, fmt.Errorf("the server answered %d: %v", code, out["message"])
	}
	return out, nil
}

var errExists = errors.New("already exists")

// send makes one JSON request to h with a bearer token (none if empty),
// in-process and unrecorded.
func send(ctx context.Context, h http.Handler, token, method, p string, obj map[string]any) (int, map[string]any, error) {
	var body io.Reader = http.NoBody
	if obj != nil {
		b, err := json.Marshal(obj)
		if err != nil {
			return 0, nil, err
		}
		body = bytes.NewReader(b)
	}
	req, err := http.NewRequestWithContext(ctx, method, p, body)
	if err != nil {
		return 0, nil, err
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json")
	req.Header.Set("User-Agent", "kapitest")
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	var out map[string]any
	if err := json.Unmarshal(rec.Body.Bytes(), &out); err != nil {
		return rec.Code, nil, fmt.Errorf("the server answered %d with %q", rec.Code, rec.Body.String())
	}
	return rec.Code, out, nil
}

// established says whether a CRD's status has Established True.
func established(crd map[string]any) bool {
	st, _ := crd["status"].(map[string]any)
	conds, _ := st["conditions"].([]any)
	for _, c := range conds {
		cm, _ := c.(map[string]any)
		if cm["type"] == "Established" && cm["status"] == "True" {
			return true
		}
	}
	return false
}

// waitEstablished returns once the CRD is established, polling it as
// envtest does (kapi establishes a CRD within the request that creates it,
// so created usually says so already).
func waitEstablished(ctx context.Context, h http.Handler, token, name string, created map[string]any) error {
	if established(created) {
		return nil
	}
	deadline := time.Now().Add(10 * time.Second)
	for {
		code, crd, err := send(ctx, h, token, http.MethodGet, "/apis/apiextensions.k8s.io/v1/customresourcedefinitions/"+name, nil)
		if err == nil && code == http.StatusOK && established(crd) {
			return nil
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("CRD %s: not established after 10s", name)
		}
		time.Sleep(10 * time.Millisecond)
	}
}
