package builtin

import (
	"fmt"
	"net/netip"
	"strings"

	"github.com/kapi-dev/kapi/apiserver"
	"github.com/kapi-dev/kapi/meta"
)

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
	if ips := meta.AsList(field(pod.Data(), "status", "podIPs")); len(ips) > 0 {
		ip, _ = asMap(ips[0])["ip"].(string)
	}
	a, err := netip.ParseAddr(ip)
	if err != nil || !a.IsGlobalUnicast() {
		return 0, nil, meta.BadRequest("address not allowed")
	}
	return 0, nil, kubeletUnreachable(a.String(), func(e error) string { return "error trying to reach service: " + e.Error() })
}
