package builtin

import (
	"fmt"
	"math/big"
	"strings"

	"github.com/kapi-dev/kapi/selectors"
)

// Resource names and resource lists as kube's core validation checks them,
// in quotas, limit ranges, containers, volumes and runtime classes (with
// the Go renderings kube puts in its messages); quantities are quantity.go's.

// Resource names kube knows (pkg/apis/core/helper).
var (
	standardResourceNames = setOf("cpu", "memory", "ephemeral-storage", "requests.cpu", "requests.memory",
		"requests.ephemeral-storage", "limits.cpu", "limits.memory", "limits.ephemeral-storage", "pods", "resourcequotas",
		"services", "replicationcontrollers", "secrets", "configmaps", "persistentvolumeclaims", "storage",
		"requests.storage", "services.nodeports", "services.loadbalancers")
	standardQuotaResourceNames = setOf("cpu", "memory", "ephemeral-storage", "requests.cpu", "requests.memory",
		"requests.storage", "requests.ephemeral-storage", "limits.cpu", "limits.memory", "limits.ephemeral-storage",
		"pods", "resourcequotas", "services", "replicationcontrollers", "secrets", "persistentvolumeclaims", "configmaps",
		"services.nodeports", "services.loadbalancers")
	integerResourceNames = setOf("pods", "resourcequotas", "services", "replicationcontrollers", "secrets", "configmaps",
		"persistentvolumeclaims", "services.nodeports", "services.loadbalancers")
	standardContainerResourceNames = setOf("cpu", "memory", "ephemeral-storage")
)

func isHugePages(name string) bool { return strings.HasPrefix(name, "hugepages-") }

func isQuotaHugePages(name string) bool {
	return isHugePages(name) || strings.HasPrefix(name, "requests.hugepages-")
}

// isNativeResource: unqualified names and kubernetes.io ones are kube's.
func isNativeResource(name string) bool {
	return !strings.Contains(name, "/") || strings.Contains(name, "kubernetes.io/")
}

// isExtendedResource is a qualified resource of another domain, not a
// quota's requests.* name, that can be requested in a quota.
func isExtendedResource(name string) bool {
	if isNativeResource(name) || strings.HasPrefix(name, "requests.") {
		return false
	}
	return len(selectors.QualifiedNameErrors("requests."+name)) == 0
}

func isIntegerResource(name string) bool {
	return integerResourceNames[name] || isExtendedResource(name)
}

// resourceName is kube's validateResourceName: a qualified name, and a
// standard one unless it has a domain.
func (e *fieldErrs) resourceName(path, name string) bool {
	msgs := selectors.QualifiedNameErrors(name)
	e.invalidAll(path, plainName(name), msgs)
	if len(msgs) > 0 {
		return false
	}
	if !strings.Contains(name, "/") && !standardResourceNames[name] && !isQuotaHugePages(name) {
		e.invalid(path, plainName(name), "must be a standard resource type or fully qualified")
	}
	return true
}

// quotaResourceName is kube's validateResourceQuotaResourceName.
func (e *fieldErrs) quotaResourceName(path, name string) {
	e.resourceName(path, name)
	if !strings.Contains(name, "/") && !standardQuotaResourceNames[name] && !isQuotaHugePages(name) {
		e.invalid(path, plainName(name), "must be a standard resource for quota")
	}
}

// containerResourceName is kube's validateContainerResourceName.
func (e *fieldErrs) containerResourceName(path, name string) {
	e.resourceName(path, name)
	if !strings.Contains(name, "/") {
		if !standardContainerResourceNames[name] && !isHugePages(name) {
			e.invalid(path, plainName(name), "must be a standard resource for containers")
		}
	} else if !isNativeResource(name) && !isExtendedResource(name) {
		e.invalid(path, plainName(name), "doesn't follow extended resource name standard")
	}
}

// resourceQuantity is kube's ValidateResourceQuantityValue: not negative,
// whole for a resource counted in units.
func (e *fieldErrs) resourceQuantity(path, name string, v any) {
	q, ok := parseQuantity(v)
	if !ok {
		return
	}
	if q.Sign() < 0 {
		e.invalid(path, q.String(), "must be greater than or equal to 0")
	}
	if isIntegerResource(name) && new(big.Int).Rem(q.Milli(), big.NewInt(1000)).Sign() != 0 {
		e.invalid(path, quantityValue(q), "must be an integer")
	}
}

// resourceList checks each resource of a quota's list at path.
func (e *fieldErrs) quotaResourceList(path string, v any) {
	list := asMap(v)
	for _, k := range sortedMapKeys(list) {
		p := fmt.Sprintf("%s[%s]", path, k)
		e.quotaResourceName(p, k)
		e.resourceQuantity(p, k, list[k])
	}
}

// goResourceList renders a core.ResourceList as Go's %#v does.
// resourceListValue is a core.ResourceList: JSON maps each name to its
// quantity's canonical text.
func resourceListValue(v any) kubeValue {
	list := asMap(v)
	if list == nil {
		return kubeValue{goResourceList(v), "null"}
	}
	texts := make(map[string]any, len(list))
	for k, x := range list {
		if q, ok := parseQuantity(x); ok {
			texts[k] = q.String()
		} else {
			texts[k] = "0"
		}
	}
	return kubeValue{goResourceList(v), jsonText(texts)}
}

func goResourceList(v any) string {
	list := asMap(v)
	if list == nil {
		return "core.ResourceList(nil)"
	}
	parts := make([]string, 0, len(list))
	for _, k := range sortedMapKeys(list) {
		rep := ""
		if q, ok := parseQuantity(list[k]); ok {
			rep = q.GoString()
		}
		parts = append(parts, fmt.Sprintf("%q:%s", k, rep))
	}
	return "core.ResourceList{" + strings.Join(parts, ", ") + "}"
}

// standardContainerResources are the resources a container may ask for
// without a domain (besides hugepages-*).
var standardContainerResources = map[string]bool{"cpu": true, "memory": true, "ephemeral-storage": true}

// standardResources are the other resource names kube knows without a
// domain (quotas' and nodes').
var standardResources = map[string]bool{"cpu": true, "memory": true, "ephemeral-storage": true, "storage": true,
	"pods": true, "services": true, "replicationcontrollers": true, "resourcequotas": true, "secrets": true,
	"configmaps": true, "persistentvolumeclaims": true, "services.nodeports": true, "services.loadbalancers": true,
	"requests.cpu": true, "requests.memory": true, "requests.storage": true, "requests.ephemeral-storage": true,
	"limits.cpu": true, "limits.memory": true, "limits.ephemeral-storage": true}

// resourceLimits is the part of kube's ValidateResourceRequirements a
// list of limits gets (a RuntimeClass's overhead): each name a container
// resource, each quantity not negative. kube walks the map in Go's random
// order; kapi in the names' order.
func (e *fieldErrs) resourceLimits(path string, limits map[string]any) {
	for _, name := range sortedMapKeys(limits) {
		p := path + "[" + name + "]"
		e.invalidAll(p, name, selectors.QualifiedNameErrors(name))
		native := !strings.Contains(name, "/") || strings.Contains(strings.SplitN(name, "/", 2)[0], "kubernetes.io")
		if !strings.Contains(name, "/") {
			if !standardResources[name] && !strings.HasPrefix(name, "hugepages-") {
				e.invalid(p, plainName(name), "must be a standard resource type or fully qualified")
			}
			if !standardContainerResources[name] && !strings.HasPrefix(name, "hugepages-") {
				e.invalid(p, plainName(name), "must be a standard resource for containers")
			}
		} else if !native && strings.HasPrefix(name, "requests.") {
			e.invalid(p, plainName(name), "doesn't follow extended resource name standard")
		}
		q, _ := limits[name].(string)
		if negativeQuantity(q) {
			text, ok := canonicalQuantity(q)
			if !ok {
				text = q
			}
			e.invalid(p, text, "must be greater than or equal to 0")
		}
	}
}
