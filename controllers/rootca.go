package controllers

import (
	"context"
	"errors"

	"github.com/kapi-dev/kapi/apiserver"
	"github.com/kapi-dev/kapi/meta"
	"github.com/kapi-dev/kapi/store"
)

// The ConfigMap the root-ca-cert-publisher writes, as kube names and
// describes it.
const (
	rootCAConfigMap       = "kube-root-ca.crt"
	rootCAKey             = "ca.crt"
	descriptionAnnotation = "kubernetes.io/description"
	rootCADescription     = "Contains a CA bundle that can be used to verify the kube-apiserver when using internal " +
		"endpoints such as the internal service IP or kubernetes.default.svc. " +
		"No other usage is guaranteed across distributions of Kubernetes clusters."
)

// rootCAPublisher is kube-controller-manager's root-ca-cert-publisher:
// every namespace has a kube-root-ca.crt ConfigMap holding the CA bundle
// (ca.crt) and kube's description annotation, created again when deleted
// and put back when changed.
type rootCAPublisher struct {
	srv    *apiserver.Server
	client *client
	ca     string
}

func newRootCAPublisher(srv *apiserver.Server, ca []byte) *rootCAPublisher {
	return &rootCAPublisher{srv: srv, client: newClient(srv, "root-ca-cert-publisher"), ca: string(ca)}
}

func (c *rootCAPublisher) workers() int { return 1 }

func (c *rootCAPublisher) prefixes() []string {
	ns, _ := c.srv.Served().ForKind(namespaceKind)
	return []string{ns.Prefix("")}
}

func (c *rootCAPublisher) reset() {}

// observe queues a namespace when it appears or changes while active, and
// when its kube-root-ca.crt changes or is deleted, as kube's does.
func (c *rootCAPublisher) observe(q *queue, events []store.Event) {
	served := c.srv.Served()
	for _, ev := range events {
		r, ns, name, ok := served.ForKey(ev.Object.Key())
		if !ok || r.Group != "" {
			continue
		}
		switch r.Kind {
		case namespaceKind.Kind:
			switch ev.Type {
			case store.Added:
				q.add(name)
			case store.Modified:
				if phase, _ := meta.NestedField(ev.Object.Data(), "status", "phase"); phase == "Active" {
					q.add(name)
				}
			}
		case configMapKind.Kind:
			if ev.Type != store.Added && name == rootCAConfigMap {
				q.add(ns)
			}
		}
	}
}

// sync creates or repairs the namespace's kube-root-ca.crt.
func (c *rootCAPublisher) sync(ctx context.Context, item any) error {
	ns := item.(string)
	cmRes, ok := c.srv.Served().ForKind(configMapKind)
	if !ok {
		return nil
	}
	cur, err := c.srv.Store().Get(ctx, cmRes.Key(ns, rootCAConfigMap))
	if errors.Is(err, store.ErrNotFound) {
		body := map[string]any{"apiVersion": "v1", "kind": "ConfigMap",
			"metadata": map[string]any{"name": rootCAConfigMap, "namespace": ns,
				"annotations": map[string]any{descriptionAnnotation: rootCADescription}},
			"data": map[string]any{rootCAKey: c.ca}}
		_, err := c.client.do(ctx, "POST", cmRes.Path(ns), contentJSON, body, true)
		// A namespace gone or being deleted is no reason to retry.
		if err == nil || meta.IsNotFound(err) || hasCause(err, apiserver.CauseNamespaceTerminating) {
			return nil
		}
		return err
	}
	if err != nil {
		return err
	}
	obj := cur.Data()
	data, _ := obj["data"].(map[string]any)
	if len(data) == 1 && data[rootCAKey] == c.ca && obj.Annotations()[descriptionAnnotation] != "" {
		return nil
	}
	next := obj.DeepCopy()
	next["data"] = map[string]any{rootCAKey: c.ca}
	md := next.MetadataForWrite()
	annotations, _ := md["annotations"].(map[string]any)
	if annotations == nil {
		annotations = map[string]any{}
		md["annotations"] = annotations
	}
	annotations[descriptionAnnotation] = rootCADescription
	_, err = c.client.do(ctx, "PUT", objectPath(cmRes, ns, rootCAConfigMap), contentJSON, next, true)
	if meta.IsNotFound(err) {
		return nil
	}
	return err
}
