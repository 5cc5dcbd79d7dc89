package apiserver_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kapi-dev/kapi/apiserver"
	"github.com/kapi-dev/kapi/apiserver/builtin"
	"github.com/kapi-dev/kapi/internal/benchkit"
	"github.com/kapi-dev/kapi/store"
	"github.com/kapi-dev/kapi/store/memory"
)

// podNames lists pods through path, following continue tokens, and returns
// their namespace/name in list order.
func podNames(t *testing.T, h http.Handler, path string) []string {
	t.Helper()
	var names []string
	cont := ""
	for {
		p := path
		if cont != "" {
			p += "&continue=" + url.QueryEscape(cont)
		}
		body := benchkit.MustServe(t, h, http.StatusOK, http.MethodGet, p, "", nil)
		var list struct {
			Metadata struct{ Continue string }
			Items    []struct {
				Metadata struct{ Name, Namespace string }
			}
		}
		require.NoError(t, json.Unmarshal(body, &list))
		for _, it := range list.Items {
			names = append(names, it.Metadata.Namespace+"/"+it.Metadata.Name)
		}
		if cont = list.Metadata.Continue; cont == "" {
			return names
		}
	}
}

// indexSpy is a memory store that remembers the index each List named.
type indexSpy struct {
	*memory.Store
	indexes []string
}

func (s *indexSpy) List(ctx context.Context, prefix string, opts store.ListOptions) (store.ListResult, error) {
	s.indexes = append(s.indexes, opts.Index+"="+opts.IndexValue)
	return s.Store.List(ctx, prefix, opts)
}

func TestListsBySpecNodeNameReadThePodsOfThatNodeThroughTheStoreIndex(t *testing.T) {
	st := &indexSpy{Store: memory.New(memory.Config{})}
	srv, err := apiserver.New(apiserver.Config{Resources: builtin.Resources(), Store: st})
	require.NoError(t, err)
	benchkit.CreateNamespace(t, srv, "a")
	benchkit.CreateNamespace(t, srv, "b")
	pod := func(ns, name, node string) {
		spec := `"containers":[{"name":"c","image":"i"}]`
		if node != "" {
			spec += `,"nodeName":"` + node + `"`
		}
		benchkit.MustServe(t, srv, http.StatusCreated, http.MethodPost, "/api/v1/namespaces/"+ns+"/pods", "application/json",
			[]byte(fmt.Sprintf(`{"apiVersion":"v1","kind":"Pod","metadata":{"name":%q},"spec":{%s}}`, name, spec)))
	}
	pod("a", "p1", "n1")
	pod("a", "p2", "n2")
	pod("b", "p3", "n1")
	pod("b", "p4", "")
	pod("a", "p5", "n1")

	// The same answers as a scan; kube's are the same.
	const byNode = "pods spec.nodeName="
	tests := []struct {
		name, path string
		want       []string
		index      string // what the store was asked to read through
	}{
		{"one node, cluster-wide", "/api/v1/pods?fieldSelector=spec.nodeName%3Dn1", []string{"a/p1", "a/p5", "b/p3"}, byNode + "n1"},
		{"one node, in pages of one", "/api/v1/pods?limit=1&fieldSelector=spec.nodeName%3Dn1", []string{"a/p1", "a/p5", "b/p3"}, byNode + "n1"},
		{"one node, one namespace", "/api/v1/namespaces/b/pods?fieldSelector=spec.nodeName%3D%3Dn1", []string{"b/p3"}, byNode + "n1"},
		{"unscheduled pods", "/api/v1/pods?fieldSelector=spec.nodeName%3D", []string{"b/p4"}, byNode},
		{"a node without pods", "/api/v1/pods?fieldSelector=spec.nodeName%3Dn9", nil, byNode + "n9"},
		{"the index and another requirement", "/api/v1/pods?fieldSelector=spec.nodeName%3Dn1,metadata.name!%3Dp5", []string{"a/p1", "b/p3"}, byNode + "n1"},
		{"an inequality, without the index", "/api/v1/pods?fieldSelector=spec.nodeName!%3Dn1", []string{"a/p2", "b/p4"}, "="},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			st.indexes = nil
			assert.Equal(t, tt.want, podNames(t, srv, tt.path))
			require.NotEmpty(t, st.indexes)
			for _, ix := range st.indexes {
				assert.Equal(t, tt.index, ix)
			}
		})
	}

	t.Run("a deleted pod leaves its node's list", func(t *testing.T) {
		// A pod on a node is deleted gracefully: grace 0 removes it, as a kubelet does.
		benchkit.MustServe(t, srv, http.StatusOK, http.MethodDelete, "/api/v1/namespaces/a/pods/p1?gracePeriodSeconds=0", "", nil)
		assert.Equal(t, []string{"a/p5", "b/p3"}, podNames(t, srv, "/api/v1/pods?fieldSelector=spec.nodeName%3Dn1"))
	})
}
