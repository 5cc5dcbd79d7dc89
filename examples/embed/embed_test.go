package embed_test

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/kapi-dev/kapi/apiserver"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"
)

// Example mounts kapi under /kube/ of a service's own mux, next to the
// service's other handlers, and talks to it over plain HTTP.
func Example() {
	kube, err := apiserver.New(apiserver.Config{Resources: []apiserver.Resource{
		{Version: "v1", Kind: "ConfigMap", Plural: "configmaps", Namespaced: true, ShortNames: []string{"cm"}},
	}})
	if err != nil {
		panic(err)
	}
	mux := http.NewServeMux()
	mux.HandleFunc("/hello", func(w http.ResponseWriter, r *http.Request) { fmt.Fprint(w, "hello") })
	mux.Handle("/kube/", http.StripPrefix("/kube", kube))
	srv := httptest.NewServer(mux)
	defer srv.Close()

	body := `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"settings"},"data":{"color":"blue"}}`
	resp, err := http.Post(srv.URL+"/kube/api/v1/namespaces/default/configmaps", "application/json", strings.NewReader(body))
	if err != nil {
		panic(err)
	}
	resp.Body.Close()
	fmt.Println("create:", resp.Status)

	resp, err = http.Get(srv.URL + "/hello")
	if err != nil {
		panic(err)
	}
	greeting, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	fmt.Println("own handler:", string(greeting))
	// Output:
	// create: 201 Created
	// own handler: hello
}

func TestClientGoThroughAPrefix(t *testing.T) {
	kube, err := apiserver.New(apiserver.Config{Resources: []apiserver.Resource{
		{Version: "v1", Kind: "ConfigMap", Plural: "configmaps", Namespaced: true},
	}})
	require.NoError(t, err)
	mux := http.NewServeMux()
	mux.Handle("/kube/", http.StripPrefix("/kube", kube))
	srv := httptest.NewServer(mux)
	defer srv.Close()

	cs, err := kubernetes.NewForConfig(&rest.Config{Host: srv.URL + "/kube", ContentConfig: rest.ContentConfig{ContentType: "application/json"}})
	require.NoError(t, err)
	ctx := context.Background()
	_, err = cs.CoreV1().ConfigMaps("default").Create(ctx, &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: "a"}}, metav1.CreateOptions{})
	require.NoError(t, err)
	list, err := cs.CoreV1().ConfigMaps("default").List(ctx, metav1.ListOptions{})
	require.NoError(t, err)
	assert.Len(t, list.Items, 1)
	groups, err := cs.Discovery().ServerGroups()
	require.NoError(t, err)
	assert.NotEmpty(t, groups.Groups)
}
