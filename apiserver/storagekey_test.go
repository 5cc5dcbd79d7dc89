package apiserver

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestAConflictNamesKubesStorageKey holds the uid precondition's conflict
// to kube's message, which names the object's etcd key.
func TestAConflictNamesKubesStorageKey(t *testing.T) {
	ts := newTestServer(t)
	const wrong = "00000000-0000-0000-0000-000000000000"
	r := ts.do("POST", "/apis/example.com/v1/widgets", `{"metadata":{"name":"w"}}`)
	assert.Equal(t, 201, r.code, string(r.raw))
	r = ts.do("PUT", "/apis/example.com/v1/widgets/w", `{"metadata":{"name":"w","uid":"`+wrong+`"}}`)
	assert.Equal(t, 409, r.code, string(r.raw))
	uid := ts.do("GET", "/apis/example.com/v1/widgets/w", "").body["metadata"].(map[string]any)["uid"]
	assert.Equal(t, `Operation cannot be fulfilled on widgets.example.com "w": StorageError: invalid object, Code: 4, `+
		`Key: /registry/example.com/widgets/w, ResourceVersion: 0, AdditionalErrorMsg: Precondition failed: UID in precondition: `+
		wrong+`, UID in object meta: `+fmt.Sprint(uid), r.body["message"])
}
