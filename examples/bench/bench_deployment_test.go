package bench

// The GET, create and LIST rows for a Deployment-sized object
// (~4 KiB of JSON, the size of a real workload with a pod template), beside
// the ConfigMap rows: the built-in kinds' defaults, schema and
// encoding rules run on every write of it.

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strconv"
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"

	"github.com/kapi-dev/kapi/internal/benchkit"
)

// newDeployment is a realistic Deployment of ~4 KiB once stored (with
// kube's defaults and its creator's managedFields): labels and
// annotations, a container with ports, env, resources, probes and mounts,
// volumes, affinity.
func newDeployment(name string) *appsv1.Deployment {
	replicas := int32(3)
	labels := map[string]string{"app.kubernetes.io/name": "web", "app.kubernetes.io/instance": name, "tier": "frontend"}
	env := make([]corev1.EnvVar, 0, 12)
	for i := range 2 {
		env = append(env, corev1.EnvVar{Name: fmt.Sprintf("SETTING_%02d", i), Value: fmt.Sprintf("value-of-setting-%02d", i)})
	}
	env = append(env, corev1.EnvVar{Name: "POD_NAME", ValueFrom: &corev1.EnvVarSource{FieldRef: &corev1.ObjectFieldSelector{FieldPath: "metadata.name"}}})
	probe := &corev1.Probe{ProbeHandler: corev1.ProbeHandler{HTTPGet: &corev1.HTTPGetAction{Path: "/healthz", Port: intstr.FromString("http")}},
		InitialDelaySeconds: 5}
	container := func(n, image string, port int32) corev1.Container {
		return corev1.Container{Name: n, Image: image, Env: env,
			Ports: []corev1.ContainerPort{{Name: "http", ContainerPort: port}, {Name: "metrics", ContainerPort: port + 1000}},
			Resources: corev1.ResourceRequirements{
				Requests: corev1.ResourceList{corev1.ResourceCPU: resource.MustParse("250m"), corev1.ResourceMemory: resource.MustParse("128Mi")},
				Limits:   corev1.ResourceList{corev1.ResourceCPU: resource.MustParse("1"), corev1.ResourceMemory: resource.MustParse("256Mi")},
			},
			ReadinessProbe: probe, LivenessProbe: probe,
			VolumeMounts: []corev1.VolumeMount{{Name: "config", MountPath: "/etc/config"}, {Name: "cache", MountPath: "/cache"}}}
	}
	return &appsv1.Deployment{
		ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: "bench", Labels: labels,
			Annotations: map[string]string{"deployment.kubernetes.io/revision": "1", "team": "payments"}},
		Spec: appsv1.DeploymentSpec{
			Replicas: &replicas,
			Selector: &metav1.LabelSelector{MatchLabels: labels},
			Template: corev1.PodTemplateSpec{
				ObjectMeta: metav1.ObjectMeta{Labels: labels, Annotations: map[string]string{"prometheus.io/scrape": "true"}},
				Spec: corev1.PodSpec{
					Containers: []corev1.Container{container("web", "registry.example.com/web:1.27.3", 8080)},
					Volumes: []corev1.Volume{
						{Name: "config", VolumeSource: corev1.VolumeSource{ConfigMap: &corev1.ConfigMapVolumeSource{
							LocalObjectReference: corev1.LocalObjectReference{Name: "web-config"}}}},
						{Name: "cache", VolumeSource: corev1.VolumeSource{EmptyDir: &corev1.EmptyDirVolumeSource{}}},
					},
					Affinity: &corev1.Affinity{PodAntiAffinity: &corev1.PodAntiAffinity{
						PreferredDuringSchedulingIgnoredDuringExecution: []corev1.WeightedPodAffinityTerm{{Weight: 100,
							PodAffinityTerm: corev1.PodAffinityTerm{TopologyKey: "kubernetes.io/hostname",
								LabelSelector: &metav1.LabelSelector{MatchLabels: labels}}}}}},
				},
			},
		},
	}
}

// deploymentName is the name of the i-th benchmark Deployment.
func deploymentName(i int) string { return fmt.Sprintf("web-%06d", i) }

// loadDeployments creates n Deployments through the handler.
func loadDeployments(b *testing.B, h http.Handler, n int) {
	b.Helper()
	for i := range n {
		body, err := json.Marshal(newDeployment(deploymentName(i)))
		if err != nil {
			b.Fatal(err)
		}
		benchkit.MustServe(b, h, http.StatusCreated, http.MethodPost, "/apis/apps/v1/namespaces/bench/deployments", "application/json", body)
	}
}

// BenchmarkDeployment: GET one stored Deployment (8 parallel keep-alive
// clients) and LIST 1,000 of them, each against a bare handler writing the
// same bytes; create through client-go's typed clientset (JSON and
// protobuf) against the fake clientset. The stored object's JSON size is
// reported (bytes/object).
func BenchmarkDeployment(b *testing.B) {
	srv := newExampleServer(b, exampleConfig())
	benchkit.CreateNamespace(b, srv, "bench")
	loadDeployments(b, srv, 1000)
	kapi := httptest.NewServer(srv)
	defer kapi.Close()
	setup := &http.Client{Transport: benchkit.Transport(1)}
	getPath := "/apis/apps/v1/namespaces/bench/deployments/" + deploymentName(0)
	const listPath = "/apis/apps/v1/namespaces/bench/deployments"
	var buf bytes.Buffer
	if err := get(setup, kapi.URL+getPath, "application/json", &buf); err != nil {
		b.Fatal(err)
	}
	one := bytes.Clone(buf.Bytes())
	if err := get(setup, kapi.URL+listPath, "application/json", &buf); err != nil {
		b.Fatal(err)
	}
	list := bytes.Clone(buf.Bytes())
	setup.CloseIdleConnections()
	bare := httptest.NewServer(&bareHandler{contentType: "application/json", bodies: map[string][]byte{getPath: one, listPath: list}})
	defer bare.Close()

	b.Run("get", func(b *testing.B) {
		run := func(b *testing.B, url string) float64 {
			client := &http.Client{Transport: benchkit.Transport(64)}
			defer client.CloseIdleConnections()
			b.SetParallelism(4)
			cpu := benchkit.MeterCPU(b)
			b.ResetTimer()
			b.RunParallel(func(pb *testing.PB) {
				var buf bytes.Buffer
				for pb.Next() {
					if err := get(client, url, "application/json", &buf); err != nil {
						b.Error(err)
						return
					}
				}
			})
			b.StopTimer()
			cpu.Report(b.N)
			b.ReportMetric(float64(len(one)), "bytes/object")
			rate := benchkit.PerSecond(float64(b.N), b.Elapsed())
			b.ReportMetric(rate, "req/s")
			return rate
		}
		var sp benchkit.Speed
		b.Run("baseline", func(b *testing.B) { sp.SetBaseline(run(b, bare.URL+getPath)) })
		b.Run("kapi", func(b *testing.B) { sp.Report(b, run(b, kapi.URL+getPath)) })
	})

	b.Run("list", func(b *testing.B) {
		run := func(b *testing.B, url string) float64 {
			client := &http.Client{Transport: benchkit.Transport(1)}
			defer client.CloseIdleConnections()
			var buf bytes.Buffer
			cpu := benchkit.MeterCPU(b)
			for b.Loop() {
				if err := get(client, url, "application/json", &buf); err != nil {
					b.Fatal(err)
				}
			}
			cpu.Report(b.N)
			rate := benchkit.PerSecond(float64(b.N)*float64(len(list)), b.Elapsed()) / 1e6
			b.ReportMetric(rate, "MB/s")
			return rate
		}
		var sp benchkit.Speed
		b.Run("baseline", func(b *testing.B) { sp.SetBaseline(run(b, bare.URL+listPath)) })
		b.Run("kapi", func(b *testing.B) { sp.Report(b, run(b, kapi.URL+listPath)) })
	})

	b.Run("create", func(b *testing.B) {
		ctx := context.Background()
		var sp benchkit.Speed
		for _, c := range writeClients(b) {
			b.Run(c.name, func(b *testing.B) {
				cs := c.new(b)
				deployments := cs.AppsV1().Deployments("bench")
				cpu := benchkit.MeterCPU(b)
				i := 0
				for b.Loop() {
					if _, err := deployments.Create(ctx, newDeployment("new-"+strconv.Itoa(i)), metav1.CreateOptions{}); err != nil {
						b.Fatal(err)
					}
					i++
				}
				cpu.Report(i)
				rate := benchkit.PerSecond(float64(i), b.Elapsed())
				b.ReportMetric(rate, "writes/s")
				if c.name == "baseline" {
					sp.SetBaseline(rate)
				} else {
					sp.Report(b, rate)
				}
			})
		}
	})
}
