package strategicpatch

import (
	"fmt"
	"testing"
)

// benchDeployment builds a Deployment-sized object: 8 containers, each with
// 3 ports, 20 environment variables, 4 volume mounts and resources, and 8
// volumes.
func benchDeployment() map[string]any {
	var containers, volumes []any
	for c := range 8 {
		var env, ports, mounts []any
		for i := range 20 {
			env = append(env, map[string]any{"name": fmt.Sprintf("VAR_%d", i), "value": fmt.Sprintf("value-%d", i)})
		}
		for i := range 3 {
			ports = append(ports, map[string]any{"containerPort": int64(8080 + i), "name": fmt.Sprintf("p%d", i), "protocol": "TCP"})
		}
		for i := range 4 {
			mounts = append(mounts, map[string]any{"name": fmt.Sprintf("vol-%d", i), "mountPath": fmt.Sprintf("/mnt/%d", i)})
		}
		containers = append(containers, map[string]any{
			"name":            fmt.Sprintf("ctr-%d", c),
			"image":           "registry.example.com/app:1.0",
			"imagePullPolicy": "IfNotPresent",
			"args":            []any{"--port=8080", "--verbose"},
			"ports":           ports,
			"env":             env,
			"volumeMounts":    mounts,
			"resources": map[string]any{
				"limits":   map[string]any{"cpu": "500m", "memory": "256Mi"},
				"requests": map[string]any{"cpu": "100m", "memory": "128Mi"},
			},
		})
	}
	for i := range 8 {
		volumes = append(volumes, map[string]any{"name": fmt.Sprintf("vol-%d", i), "emptyDir": map[string]any{}})
	}
	return map[string]any{
		"apiVersion": "apps/v1",
		"kind":       "Deployment",
		"metadata": map[string]any{
			"name": "bench", "namespace": "default", "resourceVersion": "42",
			"labels":     map[string]any{"app": "bench", "tier": "backend"},
			"finalizers": []any{"example.com/a", "example.com/b"},
		},
		"spec": map[string]any{
			"replicas": int64(3),
			"selector": map[string]any{"matchLabels": map[string]any{"app": "bench"}},
			"strategy": map[string]any{"type": "RollingUpdate", "rollingUpdate": map[string]any{"maxSurge": "25%"}},
			"template": map[string]any{
				"metadata": map[string]any{"labels": map[string]any{"app": "bench"}},
				"spec":     map[string]any{"containers": containers, "volumes": volumes, "restartPolicy": "Always"},
			},
		},
	}
}

func podSpecPatch(spec map[string]any) map[string]any {
	return map[string]any{"spec": map[string]any{"template": map[string]any{"spec": spec}}}
}

func benchApply(b *testing.B, patch map[string]any) {
	original, schema := benchDeployment(), deploymentSchema()
	if _, err := Apply(original, patch, schema); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Apply(original, patch, schema); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkCopyDeploymentBaseline is the floor of every Apply below: the
// copy of the original it starts from.
func BenchmarkCopyDeploymentBaseline(b *testing.B) {
	original := benchDeployment()
	b.ReportAllocs()
	for b.Loop() {
		_ = copyMap(original)
	}
}

// BenchmarkApplyContainerImage patches the image of one container (kubectl
// set image).
func BenchmarkApplyContainerImage(b *testing.B) {
	benchApply(b, podSpecPatch(map[string]any{
		"containers": []any{map[string]any{"name": "ctr-5", "image": "registry.example.com/app:2.0"}},
	}))
}

// BenchmarkApplyAddContainer adds a container.
func BenchmarkApplyAddContainer(b *testing.B) {
	benchApply(b, podSpecPatch(map[string]any{
		"containers": []any{map[string]any{"name": "sidecar", "image": "busybox", "args": []any{"sleep", "1d"}}},
	}))
}

// BenchmarkApplyKubectlApply patches as client-side kubectl apply does:
// $setElementOrder lists, env changes and deletions in several containers,
// a volume switched with $retainKeys.
func BenchmarkApplyKubectlApply(b *testing.B) {
	var order, ctrs []any
	for c := range 8 {
		order = append(order, map[string]any{"name": fmt.Sprintf("ctr-%d", c)})
	}
	for _, c := range []int{1, 4, 6} {
		var envOrder []any
		for i := range 20 {
			if i != 3 {
				envOrder = append(envOrder, map[string]any{"name": fmt.Sprintf("VAR_%d", i)})
			}
		}
		ctrs = append(ctrs, map[string]any{
			"name":                 fmt.Sprintf("ctr-%d", c),
			"$setElementOrder/env": envOrder,
			"env": []any{
				map[string]any{"name": "VAR_3", "$patch": "delete"},
				map[string]any{"name": "VAR_7", "value": "changed"},
			},
		})
	}
	benchApply(b, podSpecPatch(map[string]any{
		"$setElementOrder/containers": order,
		"containers":                  ctrs,
		"$setElementOrder/volumes":    []any{map[string]any{"name": "vol-0"}},
		"volumes": []any{map[string]any{
			"name": "vol-0", "$retainKeys": []any{"name", "hostPath"}, "hostPath": map[string]any{"path": "/data"},
		}},
	}))
}

// BenchmarkApplyLargeSet merges 1000 finalizers into 1000: the lookups are
// hashed, so this stays linear.
func BenchmarkApplyLargeSet(b *testing.B) {
	var have, add []any
	for i := range 1000 {
		have = append(have, fmt.Sprintf("example.com/f%d", i))
		add = append(add, fmt.Sprintf("example.com/g%d", i))
	}
	original := map[string]any{"metadata": map[string]any{"finalizers": have}}
	patch := map[string]any{"metadata": map[string]any{"finalizers": add}}
	schema := deploymentSchema()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Apply(original, patch, schema); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkFirstIndex chose scanLimit: it builds an index over n merge keys
// and looks each up once, by linear scan and by hash.
func BenchmarkFirstIndex(b *testing.B) {
	for _, n := range []int{8, 16, 32, 64} {
		keys := make([]any, n)
		for i := range keys {
			keys[i] = fmt.Sprintf("container-%d", i)
		}
		for _, mode := range []string{"scan", "hash"} {
			b.Run(fmt.Sprintf("%s/%d", mode, n), func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					x := &firstIndex{keys: keys}
					if mode == "hash" {
						x.hash()
					}
					for _, k := range keys {
						if x.find(k) < 0 {
							b.Fatal("not found")
						}
					}
				}
			})
		}
	}
}
