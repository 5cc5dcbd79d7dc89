package flowcontrol

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"reflect"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/kapi-dev/kapi/apiserver/authn"
	"github.com/kapi-dev/kapi/apiserver/flowcontrol/fairqueue"
	"github.com/kapi-dev/kapi/apiserver/requestinfo"
	"github.com/kapi-dev/kapi/meta"
	"github.com/kapi-dev/kapi/store"
	"github.com/kapi-dev/kapi/store/memory"
)

// storeClient is a Client writing straight into a store, as a server
// would (uid, generation, creationTimestamp; generation bumped by spec
// changes), recording what it did.
type storeClient struct {
	s   store.Store
	now func() time.Time

	mu     sync.Mutex
	writes []string
	uids   int
}

func (c *storeClient) key(resource, name string) string {
	return "/" + Group + "/" + resource + "/" + name
}

func (c *storeClient) note(format string, args ...any) {
	c.mu.Lock()
	c.writes = append(c.writes, fmt.Sprintf(format, args...))
	c.mu.Unlock()
}

func (c *storeClient) takeWrites() []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	w := c.writes
	c.writes = nil
	return w
}

func (c *storeClient) Create(ctx context.Context, resource string, obj meta.Object, fm string) error {
	obj = obj.DeepCopy()
	c.mu.Lock()
	c.uids++
	uid := fmt.Sprintf("uid-%s-%d", obj.Name(), c.uids)
	c.mu.Unlock()
	md := obj.MetadataForWrite()
	md["uid"], md["generation"], md["creationTimestamp"] = uid, int64(1), meta.FormatTime(c.now())
	if _, err := c.s.Create(ctx, c.key(resource, obj.Name()), obj); err != nil {
		return meta.AlreadyExists(meta.GroupResource{Group: Group, Resource: resource}, obj.Name())
	}
	c.note("create %s/%s by %s", resource, obj.Name(), fm)
	return nil
}

func (c *storeClient) Update(ctx context.Context, resource string, obj meta.Object, fm string) error {
	_, err := c.s.Update(ctx, c.key(resource, obj.Name()), store.UpdateOptions{
		Preconditions: store.Preconditions{ResourceVersion: obj.ResourceVersion()},
	}, func(cur *store.Object) (meta.Object, error) {
		next := obj.DeepCopy()
		gen := cur.Data().Generation()
		if !reflect.DeepEqual(cur.Data()["spec"], next["spec"]) {
			gen++
		}
		next.MetadataForWrite()["generation"] = gen
		return next, nil
	})
	if err != nil {
		return meta.ConflictModified(meta.GroupResource{Group: Group, Resource: resource}, obj.Name())
	}
	c.note("update %s/%s by %s", resource, obj.Name(), fm)
	return nil
}

func (c *storeClient) Delete(ctx context.Context, resource, name string) error {
	if _, err := c.s.Delete(ctx, c.key(resource, name), store.Preconditions{}, nil); err != nil {
		return meta.NotFound(meta.GroupResource{Group: Group, Resource: resource}, name)
	}
	c.note("delete %s/%s", resource, name)
	return nil
}

func (c *storeClient) ApplyStatus(ctx context.Context, resource, name string, obj meta.Object, fm string) error {
	_, err := c.s.Update(ctx, c.key(resource, name), store.UpdateOptions{}, func(cur *store.Object) (meta.Object, error) {
		next := cur.Data().DeepCopy()
		next["status"] = meta.DeepCopyValue(obj["status"])
		return next, nil
	})
	if err != nil {
		return meta.NotFound(meta.GroupResource{Group: Group, Resource: resource}, name)
	}
	status, _ := meta.NestedField(obj, "status", "conditions")
	cond := status.([]any)[0].(map[string]any)
	c.note("status %s/%s %s=%s by %s", resource, name, cond["type"], cond["status"], fm)
	return nil
}

// env is a controller over a memory store.
type env struct {
	t      testing.TB
	store  store.Store
	client *storeClient
	c      *Controller
	cancel context.CancelFunc
}

func newEnv(t testing.TB, opts Options, withClient bool) *env {
	t.Helper()
	e := &env{t: t, store: memory.New(memory.Config{})}
	ctx, cancel := context.WithCancel(context.Background())
	e.cancel = cancel
	t.Cleanup(cancel)
	opts.Context = ctx
	deps := Deps{Store: e.store}
	if withClient {
		e.client = &storeClient{s: e.store, now: time.Now}
		deps.Client = e.client
	}
	e.c = New(opts, deps)
	return e
}

func (e *env) start() {
	e.t.Helper()
	require.NoError(e.t, e.c.Start())
}

// put creates or replaces a configuration object in the store.
func (e *env) put(obj meta.Object) {
	e.t.Helper()
	resource := "prioritylevelconfigurations"
	if obj.Kind() == "FlowSchema" {
		resource = "flowschemas"
		DefaultFlowSchema(obj)
	} else {
		DefaultPriorityLevel(obj)
	}
	key := "/" + Group + "/" + resource + "/" + obj.Name()
	md := obj.MetadataForWrite()
	if md["uid"] == nil {
		md["uid"] = "uid-" + obj.Name()
	}
	_, err := e.store.Update(context.Background(), key, store.UpdateOptions{AllowCreate: true}, func(*store.Object) (meta.Object, error) {
		return obj.DeepCopy(), nil
	})
	require.NoError(e.t, err)
}

func (e *env) del(resource, name string) {
	e.t.Helper()
	_, err := e.store.Delete(context.Background(), "/"+Group+"/"+resource+"/"+name, store.Preconditions{}, nil)
	require.NoError(e.t, err)
}

func (e *env) get(resource, name string) meta.Object {
	e.t.Helper()
	o, err := e.store.Get(context.Background(), "/"+Group+"/"+resource+"/"+name)
	if err != nil {
		return nil
	}
	return o.Data()
}

// putBootstrap stores kube's bootstrap configuration as the server would
// have created it.
func (e *env) putBootstrap() {
	for _, b := range []Bootstrap{BootstrapPriorityLevels(), BootstrapFlowSchemas()} {
		for _, o := range append(b.Mandatory, b.Suggested...) {
			e.put(o)
		}
	}
}

// level builds a PriorityLevelConfiguration.
func newPL(name string, limited map[string]any) meta.Object {
	return meta.Object{"apiVersion": Group + "/v1", "kind": "PriorityLevelConfiguration",
		"metadata": map[string]any{"name": name},
		"spec":     map[string]any{"type": "Limited", "limited": limited}}
}

// schema builds a FlowSchema matching every request of the given users.
func newFS(name, levelName string, precedence int64, users ...string) meta.Object {
	var subjects []any
	for _, u := range users {
		subjects = append(subjects, map[string]any{"kind": "User", "user": map[string]any{"name": u}})
	}
	return meta.Object{"apiVersion": Group + "/v1", "kind": "FlowSchema",
		"metadata": map[string]any{"name": name},
		"spec": map[string]any{
			"priorityLevelConfiguration": map[string]any{"name": levelName},
			"matchingPrecedence":         precedence,
			"distinguisherMethod":        map[string]any{"type": "ByUser"},
			"rules": []any{map[string]any{
				"subjects":         subjects,
				"resourceRules":    []any{map[string]any{"verbs": []any{"*"}, "apiGroups": []any{"*"}, "resources": []any{"*"}, "namespaces": []any{"*"}, "clusterScope": true}},
				"nonResourceRules": []any{map[string]any{"verbs": []any{"*"}, "nonResourceURLs": []any{"*"}}},
			}},
		}}
}

// as returns a request from user (nil: no user at all).
func as(user *authn.User, method, target string) *http.Request {
	r := httptest.NewRequest(method, target, nil)
	if user != nil {
		r = r.WithContext(authn.WithUser(r.Context(), user))
	}
	return r
}

func userNamed(name string, groups ...string) *authn.User {
	return &authn.User{Name: name, Groups: append(groups, authn.AllAuthenticated)}
}

// classifyOf returns the schema and level a request is classified by.
func (e *env) classifyOf(r *http.Request) (string, string) {
	info := requestinfo.From(r)
	user, ok := authn.UserFrom(r.Context())
	if !ok {
		user = anonymous
	}
	d := newDigest(&info, user, r.Method, r.URL.Path)
	sb := e.c.cfg.Load().classify(&d)
	return sb.fs.Name, sb.level.name
}

var (
	workOne   = fairqueue.WorkEstimate{InitialSeats: 1}
	descrNone = fairqueue.Descr{}
)

func requestinfoOf(r *http.Request) requestinfo.Info { return requestinfo.From(r) }

func withUserOf(ctx context.Context, name string) context.Context {
	return authn.WithUser(ctx, userNamed(name))
}

type nopHandler struct{}

func (nopHandler) ServeHTTP(http.ResponseWriter, *http.Request) {}
