package builtin

import (
	"fmt"
	"net/url"
	"strings"

	"github.com/kapi-dev/kapi/apiserver"
	"github.com/kapi-dev/kapi/meta"
)

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
