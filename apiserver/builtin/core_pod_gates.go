package builtin

import "github.com/kapi-dev/kapi/meta"

// Pod fields whose feature gate is off by default in every release kapi
// serves: kube's pod strategy drops them from a new pod, and from an
// updated one unless the stored pod already uses them
// (pkg/api/pod.dropDisabledFields). The schemas keep them, as kube's do.
//
//   - containers[].lifecycle.stopSignal: ContainerStopSignals, alpha
//     since 1.33 (an emptied lifecycle is removed with it);
//   - spec.schedulingGroup: GenericWorkload, beta and off in 1.37.

// dropDisabledPodFields drops from spec what the gates off by default
// forbid, keeping what oldSpec (nil on a create) already uses.
func dropDisabledPodFields(spec, oldSpec map[string]any) {
	if spec == nil {
		return
	}
	if !stopSignalsInUse(oldSpec) {
		eachContainer(spec, func(c map[string]any) {
			lc, ok := c["lifecycle"].(map[string]any)
			if !ok {
				return
			}
			if _, set := lc["stopSignal"]; set {
				delete(lc, "stopSignal")
				if len(lc) == 0 {
					delete(c, "lifecycle")
				}
			}
		})
	}
	if _, used := oldSpec["schedulingGroup"]; !used {
		delete(spec, "schedulingGroup")
	}
}

func stopSignalsInUse(spec map[string]any) bool {
	used := false
	eachContainer(spec, func(c map[string]any) {
		if lc, ok := c["lifecycle"].(map[string]any); ok && lc["stopSignal"] != nil {
			used = true
		}
	})
	return used
}

// eachContainer calls f with every container, init container and
// ephemeral container of a pod spec.
func eachContainer(spec map[string]any, f func(map[string]any)) {
	for _, key := range []string{"initContainers", "containers", "ephemeralContainers"} {
		for _, c := range meta.AsList(spec[key]) {
			if m, ok := c.(map[string]any); ok {
				f(m)
			}
		}
	}
}
