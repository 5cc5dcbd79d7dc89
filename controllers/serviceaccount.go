package controllers

import (
	"context"
	"errors"

	"github.com/kapi-dev/kapi/apiserver"
	"github.com/kapi-dev/kapi/meta"
	"github.com/kapi-dev/kapi/store"
)

// Kinds the controllers read and write.
var (
	namespaceKind      = meta.GroupKind{Kind: "Namespace"}
	serviceAccountKind = meta.GroupKind{Kind: "ServiceAccount"}
	configMapKind      = meta.GroupKind{Kind: "ConfigMap"}
	eventKind          = meta.GroupKind{Kind: "Event"}
	crdKind            = meta.GroupKind{Group: "apiextensions.k8s.io", Kind: "CustomResourceDefinition"}
)

// defaultServiceAccount is the ServiceAccount every namespace gets.
const defaultServiceAccount = "default"

// serviceAccountController is kube-controller-manager's serviceaccount
// controller: every active namespace has a "default" ServiceAccount,
// created again when it is deleted. It writes as kube's does (created with
// nothing but its name, so it has no managedFields) and ignores the refusal
// of a namespace being deleted.
type serviceAccountController struct {
	srv    *apiserver.Server
	client *client
}

func newServiceAccountController(srv *apiserver.Server) *serviceAccountController {
	return &serviceAccountController{srv: srv, client: newClient(srv, "service-account-controller")}
}

func (c *serviceAccountController) workers() int { return 1 }

func (c *serviceAccountController) prefixes() []string {
	ns, _ := c.srv.Served().ForKind(namespaceKind)
	return []string{ns.Prefix("")}
}

func (c *serviceAccountController) reset() {}

// observe queues a namespace when it appears or changes, and when its
// default ServiceAccount is deleted.
func (c *serviceAccountController) observe(q *queue, events []store.Event) {
	served := c.srv.Served()
	for _, ev := range events {
		r, ns, name, ok := served.ForKey(ev.Object.Key())
		if !ok {
			continue
		}
		switch r.Kind {
		case namespaceKind.Kind:
			if r.Group == "" && ev.Type != store.Deleted {
				q.add(name)
			}
		case serviceAccountKind.Kind:
			if r.Group == "" && ev.Type == store.Deleted && name == defaultServiceAccount {
				q.add(ns)
			}
		}
	}
}

// sync creates the namespace's default ServiceAccount if the namespace is
// active and has none.
func (c *serviceAccountController) sync(ctx context.Context, item any) error {
	ns := item.(string)
	served := c.srv.Served()
	if !namespaceActive(ctx, c.srv, served, ns) {
		return nil
	}
	sa, ok := served.ForKind(serviceAccountKind)
	if !ok {
		return nil
	}
	if _, err := c.srv.Store().Get(ctx, sa.Key(ns, defaultServiceAccount)); !errors.Is(err, store.ErrNotFound) {
		return err
	}
	body := map[string]any{"apiVersion": "v1", "kind": "ServiceAccount",
		"metadata": map[string]any{"name": defaultServiceAccount, "namespace": ns}}
	_, err := c.client.do(ctx, "POST", sa.Path(ns), contentJSON, body, true)
	if err == nil || meta.IsAlreadyExists(err) || meta.IsNotFound(err) || hasCause(err, apiserver.CauseNamespaceTerminating) {
		return nil
	}
	return err
}

// namespaceActive reports whether a namespace exists and is Active.
func namespaceActive(ctx context.Context, srv *apiserver.Server, served *apiserver.Served, name string) bool {
	nsRes, _ := served.ForKind(namespaceKind)
	cur, err := srv.Store().Get(ctx, nsRes.Key("", name))
	if err != nil {
		return false
	}
	phase, _ := meta.NestedField(cur.Data(), "status", "phase")
	return phase == "Active"
}
