package fieldmanager_test

import (
	"encoding/json"
	"fmt"
	"time"

	"github.com/kapi-dev/kapi/fieldmanager"
	"github.com/kapi-dev/kapi/meta"
)

func Example() {
	m, err := fieldmanager.New(meta.GroupVersionKind{Version: "v1", Kind: "ConfigMap"}, nil)
	if err != nil {
		panic(err)
	}
	now := time.Date(2030, 1, 1, 0, 0, 0, 0, time.UTC)
	cfg := func(color string) meta.Object {
		return meta.Object{
			"apiVersion": "v1", "kind": "ConfigMap",
			"metadata": map[string]any{"name": "cfg"},
			"data":     map[string]any{"color": color},
		}
	}

	// POST by a client whose User-Agent is "kref/1.0".
	created := m.Update(nil, cfg("red"), fieldmanager.Options{
		Manager: fieldmanager.ManagerFromUserAgent("kref/1.0"), Now: now,
	})
	created.SetMetadataField("uid", "7b3d") // the store's doing
	show(created)

	// Another manager applies a different color: a conflict.
	_, err = m.Apply(created, cfg("blue"), fieldmanager.Options{Manager: "deployer", Now: now.Add(time.Minute)})
	st := meta.AsStatus(err)
	fmt.Println(st.Code, st.Reason, st.Message)

	// Forced, it takes the field over.
	applied, err := m.Apply(created, cfg("blue"), fieldmanager.Options{Manager: "deployer", Force: true, Now: now.Add(time.Minute)})
	if err != nil {
		panic(err)
	}
	show(applied)

	// Output:
	// {"color":"red"} [{"apiVersion":"v1","fieldsType":"FieldsV1","fieldsV1":{"f:data":{".":{},"f:color":{}}},"manager":"kref","operation":"Update","time":"2030-01-01T00:00:00Z"}]
	// 409 Conflict Apply failed with 1 conflict: conflict with "kref" using v1: .data.color
	// {"color":"blue"} [{"apiVersion":"v1","fieldsType":"FieldsV1","fieldsV1":{"f:data":{".":{},"f:color":{}}},"manager":"deployer","operation":"Apply","time":"2030-01-01T00:01:00Z"},{"apiVersion":"v1","fieldsType":"FieldsV1","fieldsV1":{"f:data":{}},"manager":"kref","operation":"Update","time":"2030-01-01T00:00:00Z"}]
}

func show(obj meta.Object) {
	data, _ := json.Marshal(obj["data"])
	mf, _ := json.Marshal(obj.Metadata()["managedFields"])
	fmt.Println(string(data), string(mf))
}
