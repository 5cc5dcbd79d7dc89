package kapitest

import (
	"context"
	"crypto/sha256"
	"fmt"
	"net/http"
	"sync"
	"time"

	"github.com/kapi-dev/kapi/apiserver"
	"github.com/kapi-dev/kapi/apiserver/authz/rbac"
	"github.com/kapi-dev/kapi/apiserver/builtin"
	"github.com/kapi-dev/kapi/codec"
	"github.com/kapi-dev/kapi/store/memory"
)

// A template is an in-memory store prepared once per process for one set
// of CRDs: the default namespaces, kube's RBAC bootstrap policy (its
// aggregated roles filled in), what kube-apiserver stores at start (the
// default/kubernetes Service, the APIServices) and the CRDs, created and established
// through a server of the same kinds. Each server started with the same
// CRDs on the default store begins from a clone of it (memory.Store.Clone,
// O(1)), so neither the policy nor a CRD is written or parsed again: the
// stored CRD versions carry what the server derived from them.
//
// Every server cloned from one template therefore shares the uids and
// creation timestamps of those objects (taken from the real time when the
// template was built), as servers restored from one backup would.
type template struct {
	once  sync.Once
	store *memory.Store
	err   error
}

var templates sync.Map // key of the CRD set → *template

// templateFor returns the template of crds on a server of the built-in
// options opts (its service ranges), building it on first use.
func templateFor(crds []doc, opts builtin.Options) (*memory.Store, error) {
	h := sha256.New()
	fmt.Fprintf(h, "%q %q %d\n", opts.ServiceClusterIPRange, opts.ServiceNodePortRange, opts.KubernetesServicePort)
	for _, c := range crds {
		sum, err := c.digest()
		if err != nil {
			return nil, err
		}
		h.Write(sum[:])
	}
	key := string(h.Sum(nil))
	v, _ := templates.LoadOrStore(key, &template{})
	tmpl := v.(*template)
	tmpl.once.Do(func() { tmpl.store, tmpl.err = buildTemplate(crds, opts) })
	return tmpl.store, tmpl.err
}

func buildTemplate(docs []doc, opts builtin.Options) (*memory.Store, error) {
	crds := objects(docs)
	ctx := context.Background()
	st := memory.New(memory.Config{})
	now := time.Now()
	if err := rbac.EnsureBootstrapPolicy(ctx, st, now); err != nil {
		return nil, err
	}
	if err := rbac.AggregateOnce(ctx, st, time.Now); err != nil {
		return nil, err
	}
	hooks, err := builtin.PostStartHooks(opts)
	if err != nil {
		return nil, err
	}
	resources, err := builtin.ResourcesWith(apiserver.DefaultRelease, opts)
	if err != nil {
		return nil, err
	}
	api, err := apiserver.New(apiserver.Config{
		Store:          st,
		Resources:      resources,
		Codecs:         codec.Default(),
		PostStartHooks: hooks,
	})
	if err != nil {
		return nil, err
	}
	for _, crd := range crds {
		code, out, err := send(ctx, api, "", http.MethodPost, "/apis/apiextensions.k8s.io/v1/customresourcedefinitions", crd)
		if err != nil {
			return nil, fmt.Errorf("CRD %s: %w", nameOf(crd), err)
		}
		if code != http.StatusCreated {
			return nil, fmt.Errorf("CRD %s: the server answered %d: %v", nameOf(crd), code, out["message"])
		}
		if err := waitEstablished(ctx, api, "", nameOf(crd), out); err != nil {
			return nil, err
		}
	}
	return st, nil
}
