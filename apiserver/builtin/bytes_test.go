package builtin_test

import (
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestBytesFieldsDecodeAsKubesTypedDecoding holds a `format: byte` field of
// a built-in kind (a Secret's data) to what kube-apiserver 1.33 answered:
// Go's []byte decoding, which takes any standard base64 text (the empty
// string included, which a custom resource's schema refuses) and words
// what it refuses as a decoding error, not a schema one.
func TestBytesFieldsDecodeAsKubesTypedDecoding(t *testing.T) {
	srv := newBuiltinServer(t)
	for value, want := range map[string]string{
		`""`:     "",
		`"YQ=="`: "",
		`"!!"`:   `Secret in version "v1" cannot be handled as a Secret: illegal base64 data at input byte 0`,
		`"YQ"`:   `Secret in version "v1" cannot be handled as a Secret: illegal base64 data at input byte 0`,
		`5`:      `Secret in version "v1" cannot be handled as a Secret: json: cannot unmarshal number into Go struct field Secret.data of type []uint8`,
		`{}`:     `Secret in version "v1" cannot be handled as a Secret: json: cannot unmarshal object into Go struct field Secret.data of type []uint8`,
		`true`:   `Secret in version "v1" cannot be handled as a Secret: json: cannot unmarshal bool into Go struct field Secret.data of type []uint8`,
	} {
		t.Run(value, func(t *testing.T) {
			code, body := serve(t, srv, "POST", "/api/v1/namespaces/default/secrets", "application/json",
				`{"metadata":{"generateName":"s-"},"data":{"a":`+value+`}}`)
			if want == "" {
				require.Equal(t, http.StatusCreated, code, body)
				assert.JSONEq(t, value, mustJSON(body["data"].(map[string]any)["a"]))
				return
			}
			assert.Equal(t, http.StatusBadRequest, code)
			assert.Equal(t, want, body["message"])
		})
	}
	code, body := serve(t, srv, "PUT", "/api/v1/namespaces/default/configmaps/c", "application/json",
		`{"metadata":{"name":"c"},"binaryData":{"k.bin":"!"}}`)
	assert.Equal(t, http.StatusBadRequest, code, "an update checks the decoding before reading the object")
	assert.Equal(t, `ConfigMap in version "v1" cannot be handled as a ConfigMap: illegal base64 data at input byte 0`, body["message"])
}
