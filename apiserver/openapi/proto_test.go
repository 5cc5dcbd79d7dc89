package openapi_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"google.golang.org/protobuf/encoding/protowire"

	"github.com/kapi-dev/kapi/apiserver/openapi"
)

// fields decodes one protobuf message into its fields by number (bytes
// fields only, the others as nil), for structural checks.
func fields(t *testing.T, b []byte) map[protowire.Number][][]byte {
	t.Helper()
	out := map[protowire.Number][][]byte{}
	for len(b) > 0 {
		num, typ, n := protowire.ConsumeTag(b)
		require.GreaterOrEqual(t, n, 0)
		b = b[n:]
		var v []byte
		switch typ {
		case protowire.BytesType:
			v, n = protowire.ConsumeBytes(b)
		default:
			n = protowire.ConsumeFieldValue(num, typ, b)
		}
		require.GreaterOrEqual(t, n, 0)
		b = b[n:]
		out[num] = append(out[num], v)
	}
	return out
}

// named returns the NamedX entries of a map-like message (field 1 or 2 of
// repeated {name=1, value=2}) by name.
func named(t *testing.T, entries [][]byte) map[string][]byte {
	out := map[string][]byte{}
	for _, e := range entries {
		f := fields(t, e)
		out[string(f[1][0])] = f[2][0]
	}
	return out
}

func TestSwaggerV2ProtobufIsGnosticsDocument(t *testing.T) {
	v2, err := openapi.SwaggerV2(append(builtinResources(), widget(t)), opts())
	require.NoError(t, err)
	pb, err := openapi.SwaggerV2Protobuf(v2)
	require.NoError(t, err)

	doc := fields(t, pb)
	assert.Equal(t, "2.0", string(doc[1][0]), "swagger")
	info := fields(t, doc[2][0])
	assert.Equal(t, "Kubernetes", string(info[1][0]))
	assert.Equal(t, "1.33", string(info[2][0]))

	defs := named(t, fields(t, doc[9][0])[1])
	dep, ok := defs["io.k8s.api.apps.v1.Deployment"]
	require.True(t, ok)
	depFields := fields(t, dep)
	assert.Equal(t, "object", string(fields(t, depFields[22][0])[1][0]), "type")
	ext := named(t, depFields[31])
	assert.Equal(t, "- group: apps\n  kind: Deployment\n  version: v1\n", string(fields(t, ext["x-kubernetes-group-version-kind"])[2][0]),
		"vendor extensions are YAML in Any.yaml, which kubectl reads to find a kind's definition")
	props := named(t, fields(t, depFields[25][0])[1])
	assert.Contains(t, props, "spec")

	paths := named(t, fields(t, doc[8][0])[2])
	item := fields(t, paths["/apis/apps/v1/namespaces/{namespace}/deployments/{name}"])
	patch := fields(t, item[8][0])
	assert.Equal(t, "patchAppsV1NamespacedDeployment", string(patch[5][0]))
	var params []string
	for _, p := range patch[8] {
		param := fields(t, fields(t, p)[1][0])
		if body, ok := param[1]; ok {
			params = append(params, string(fields(t, body[0])[2][0]))
			continue
		}
		query := fields(t, fields(t, param[2][0])[3][0])
		params = append(params, string(query[4][0]))
	}
	assert.Equal(t, []string{"body", "dryRun", "fieldManager", "fieldValidation", "force"}, params)

	again, err := openapi.SwaggerV2Protobuf(v2)
	require.NoError(t, err)
	assert.Equal(t, pb, again, "deterministic")
}
