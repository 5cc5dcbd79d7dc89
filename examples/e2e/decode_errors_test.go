package e2e

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestAProtobufBodyThatIsNoneIsKubesSerializerError holds the example
// server to kube-apiserver 1.33's words for a protobuf body it cannot read
// (docs/kube-behaviour/08-fidelity.md): its protobuf serializer's, without
// the JSON reading's "couldn't get version/kind".
func TestAProtobufBodyThatIsNoneIsKubesSerializerError(t *testing.T) {
	c := startCluster(t)
	for _, tc := range []struct{ body, message string }{
		{`{"apiVersion":"v1","kind":"ConfigMap"}`, `the object provided is unrecognized (must be of type ConfigMap): provided data does not appear to be a protobuf message, expected prefix [107 56 115 0] ({"apiVersion":"v1","kind":"Con ...)`},
		{"", "the object provided is unrecognized (must be of type ConfigMap): empty data (<empty>)"},
	} {
		req, err := http.NewRequest(http.MethodPost, c.url+"/api/v1/namespaces/default/configmaps", bytes.NewReader([]byte(tc.body)))
		require.NoError(t, err)
		req.Header.Set("Content-Type", "application/vnd.kubernetes.protobuf")
		resp, err := http.DefaultClient.Do(req)
		require.NoError(t, err)
		body, err := io.ReadAll(resp.Body)
		resp.Body.Close()
		require.NoError(t, err)
		require.Equal(t, http.StatusBadRequest, resp.StatusCode, string(body))
		var status struct{ Message string }
		require.NoError(t, json.Unmarshal(body, &status))
		assert.Equal(t, tc.message, status.Message)
	}
}
