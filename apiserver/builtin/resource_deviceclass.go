package builtin

import "github.com/kapi-dev/kapi/apiserver"

// deviceClassResource is resource.k8s.io/v1 deviceclasses (dynamic
// resource allocation, GA and on by default since 1.34).
func deviceClassResource() apiserver.Resource {
	return apiserver.Resource{ReturnDeletedObject: true, Group: "resource.k8s.io", Version: "v1", Kind: "DeviceClass", Plural: "deviceclasses",
		PrinterColumns: []apiserver.PrinterColumn{apiserver.AgeColumn()}}
}
