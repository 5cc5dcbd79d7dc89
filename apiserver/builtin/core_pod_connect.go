package builtin

import (
	"fmt"
	"net"
	"net/http"
	"strings"
	"time"

	"github.com/kapi-dev/kapi/apiserver"
	"github.com/kapi-dev/kapi/meta"
)

// What a pod's connect subresources share (log, attach, exec, portforward,
// proxy: core_pod_log.go, core_pod_stream.go, core_pod_proxy.go): the
// container a request names and the address of its node's kubelet, as
// kube's pod storage (pkg/registry/core/pod) resolves them.

// podContainer resolves a request's container as kube's validateContainer:
// the only one when none is named.
func podContainer(pod meta.Object, name string) (string, error) {
	var names []string
	for _, key := range []string{"initContainers", "containers", "ephemeralContainers"} {
		for _, c := range meta.AsList(field(pod, "spec", key)) {
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
	containers := meta.AsList(field(pod, "spec", "containers"))
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
	addrs := meta.AsList(field(node.Data(), "status", "addresses"))
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
