package kubeproto

import (
	"context"
	"io"
	"mime"
	"net/http"
	"net/http/httptest"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	coordinationv1 "k8s.io/api/coordination/v1"
	corev1 "k8s.io/api/core/v1"
	apiequality "k8s.io/apimachinery/pkg/api/equality"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"

	"github.com/kapi-dev/kapi/codec/protobuf"
	"github.com/kapi-dev/kapi/meta"
)

// protoServer is a tiny in-memory API server speaking only protobuf,
// through the codec: enough of the REST protocol for client-go's typed
// clients (create, get, update, list, watch, delete).
type protoServer struct {
	t     *testing.T
	c     *protobuf.Codec
	mu    sync.Mutex
	rv    int
	objs  map[string]meta.Object // resource/namespace/name
	kinds map[string]meta.GroupVersionKind
	// deletes records the decoded DeleteOptions bodies.
	deletes []meta.Object
}

func newProtoServer(t *testing.T) *protoServer {
	return &protoServer{t: t, c: protobuf.New(Resolver()), objs: map[string]meta.Object{}, kinds: map[string]meta.GroupVersionKind{
		"configmaps":  {Version: "v1", Kind: "ConfigMap"},
		"secrets":     {Version: "v1", Kind: "Secret"},
		"pods":        {Version: "v1", Kind: "Pod"},
		"events":      {Version: "v1", Kind: "Event"},
		"services":    {Version: "v1", Kind: "Service"},
		"deployments": {Group: "apps", Version: "v1", Kind: "Deployment"},
		"leases":      {Group: "coordination.k8s.io", Version: "v1", Kind: "Lease"},
	}}
}

func (s *protoServer) write(w http.ResponseWriter, code int, v any) {
	b, err := s.c.Encode(v)
	if err != nil {
		s.t.Errorf("Encode: %v", err)
		code, b = http.StatusInternalServerError, nil
	}
	w.Header().Set("Content-Type", protobuf.MediaType)
	w.WriteHeader(code)
	w.Write(b)
}

func (s *protoServer) body(w http.ResponseWriter, r *http.Request) (meta.Object, bool) {
	mt, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type"))
	if mt != protobuf.MediaType {
		s.t.Errorf("%s %s: Content-Type %q", r.Method, r.URL.Path, r.Header.Get("Content-Type"))
	}
	data, _ := io.ReadAll(r.Body)
	d, err := s.c.Decode(data)
	if err != nil {
		s.write(w, meta.AsStatus(err).HTTPStatus(), meta.AsStatus(err))
		return nil, false
	}
	return d.Object, true
}

func (s *protoServer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if !strings.Contains(r.Header.Get("Accept"), protobuf.MediaType) {
		s.t.Errorf("%s %s: Accept %q", r.Method, r.URL.Path, r.Header.Get("Accept"))
	}
	// /api/v1/namespaces/ns/res[/name] or /apis/g/v/namespaces/ns/res[/name]
	parts := strings.Split(strings.Trim(r.URL.Path, "/"), "/")
	if parts[0] == "api" {
		parts = parts[2:]
	} else {
		parts = parts[3:]
	}
	if len(parts) < 3 || parts[0] != "namespaces" {
		http.NotFound(w, r)
		return
	}
	ns, res, name := parts[1], parts[2], ""
	if len(parts) > 3 {
		name = parts[3]
	}
	gvk, ok := s.kinds[res]
	if !ok {
		http.NotFound(w, r)
		return
	}
	gr := meta.GroupResource{Group: gvk.Group, Resource: res}
	key := res + "/" + ns + "/" + name
	s.mu.Lock()
	defer s.mu.Unlock()
	switch {
	case r.Method == http.MethodPost:
		obj, ok := s.body(w, r)
		if !ok {
			return
		}
		key = res + "/" + ns + "/" + obj.Name()
		if _, exists := s.objs[key]; exists {
			s.write(w, http.StatusConflict, meta.AlreadyExists(gr, obj.Name()))
			return
		}
		s.rv++
		md := obj.MetadataForWrite()
		md["namespace"] = ns
		md["uid"] = "uid-" + strconv.Itoa(s.rv)
		md["resourceVersion"] = strconv.Itoa(s.rv)
		md["creationTimestamp"] = "2024-05-06T07:08:09Z"
		s.objs[key] = obj
		s.write(w, http.StatusCreated, obj)
	case r.Method == http.MethodPut:
		obj, ok := s.body(w, r)
		if !ok {
			return
		}
		old, exists := s.objs[key]
		if !exists {
			s.write(w, http.StatusNotFound, meta.NotFound(gr, name))
			return
		}
		if obj.ResourceVersion() != old.ResourceVersion() {
			s.write(w, http.StatusConflict, meta.ConflictModified(gr, name))
			return
		}
		s.rv++
		obj.SetMetadataField("resourceVersion", strconv.Itoa(s.rv))
		s.objs[key] = obj
		s.write(w, http.StatusOK, obj)
	case r.Method == http.MethodDelete:
		opts, ok := s.body(w, r)
		if !ok {
			return
		}
		s.deletes = append(s.deletes, opts)
		obj, exists := s.objs[key]
		if !exists {
			s.write(w, http.StatusNotFound, meta.NotFound(gr, name))
			return
		}
		delete(s.objs, key)
		s.write(w, http.StatusOK, meta.Success(gr, name, obj.UID()))
	case name != "":
		obj, exists := s.objs[key]
		if !exists {
			s.write(w, http.StatusNotFound, meta.NotFound(gr, name))
			return
		}
		s.write(w, http.StatusOK, obj)
	default:
		var keys []string
		for k := range s.objs {
			if strings.HasPrefix(k, res+"/"+ns+"/") {
				keys = append(keys, k)
			}
		}
		slices.Sort(keys)
		if r.URL.Query().Get("watch") == "true" {
			w.Header().Set("Content-Type", protobuf.MediaType+";stream=watch")
			w.WriteHeader(http.StatusOK)
			for _, k := range keys {
				env, err := s.c.Encode(s.objs[k])
				if err != nil {
					s.t.Error(err)
					return
				}
				w.Write(protobuf.Frame(protobuf.EncodeWatchEvent("ADDED", env)))
			}
			return
		}
		msgs := make([][]byte, len(keys))
		for i, k := range keys {
			msg, err := s.c.EncodeMessage(s.objs[k])
			if err != nil {
				s.t.Error(err)
			}
			msgs[i] = msg
		}
		w.Header().Set("Content-Type", protobuf.MediaType)
		w.Write(s.c.EncodeList(gvk.GroupVersion().String(), gvk.Kind+"List", meta.ListMeta{ResourceVersion: strconv.Itoa(s.rv)}, msgs))
	}
}

// TestClientGo drives the codec with client-go's typed clients configured
// for protobuf, as kubectl and controllers use them for built-in kinds.
func TestClientGo(t *testing.T) {
	s := newProtoServer(t)
	srv := httptest.NewServer(s)
	defer srv.Close()
	cs, err := kubernetes.NewForConfig(&rest.Config{Host: srv.URL, QPS: -1, ContentConfig: rest.ContentConfig{
		ContentType: protobuf.MediaType, AcceptContentTypes: protobuf.MediaType,
	}})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	cms := cs.CoreV1().ConfigMaps("default")

	cm := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: "app", Labels: map[string]string{"a": "b"}},
		Data: map[string]string{"k": "v"}, BinaryData: map[string][]byte{"bin": {0, 1, 2}}}
	created, err := cms.Create(ctx, cm, metav1.CreateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if created.UID != "uid-1" || created.ResourceVersion != "1" || created.Data["k"] != "v" || string(created.BinaryData["bin"]) != "\x00\x01\x02" ||
		created.CreationTimestamp.UTC().Format("2006-01-02T15:04:05Z") != "2024-05-06T07:08:09Z" {
		t.Fatalf("created %+v", created)
	}
	if _, err := cms.Create(ctx, cm, metav1.CreateOptions{}); !apierrors.IsAlreadyExists(err) {
		t.Fatalf("second create: %v", err)
	}
	got, err := cms.Get(ctx, "app", metav1.GetOptions{})
	if err != nil || !apiequality.Semantic.DeepEqual(got, created) {
		t.Fatalf("get: %v\n%s\n%s", err, js(got), js(created))
	}
	if _, err := cms.Get(ctx, "missing", metav1.GetOptions{}); !apierrors.IsNotFound(err) {
		t.Fatalf("get missing: %v", err)
	}
	got.Data["k"] = "w"
	updated, err := cms.Update(ctx, got, metav1.UpdateOptions{})
	if err != nil || updated.Data["k"] != "w" || updated.ResourceVersion != "2" {
		t.Fatalf("update: %v %+v", err, updated)
	}
	if _, err := cms.Update(ctx, got, metav1.UpdateOptions{}); !apierrors.IsConflict(err) {
		t.Fatalf("stale update: %v", err)
	}
	list, err := cms.List(ctx, metav1.ListOptions{})
	if err != nil || len(list.Items) != 1 || list.ResourceVersion != "2" || list.Items[0].Data["k"] != "w" {
		t.Fatalf("list: %v %+v", err, list)
	}
	w, err := cms.Watch(ctx, metav1.ListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	ev := <-w.ResultChan()
	if ev.Type != watch.Added || ev.Object.(*corev1.ConfigMap).Data["k"] != "w" {
		t.Fatalf("watch event %s %#v", ev.Type, ev.Object)
	}
	w.Stop()

	policy := metav1.DeletePropagationForeground
	if err := cms.Delete(ctx, "app", metav1.DeleteOptions{PropagationPolicy: &policy, GracePeriodSeconds: new(int64)}); err != nil {
		t.Fatal(err)
	}
	if len(s.deletes) != 1 || js(s.deletes[0]) != `{"apiVersion":"v1","gracePeriodSeconds":0,"kind":"DeleteOptions","propagationPolicy":"Foreground"}` {
		t.Fatalf("DeleteOptions body: %s", js(s.deletes))
	}
	if err := cms.Delete(ctx, "app", metav1.DeleteOptions{}); !apierrors.IsNotFound(err) {
		t.Fatalf("second delete: %v", err)
	}

	// Every other kind round-trips through client-go unchanged, apart from
	// what the server sets.
	created2 := 0
	for _, o := range objects() {
		var got, sent metav1.Object
		var err error
		switch o := o.(type) {
		case *appsv1.Deployment:
			sent = o.DeepCopy()
			got, err = cs.AppsV1().Deployments("default").Create(ctx, o.DeepCopy(), metav1.CreateOptions{})
		case *coordinationv1.Lease:
			sent = o.DeepCopy()
			got, err = cs.CoordinationV1().Leases("default").Create(ctx, o.DeepCopy(), metav1.CreateOptions{})
		case *corev1.Pod:
			sent = o.DeepCopy()
			got, err = cs.CoreV1().Pods("default").Create(ctx, o.DeepCopy(), metav1.CreateOptions{})
		case *corev1.Secret:
			sent = o.DeepCopy()
			got, err = cs.CoreV1().Secrets("default").Create(ctx, o.DeepCopy(), metav1.CreateOptions{})
		case *corev1.Service:
			sent = o.DeepCopy()
			got, err = cs.CoreV1().Services("default").Create(ctx, o.DeepCopy(), metav1.CreateOptions{})
		case *corev1.Event:
			sent = o.DeepCopy()
			got, err = cs.CoreV1().Events("default").Create(ctx, o.DeepCopy(), metav1.CreateOptions{})
		default:
			continue
		}
		if err != nil {
			t.Fatalf("create %T: %v", o, err)
		}
		created2++
		for _, m := range []metav1.Object{got, sent} {
			m.SetUID("")
			m.SetResourceVersion("")
			m.SetNamespace("")
			m.SetCreationTimestamp(metav1.Time{})
		}
		got.(runtime.Object).GetObjectKind().SetGroupVersionKind(schema.GroupVersionKind{})
		sent.(runtime.Object).GetObjectKind().SetGroupVersionKind(schema.GroupVersionKind{})
		if !apiequality.Semantic.DeepEqual(got, sent) {
			t.Errorf("%T through client-go:\n got %s\nwant %s", o, js(got), js(sent))
		}
	}
	if created2 != 8 {
		t.Fatalf("created %d objects of other kinds, want 8", created2)
	}
}
