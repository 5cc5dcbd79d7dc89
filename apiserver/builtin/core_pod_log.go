package builtin

import (
	"fmt"
	"net/http"

	"github.com/kapi-dev/kapi/apiserver"
	"github.com/kapi-dev/kapi/meta"
)

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
