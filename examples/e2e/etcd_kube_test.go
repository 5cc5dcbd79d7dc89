package e2e

import (
	"context"
	"crypto/rand"
	"crypto/rsa"
	"crypto/tls"
	"crypto/x509"
	"encoding/pem"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"

	"github.com/kapi-dev/kapi/store/etcd/etcdtest"
)

// kubeApiserverBinary finds the reference kube-apiserver
// (shared/reference-server builds it), or skips the test with the reason.
func kubeApiserverBinary(t *testing.T) string {
	t.Helper()
	bin := os.Getenv("KAPI_REFERENCE_KUBE_APISERVER")
	if bin == "" {
		home, _ := os.UserHomeDir()
		bin = filepath.Join(home, ".cache", "kapi-reference", "bin", "kube-apiserver")
	}
	if _, err := os.Stat(bin); err != nil {
		t.Skipf("no reference kube-apiserver at %s (shared/reference-server/build/build.sh builds one): %v", bin, err)
	}
	return bin
}

// startKubeApiserver runs the reference kube-apiserver over the etcd at
// endpoints on a loopback port and returns a client configuration for it.
func startKubeApiserver(t *testing.T, endpoints []string) *rest.Config {
	t.Helper()
	bin := kubeApiserverBinary(t)
	dir := t.TempDir()
	key, err := rsa.GenerateKey(rand.Reader, 2048)
	require.NoError(t, err)
	pub, err := x509.MarshalPKIXPublicKey(&key.PublicKey)
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(filepath.Join(dir, "sa.key"), pem.EncodeToMemory(&pem.Block{Type: "RSA PRIVATE KEY", Bytes: x509.MarshalPKCS1PrivateKey(key)}), 0o600))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "sa.pub"), pem.EncodeToMemory(&pem.Block{Type: "PUBLIC KEY", Bytes: pub}), 0o600))
	const token = "e2e-admin-token"
	require.NoError(t, os.WriteFile(filepath.Join(dir, "tokens.csv"), []byte(token+`,admin,admin-uid,"system:masters"`+"\n"), 0o600))
	l, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	port := l.Addr().(*net.TCPAddr).Port
	l.Close()

	cmd := exec.Command(bin,
		"--bind-address=127.0.0.1", "--advertise-address=127.0.0.1", "--endpoint-reconciler-type=none",
		fmt.Sprintf("--secure-port=%d", port), "--cert-dir="+filepath.Join(dir, "certs"),
		"--etcd-servers="+endpoints[0], "--service-cluster-ip-range=10.96.0.0/16",
		"--authorization-mode=AlwaysAllow", "--token-auth-file="+filepath.Join(dir, "tokens.csv"),
		"--service-account-issuer=https://kubernetes.default.svc.cluster.local",
		"--service-account-key-file="+filepath.Join(dir, "sa.pub"),
		"--service-account-signing-key-file="+filepath.Join(dir, "sa.key"),
		"--disable-admission-plugins=ServiceAccount")
	logFile, err := os.Create(filepath.Join(dir, "kube-apiserver.log"))
	require.NoError(t, err)
	cmd.Stdout, cmd.Stderr = logFile, logFile
	require.NoError(t, cmd.Start())
	t.Cleanup(func() {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
		logFile.Close()
	})

	cfg := &rest.Config{
		Host:            fmt.Sprintf("https://127.0.0.1:%d", port),
		BearerToken:     token,
		TLSClientConfig: rest.TLSClientConfig{Insecure: true},
	}
	client := &http.Client{Timeout: 2 * time.Second, Transport: &http.Transport{TLSClientConfig: &tls.Config{InsecureSkipVerify: true}}}
	deadline := time.Now().Add(90 * time.Second)
	for {
		req, _ := http.NewRequest(http.MethodGet, cfg.Host+"/readyz", nil)
		req.Header.Set("Authorization", "Bearer "+token)
		resp, err := client.Do(req)
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return cfg
			}
		}
		if time.Now().After(deadline) {
			log, _ := os.ReadFile(logFile.Name())
			t.Fatalf("kube-apiserver not ready after 90s: %v\n%s", err, tail(log, 3000))
		}
		time.Sleep(200 * time.Millisecond)
	}
}

func tail(b []byte, n int) []byte {
	if len(b) > n {
		return b[len(b)-n:]
	}
	return b
}

var widgets = schema.GroupVersionResource{Group: "example.com", Version: "v1", Resource: "widgets"}

func widgetObject(name string, size int64) *unstructured.Unstructured {
	return &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "example.com/v1", "kind": "Widget",
		"metadata": map[string]any{"name": name}, "spec": map[string]any{"size": size},
	}}
}

func TestKapiAndKubeApiserverOnOneEtcdReadEachOthersObjects(t *testing.T) {
	etcdCluster := etcdtest.Start(t)
	kubeCfg := startKubeApiserver(t, etcdCluster.Endpoints())
	kapi, _ := startOnEtcd(t, etcdCluster.Endpoints())
	ctx := t.Context()

	// The CRD goes through kapi (stored as JSON, which kube reads too);
	// kube serves its custom resources once its controllers saw it.
	kapi.mustKubectl("1.33", "get", "ns") // the server is up
	out, err := kapi.kubectlStdin("1.33", widgetCRD, "apply", "-f", "-")
	require.NoError(t, err, out)
	kubeDyn, err := dynamic.NewForConfig(kubeCfg)
	require.NoError(t, err)
	require.Eventually(t, func() bool {
		_, err := kubeDyn.Resource(widgets).Namespace("default").List(ctx, metav1.ListOptions{})
		return err == nil
	}, 60*time.Second, 200*time.Millisecond, "kube-apiserver never served the CRD kapi stored")

	kube, err := kubernetes.NewForConfig(kubeCfg)
	require.NoError(t, err)
	kapiCS := clientset(t, kapi.restConfig())
	kapiDyn, err := dynamic.NewForConfig(kapi.restConfig())
	require.NoError(t, err)

	servers := []struct {
		name string
		cs   kubernetes.Interface
		dyn  dynamic.Interface
	}{{"kube", kube, kubeDyn}, {"kapi", kapiCS, kapiDyn}}
	type written struct{ cm, deploy, widget metav1.Object }
	wrote := map[string]written{}
	for _, s := range servers {
		cm, err := s.cs.CoreV1().ConfigMaps("default").Create(ctx, &corev1.ConfigMap{
			ObjectMeta: metav1.ObjectMeta{Name: "from-" + s.name}, Data: map[string]string{"by": s.name},
		}, metav1.CreateOptions{})
		require.NoError(t, err, s.name)
		d, err := s.cs.AppsV1().Deployments("default").Create(ctx, deployment("from-"+s.name), metav1.CreateOptions{})
		require.NoError(t, err, s.name)
		w, err := s.dyn.Resource(widgets).Namespace("default").Create(ctx, widgetObject("from-"+s.name, 3), metav1.CreateOptions{})
		require.NoError(t, err, s.name)
		wrote[s.name] = written{cm, d, w}
	}

	for _, reader := range servers {
		for _, writer := range servers {
			if reader.name == writer.name {
				continue
			}
			want := wrote[writer.name]
			name := "from-" + writer.name
			cm, err := reader.cs.CoreV1().ConfigMaps("default").Get(ctx, name, metav1.GetOptions{})
			require.NoError(t, err, "%s reads %s's ConfigMap", reader.name, writer.name)
			assert.Equal(t, want.cm.GetUID(), cm.UID)
			assert.Equal(t, want.cm.GetResourceVersion(), cm.ResourceVersion)
			assert.Equal(t, writer.name, cm.Data["by"])

			d, err := reader.cs.AppsV1().Deployments("default").Get(ctx, name, metav1.GetOptions{})
			require.NoError(t, err, "%s reads %s's Deployment", reader.name, writer.name)
			assert.Equal(t, want.deploy.GetUID(), d.UID)
			assert.Equal(t, want.deploy.GetResourceVersion(), d.ResourceVersion)
			assert.Equal(t, "nginx", d.Spec.Template.Spec.Containers[0].Image)

			w, err := reader.dyn.Resource(widgets).Namespace("default").Get(ctx, name, metav1.GetOptions{})
			require.NoError(t, err, "%s reads %s's Widget", reader.name, writer.name)
			assert.Equal(t, want.widget.GetUID(), w.GetUID())
			assert.Equal(t, want.widget.GetResourceVersion(), w.GetResourceVersion())
			size, _, _ := unstructured.NestedInt64(w.Object, "spec", "size")
			assert.Equal(t, int64(3), size)
		}
	}

	// A watch through kube sees an update made through kapi.
	list, err := kube.CoreV1().ConfigMaps("default").List(ctx, metav1.ListOptions{})
	require.NoError(t, err)
	watcher, err := kube.CoreV1().ConfigMaps("default").Watch(ctx, metav1.ListOptions{ResourceVersion: list.ResourceVersion})
	require.NoError(t, err)
	defer watcher.Stop()
	cm, err := kapiCS.CoreV1().ConfigMaps("default").Get(ctx, "from-kube", metav1.GetOptions{})
	require.NoError(t, err)
	cm.Data["by"] = "kapi too"
	updated, err := kapiCS.CoreV1().ConfigMaps("default").Update(ctx, cm, metav1.UpdateOptions{})
	require.NoError(t, err)
	wctx, cancel := context.WithTimeout(ctx, 2*time.Minute)
	defer cancel()
	for {
		select {
		case ev := <-watcher.ResultChan():
			got, ok := ev.Object.(*corev1.ConfigMap)
			if !ok || got.Name != "from-kube" {
				continue
			}
			assert.Equal(t, updated.ResourceVersion, got.ResourceVersion)
			assert.Equal(t, "kapi too", got.Data["by"])
			return
		case <-wctx.Done():
			t.Fatal("kube's watch never saw kapi's update")
		}
	}
}
