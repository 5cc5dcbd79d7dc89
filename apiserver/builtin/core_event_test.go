package builtin_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestCoreEventsAreNamedByPathSegments holds core v1 Events to kube's
// name rule for them, the registry's common one (kube validates no other
// ObjectMeta of a legacy event): a generateName "web-0." names the event
// "web-0.<suffix>", while events.k8s.io/v1 checks DNS subdomains.
func TestCoreEventsAreNamedByPathSegments(t *testing.T) {
	srv := newBuiltinServer(t)
	const event = `"involvedObject":{"kind":"Pod","name":"web-0","namespace":"default"},"reason":"R","type":"Normal"`
	code, out := serve(t, srv, "POST", "/api/v1/namespaces/default/events", "application/json",
		`{"metadata":{"generateName":"web-0."},`+event+`}`)
	require.Equal(t, http.StatusCreated, code, out)
	name := out["metadata"].(map[string]any)["name"].(string)
	assert.True(t, strings.HasPrefix(name, "web-0.") && len(name) == len("web-0.")+5, name)

	code, out = serve(t, srv, "POST", "/api/v1/namespaces/default/events", "application/json", `{"metadata":{"name":"a%b"},`+event+`}`)
	require.Equal(t, http.StatusUnprocessableEntity, code, out)
	assert.Equal(t, `Event "a%b" is invalid: metadata.name: Invalid value: "a%b": may not contain '%'`, out["message"])

	code, out = serve(t, srv, "POST", "/apis/events.k8s.io/v1/namespaces/default/events", "application/json",
		`{"metadata":{"generateName":"web-0."},"eventTime":"2026-01-01T00:00:00.000000Z","reportingController":"example.com/c",
		  "reportingInstance":"i","action":"A","reason":"R","type":"Normal","regarding":{"kind":"Pod","name":"web-0","namespace":"default"}}`)
	require.Equal(t, http.StatusUnprocessableEntity, code, out)
	assert.Contains(t, out["message"], `metadata.generateName: Invalid value: "web-0.": a lowercase RFC 1123 subdomain`)
}
