package builtin

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"reflect"
	"strings"
	"time"

	"github.com/kapi-dev/kapi/apiserver"
	"github.com/kapi-dev/kapi/meta"
	"github.com/kapi-dev/kapi/store"
)

// What a Pod does as kube's pod storage does it (pkg/registry/core/pod):
// graceful deletion, its binding, eviction, ephemeral containers and
// connect subresources.

var (
	podsGR  = meta.GroupResource{Resource: "pods"}
	nodesGR = meta.GroupResource{Resource: "nodes"}
)

// GracePeriod is kube's CheckGracefulDelete: the DeleteOptions' period,
// else the pod's terminationGracePeriodSeconds; 0 (removed at once) for a
// pod on no node or one that has finished.
func (podStrategy) GracePeriod(_ *apiserver.Write, o meta.Object, requested *int64) int64 {
	period := int64(0)
	if requested != nil {
		period = *requested
	} else if p, ok := meta.AsInt64(field(o, "spec", "terminationGracePeriodSeconds")); ok {
		period = p
	}
	if str(o, "spec", "nodeName") == "" {
		period = 0
	}
	if phase := str(o, "status", "phase"); phase == "Failed" || phase == "Succeeded" {
		period = 0
	}
	return period
}

// Subresources are a pod's, as kube serves them.
func (podStrategy) Subresources() []apiserver.Subresource {
	core := func(kind string) meta.GroupVersionKind { return meta.GroupVersionKind{Kind: kind} }
	connect := []string{"create", "get"}
	return []apiserver.Subresource{
		{Name: "attach", Verbs: connect, Kind: core("PodAttachOptions"), Connect: true, Serve: servePodStream("attach")},
		{Name: "binding", Verbs: []string{"create"}, Kind: core("Binding"), Serve: servePodBinding},
		{Name: "ephemeralcontainers", Verbs: []string{"get", "patch", "update"}},
		{Name: "eviction", Verbs: []string{"create"}, Kind: meta.GroupVersionKind{Group: "policy", Version: "v1", Kind: "Eviction"},
			AcceptedVersions: []string{"policy/v1beta1"}, Serve: servePodEviction},
		{Name: "exec", Verbs: connect, Kind: core("PodExecOptions"), Connect: true, Serve: servePodStream("exec")},
		{Name: "log", Verbs: []string{"get"}, Connect: true, Serve: servePodLog},
		{Name: "portforward", Verbs: connect, Kind: core("PodPortForwardOptions"), Connect: true, Serve: servePodStream("portforward")},
		{Name: "proxy", Verbs: []string{"create", "delete", "get", "patch", "update"}, Kind: core("PodProxyOptions"), Connect: true,
			Serve: servePodProxy},
		{Name: "resize", Verbs: []string{"get", "patch", "update"}},
	}
}

// successStatus is the Status kube answers a binding or an eviction with.
func successStatus(code int) meta.Object {
	return meta.Object{"kind": "Status", "apiVersion": "v1", "metadata": map[string]any{}, "status": "Success", "code": int64(code)}
}

// servePodBinding assigns a pod to a node as a scheduler does (kube's
// BindingREST): spec.nodeName, the binding's annotations and a
// PodScheduled condition, without the update pipeline; 409 when the pod is
// bound or being deleted.
func servePodBinding(c *apiserver.SubresourceCall) (int, meta.Object, error) {
	return bindPod(c.Write, c.Namespace, c.Name, c.Body)
}

// createBinding answers a create of core v1 bindings (kube's
// LegacyBindingREST): the Binding names the pod it binds. It is the
// bindings resource's apiserver.CreateOnlyFunc.
func createBinding(ctx context.Context, namespace string, b meta.Object) (meta.Object, error) {
	w, ok := apiserver.WriteFrom(ctx)
	if !ok {
		return nil, meta.Internal(fmt.Errorf("a binding needs its write"))
	}
	_, out, err := bindPod(w, namespace, b.Name(), b)
	return out, err
}

// bindPod is pods/binding and core bindings.
func bindPod(w *apiserver.Write, namespace, name string, b meta.Object) (int, meta.Object, error) {
	if b.Name() != name {
		return 0, nil, meta.BadRequest("name in URL does not match name in Binding object")
	}
	target := asMap(b["target"])
	var errs meta.FieldErrors
	if k, _ := target["kind"].(string); k != "" && k != "Node" {
		errs = append(errs, meta.FieldError{Type: meta.ErrorNotSupported, Field: "target.kind", Value: k,
			Detail: `supported values: "Node", "<empty>"`})
	}
	node, _ := target["name"].(string)
	if node == "" {
		errs = append(errs, meta.FieldError{Type: meta.ErrorRequired, Field: "target.name"})
	}
	if len(errs) > 0 {
		// kube returns the validation's aggregate as a plain error: a 500
		// without reason.
		return 0, nil, &meta.Status{Kind: "Status", APIVersion: "v1", Status: "Failure", Message: errs.Error(), Code: 500}
	}
	uid, rv := b.UID(), b.ResourceVersion()
	key := "/registry/pods/" + namespace + "/" + name
	_, err := w.Update(podsGR, namespace, name, func(pod meta.Object) (meta.Object, error) {
		if err := storagePrecondition(key, pod, uid, rv); err != nil {
			return nil, err
		}
		if pod.DeletionTimestamp() != "" {
			return nil, bindingConflict(name, fmt.Sprintf("pod %s is being deleted, cannot be assigned to a host", name))
		}
		if bound := str(pod, "spec", "nodeName"); bound != "" {
			return nil, bindingConflict(name, fmt.Sprintf("pod %s is already assigned to node %q", name, bound))
		}
		if len(asList(field(pod, "spec", "schedulingGates"))) > 0 {
			return nil, bindingConflict(name, fmt.Sprintf("pod %s has non-empty .spec.schedulingGates", name))
		}
		obj(pod, "spec")["nodeName"] = node
		if ann := asMap(b.Metadata()["annotations"]); len(ann) > 0 {
			podAnn := obj(pod.MetadataForWrite(), "annotations")
			for k, v := range ann {
				podAnn[k] = v
			}
		}
		setPodCondition(pod, map[string]any{"type": "PodScheduled", "status": "True"}, w.Now)
		return pod, nil
	})
	if err != nil {
		return 0, nil, err
	}
	return http.StatusCreated, successStatus(http.StatusCreated), nil
}

func bindingConflict(name, why string) error {
	return meta.Conflict(meta.GroupResource{Resource: "pods/binding"}, name, why)
}

// storagePrecondition checks a uid and resourceVersion a binding carries,
// failing as kube's storage does.
func storagePrecondition(key string, pod meta.Object, uid, rv string) error {
	why := ""
	switch {
	case uid != "" && uid != pod.UID():
		why = fmt.Sprintf("Precondition failed: UID in precondition: %s, UID in object meta: %s", uid, pod.UID())
	case rv != "" && rv != pod.ResourceVersion():
		why = fmt.Sprintf("Precondition failed: ResourceVersion in precondition: %s, ResourceVersion in object meta: %s", rv,
			pod.ResourceVersion())
	default:
		return nil
	}
	return meta.Conflict(podsGR, pod.Name(), fmt.Sprintf(
		"StorageError: invalid object, Code: 4, Key: %s, ResourceVersion: 0, AdditionalErrorMsg: %s", key, why))
}

// setPodCondition sets a condition as kube's UpdatePodCondition: its
// lastTransitionTime moves only when its status changes.
func setPodCondition(pod meta.Object, cond map[string]any, now time.Time) {
	status := obj(pod, "status")
	list := asList(status["conditions"])
	for i, c := range list {
		old := asMap(c)
		if old["type"] != cond["type"] {
			continue
		}
		next := map[string]any{"lastProbeTime": old["lastProbeTime"], "lastTransitionTime": old["lastTransitionTime"]}
		for k, v := range cond {
			next[k] = v
		}
		if old["status"] != cond["status"] {
			next["lastTransitionTime"] = meta.FormatTime(now)
		}
		list[i] = next
		status["conditions"] = list
		return
	}
	next := map[string]any{"lastProbeTime": nil, "lastTransitionTime": meta.FormatTime(now)}
	for k, v := range cond {
		next[k] = v
	}
	status["conditions"] = append(list, next)
}

// prepareEphemeralContainersUpdate is kube's ephemeral containers
// strategy: a write to pods/ephemeralcontainers changes nothing but
// spec.ephemeralContainers (defaulted as containers are).
func prepareEphemeralContainersUpdate(o, old meta.Object) meta.Object {
	next := old.DeepCopy()
	list := asList(field(o, "spec", "ephemeralContainers"))
	for _, c := range list {
		if m, ok := c.(map[string]any); ok {
			defaultContainer(m)
		}
	}
	if len(list) > 0 {
		obj(next, "spec")["ephemeralContainers"] = list
	} else {
		delete(obj(next, "spec"), "ephemeralContainers")
	}
	next.SetMetadataField("resourceVersion", o.ResourceVersion())
	return next
}

// prepareResizeUpdate is kube's pod resize strategy: a write to
// pods/resize changes the containers' resources and resize policies only.
func prepareResizeUpdate(o, old meta.Object) meta.Object {
	next := old.DeepCopy()
	for _, key := range []string{"containers", "initContainers"} {
		news := asList(field(o, "spec", key))
		for i, c := range asList(field(next, "spec", key)) {
			if i >= len(news) {
				break
			}
			cur, nc := asMap(c), asMap(news[i])
			if cur["name"] != nc["name"] {
				continue
			}
			for _, f := range []string{"resources", "resizePolicy"} {
				setOrDelete(cur, f, meta.DeepCopyValue(nc[f]))
			}
		}
	}
	next.SetMetadataField("resourceVersion", o.ResourceVersion())
	return next
}

// validateEphemeralContainersUpdate: ephemeral containers are only added,
// with names no other container of the pod has.
func validateEphemeralContainersUpdate(o, old meta.Object) meta.FieldErrors {
	var errs meta.FieldErrors
	byName := map[string]map[string]any{}
	for _, c := range asList(field(o, "spec", "ephemeralContainers")) {
		m := asMap(c)
		n, _ := m["name"].(string)
		byName[n] = m
	}
	for _, c := range asList(field(old, "spec", "ephemeralContainers")) {
		m := asMap(c)
		n, _ := m["name"].(string)
		cur, ok := byName[n]
		switch {
		case !ok:
			errs = append(errs, meta.FieldError{Type: meta.ErrorForbidden, Field: "spec.ephemeralContainers",
				Detail: fmt.Sprintf("existing ephemeral containers %q may not be removed\n", n)})
		case !reflect.DeepEqual(cur, m):
			errs = append(errs, meta.FieldError{Type: meta.ErrorForbidden, Field: "spec.ephemeralContainers",
				Detail: fmt.Sprintf("existing ephemeral containers %q may not be changed", n)})
		}
	}
	seen := map[string]bool{}
	for _, key := range []string{"initContainers", "containers"} {
		for _, c := range asList(field(o, "spec", key)) {
			n, _ := asMap(c)["name"].(string)
			seen[n] = true
		}
	}
	for i, c := range asList(field(o, "spec", "ephemeralContainers")) {
		m := asMap(c)
		n, _ := m["name"].(string)
		path := fmt.Sprintf("spec.ephemeralContainers[%d]", i)
		switch {
		case n == "":
			errs = append(errs, meta.FieldError{Type: meta.ErrorRequired, Field: path + ".name"})
		case seen[n]:
			errs = append(errs, meta.FieldError{Type: meta.ErrorDuplicate, Field: path + ".name", Value: n})
		}
		seen[n] = true
		if s, _ := m["image"].(string); s == "" {
			errs = append(errs, meta.FieldError{Type: meta.ErrorRequired, Field: path + ".image"})
		}
	}
	return errs
}

// servePodLog answers pods/log as kube does without a kubelet to ask: no
// content for a pod on no node; the node's kubelet is dialled otherwise,
// and its failure answered.
func servePodLog(c *apiserver.SubresourceCall) (int, meta.Object, error) {
	pod, err := c.Object()
	if err != nil {
		return 0, nil, err
	}
	container, err := podContainer(pod.Data(), c.Query.Get("container"))
	if err != nil {
		return 0, nil, err
	}
	nodeName := str(pod.Data(), "spec", "nodeName")
	if nodeName == "" {
		return http.StatusNoContent, nil, nil
	}
	host, err := kubeletAddress(c.Write, nodeName)
	if err != nil {
		return 0, nil, err
	}
	u := fmt.Sprintf("https://%s/containerLogs/%s/%s/%s", host, c.Namespace, c.Name, container)
	return 0, nil, kubeletUnreachable(host, func(e error) string { return fmt.Sprintf("Get %q: %v", u, e) })
}

// servePodStream answers exec, attach and portforward as kube does
// without a kubelet: 400 for a pod on no node or a request that does not
// upgrade, the dial's failure otherwise.
func servePodStream(path string) func(c *apiserver.SubresourceCall) (int, meta.Object, error) {
	return func(c *apiserver.SubresourceCall) (int, meta.Object, error) {
		pod, err := c.Object()
		if err != nil {
			return 0, nil, err
		}
		container := ""
		if path != "portforward" {
			if container, err = podContainer(pod.Data(), c.Query.Get("container")); err != nil {
				return 0, nil, err
			}
		}
		nodeName := str(pod.Data(), "spec", "nodeName")
		if nodeName == "" {
			return 0, nil, meta.BadRequest(fmt.Sprintf("pod %s does not have a host assigned", c.Name))
		}
		host, err := kubeletAddress(c.Write, nodeName)
		if err != nil {
			return 0, nil, err
		}
		h := c.Request.Header
		upgrade := strings.Contains(strings.ToLower(h.Get("Connection")), "upgrade") && h.Get("Upgrade") != ""
		if !upgrade {
			return 0, nil, meta.BadRequest("Upgrade request required")
		}
		if strings.EqualFold(h.Get("Upgrade"), "websocket") && path != "portforward" {
			// kubectl 1.30+ speaks WebSockets; kube's translator then posts
			// the stream to the kubelet itself.
			kpath := map[string]string{"exec": "exec", "attach": "attach"}[path]
			q := url.Values{}
			for _, cmd := range c.Query["command"] {
				q.Add("command", cmd)
			}
			for k, v := range map[string]string{"stdin": "input", "stdout": "output", "stderr": "error", "tty": "tty"} {
				if b := c.Query.Get(k); b == "true" || b == "1" {
					q.Set(v, "1")
				}
			}
			u := fmt.Sprintf("https://%s/%s/%s/%s/%s?%s", host, kpath, c.Namespace, c.Name, container, q.Encode())
			return 0, nil, meta.Internal(fmt.Errorf("error sending request: Post %q: %v", u, dialKubelet(host)))
		}
		return 0, nil, kubeletUnreachable(host, func(e error) string { return "error dialing backend: " + e.Error() })
	}
}

// servePodProxy answers pods/proxy: kube proxies to the pod's IP, which a
// pod without a kubelet never has.
func servePodProxy(c *apiserver.SubresourceCall) (int, meta.Object, error) {
	name := c.Name
	if parts := strings.Split(name, ":"); len(parts) == 3 {
		name = parts[1]
	} else if len(parts) == 2 {
		name = parts[0]
	} else if len(parts) > 3 {
		return 0, nil, meta.BadRequest(fmt.Sprintf("invalid pod request %q", c.Name))
	}
	pod, err := c.Get(podsGR, c.Namespace, name)
	if err != nil {
		return 0, nil, err
	}
	ip := ""
	if ips := asList(field(pod.Data(), "status", "podIPs")); len(ips) > 0 {
		ip, _ = asMap(ips[0])["ip"].(string)
	}
	a, err := netip.ParseAddr(ip)
	if err != nil || !a.IsGlobalUnicast() {
		return 0, nil, meta.BadRequest("address not allowed")
	}
	return 0, nil, kubeletUnreachable(a.String(), func(e error) string { return "error trying to reach service: " + e.Error() })
}

// podContainer resolves a request's container as kube's validateContainer:
// the only one when none is named.
func podContainer(pod meta.Object, name string) (string, error) {
	var names []string
	for _, key := range []string{"initContainers", "containers", "ephemeralContainers"} {
		for _, c := range asList(field(pod, "spec", key)) {
			n, _ := asMap(c)["name"].(string)
			names = append(names, n)
		}
	}
	if name != "" {
		for _, n := range names {
			if n == name {
				return name, nil
			}
		}
		return "", meta.BadRequest(fmt.Sprintf("container %s is not valid for pod %s", name, pod.Name()))
	}
	containers := asList(field(pod, "spec", "containers"))
	switch len(containers) {
	case 1:
		n, _ := asMap(containers[0])["name"].(string)
		return n, nil
	case 0:
		return "", meta.BadRequest(fmt.Sprintf("a container name must be specified for pod %s", pod.Name()))
	}
	return "", meta.BadRequest(fmt.Sprintf("a container name must be specified for pod %s, choose one of: [%s]", pod.Name(),
		strings.Join(names, " ")))
}

// kubeletAddress is the host:port kube would reach a node's kubelet at:
// its first address of kube's preferred types, its kubelet endpoint's port
// (10250 unset). A node kube cannot find is reported as kube reports it:
// a pods NotFound naming the node.
func kubeletAddress(w *apiserver.Write, nodeName string) (string, error) {
	node, err := w.Get(nodesGR, "", nodeName)
	if err != nil {
		return "", meta.NotFound(podsGR, nodeName)
	}
	port := int64(10250)
	if p, ok := meta.AsInt64(field(node.Data(), "status", "daemonEndpoints", "kubeletEndpoint", "Port")); ok && p > 0 {
		port = p
	}
	addrs := asList(field(node.Data(), "status", "addresses"))
	for _, typ := range []string{"Hostname", "InternalDNS", "InternalIP", "ExternalDNS", "ExternalIP"} {
		for _, a := range addrs {
			m := asMap(a)
			if m["type"] == typ {
				if s, _ := m["address"].(string); s != "" {
					return net.JoinHostPort(s, fmt.Sprint(port)), nil
				}
			}
		}
	}
	var known []string
	for _, a := range addrs {
		m := asMap(a)
		known = append(known, fmt.Sprintf("{%v %v}", m["type"], m["address"]))
	}
	return "", &meta.Status{Kind: "Status", APIVersion: "v1", Status: "Failure", Code: http.StatusInternalServerError,
		Message: fmt.Sprintf("no preferred addresses found; known addresses: [%s]", strings.Join(known, " "))}
}

// kubeletUnreachable dials host as kube would and reports the failure in
// kube's words (500). kapi never talks to a kubelet: one that answers is
// reported as not spoken to.
func kubeletUnreachable(host string, words func(error) string) error {
	return &meta.Status{Kind: "Status", APIVersion: "v1", Status: "Failure", Message: words(dialKubelet(host)),
		Code: http.StatusInternalServerError}
}

// dialKubelet dials a kubelet's address and returns why kapi cannot talk
// to it.
func dialKubelet(host string) error {
	conn, err := net.DialTimeout("tcp", host, 2*time.Second)
	if err == nil {
		conn.Close()
		err = fmt.Errorf("kapi does not connect to kubelets")
	}
	return err
}

// podsOf lists the pods of a namespace a label selector (in its
// metav1.LabelSelector form) selects; a nil selector selects none, an empty
// one all, as a policy/v1 PodDisruptionBudget's.
func podsOf(w *apiserver.Write, namespace string, selector any) ([]*store.Object, error) {
	if selector == nil {
		return nil, nil
	}
	sel, ok := parseLabelSelector(selector)
	if !ok {
		return nil, nil
	}
	pods, err := w.List(podsGR, namespace)
	if err != nil {
		return nil, err
	}
	var out []*store.Object
	for _, p := range pods {
		if sel.Matches(p.Labels()) {
			out = append(out, p)
		}
	}
	return out, nil
}
