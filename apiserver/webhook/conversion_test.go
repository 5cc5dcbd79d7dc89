package webhook

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A conversion webhook that does not answer in time fails as kube's
// client words its own timeout (kube-apiserver 1.33 after 30 s: docs/kube-behaviour/12-policy.md).
func TestConversionTimeoutAsKube(t *testing.T) {
	hang := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body) // the server notices the client leave only once the body is read
		<-r.Context().Done()
	}))
	defer hang.Close()
	c := &Conversion{Clients: &Clients{}, Client: ClientConfig{URL: hang.URL + "/hang"}, Timeout: 200 * time.Millisecond}
	_, err := c.Convert(context.Background(), []map[string]any{{"apiVersion": "conv.example.com/v1", "kind": "Paint"}},
		"conv.example.com/v1, Kind=Paint", "conv.example.com/v2")
	require.Error(t, err)
	assert.Equal(t, `conversion webhook for conv.example.com/v1, Kind=Paint failed: Post "`+hang.URL+
		`/hang?timeout=1s": context deadline exceeded (Client.Timeout exceeded while awaiting headers)`, err.Error())
}
