package builtin

import (
	"strings"
	"time"

	"github.com/kapi-dev/kapi/apiserver"
	"github.com/kapi-dev/kapi/meta"
)

// ipAddressResource is networking.k8s.io/v1 ipaddresses. Its table sends
// an age cell without a column, as kube's printer does.
func ipAddressResource() apiserver.Resource {
	return apiserver.Resource{StoredVersion: "v1beta1", Group: "networking.k8s.io", Version: "v1", Kind: "IPAddress", Plural: "ipaddresses",
		ShortNames: []string{"ip"}, WithoutGeneration: true, PrinterColumns: append(ipAddressColumns, ageColumn("")),
		GenericDelete: true, Strategy: ipAddressStrategy{}}
}

var ipAddressColumns = []apiserver.PrinterColumn{
	column("ParentRef", "string", propertyDoc("io.k8s.api.networking.v1.IPAddressSpec", "parentRef"), 0,
		func(o meta.Object, now time.Time) any {
			ref, ok := field(o, "spec", "parentRef").(map[string]any)
			if !ok {
				return "<none>"
			}
			name := strings.ToLower(stringOr(ref["resource"], ""))
			if g := strings.ToLower(stringOr(ref["group"], "")); g != "" {
				name += "." + g
			}
			if ns := stringOr(ref["namespace"], ""); ns != "" {
				name += "/" + ns
			}
			return name + "/" + stringOr(ref["name"], "")
		}),
}
