package builtin

import (
	"encoding/base64"
	"encoding/json"
	"fmt"

	"github.com/kapi-dev/kapi/apiserver"
	"github.com/kapi-dev/kapi/meta"
)

// Validate is kube's ValidateSecret: its keys, its size, the keys its type
// needs.
func (secretStrategy) Validate(_ *apiserver.Write, o meta.Object) meta.FieldErrors {
	var e fieldErrs
	data := asMap(o["data"])
	total := 0
	for _, k := range sortedMapKeys(data) {
		e.invalidAll(fmt.Sprintf("data[%s]", k), k, configMapKeyErrors(k))
		s, _ := data[k].(string)
		total += len(s) * 3 / 4
	}
	if total > maxConfigMapBytes {
		e.list = append(e.list, meta.FieldError{Type: meta.ErrorTooLong, Field: "data",
			Detail: fmt.Sprintf("must have at most %d bytes", maxConfigMapBytes)})
	}
	need := func(keys ...string) {
		for _, k := range keys {
			if _, ok := data[k]; !ok {
				e.required(fmt.Sprintf("data[%s]", k))
			}
		}
	}
	switch typ, _ := o["type"].(string); typ {
	case "kubernetes.io/service-account-token":
		if asMap(o.Metadata()["annotations"])["kubernetes.io/service-account.name"] == nil {
			e.required("metadata.annotations[kubernetes.io/service-account.name]")
		}
	case "kubernetes.io/dockercfg":
		need(".dockercfg")
		e.jsonData(data, ".dockercfg")
	case "kubernetes.io/dockerconfigjson":
		need(".dockerconfigjson")
		e.jsonData(data, ".dockerconfigjson")
	case "kubernetes.io/basic-auth":
		_, u := data["username"]
		_, p := data["password"]
		if !u && !p {
			need("username", "password")
		}
	case "kubernetes.io/ssh-auth":
		need("ssh-privatekey")
	case "kubernetes.io/tls":
		need("tls.crt", "tls.key")
	}
	return e.list
}

// jsonData checks a key holds JSON, as kube's dockercfg checks do.
func (e *fieldErrs) jsonData(data map[string]any, key string) {
	s, ok := data[key].(string)
	if !ok {
		return
	}
	raw, err := base64.StdEncoding.DecodeString(s)
	if err != nil {
		return
	}
	var v any
	if err := json.Unmarshal(raw, &v); err != nil {
		e.invalid(fmt.Sprintf("data[%s]", key), "<secret contents redacted>", err.Error())
	}
}

// ValidateUpdate keeps a Secret's type, and an immutable Secret's data,
// as kube does.
func (s secretStrategy) ValidateUpdate(w *apiserver.Write, o, old meta.Object) meta.FieldErrors {
	var e fieldErrs
	if typ, _ := o["type"].(string); typ != old["type"] {
		e.invalid("type", typ, "field is immutable")
	}
	e.immutableData(o, old, "data")
	e.list = append(e.list, apiserver.ValidateObjectMeta(w, o)...) // kube validates the new Secret as on create
	return append(e.list, s.Validate(w, o)...)
}

// immutableData: once `immutable` is set, it and the data stay.
func (e *fieldErrs) immutableData(o, old meta.Object, fields ...string) {
	if old["immutable"] != true {
		return
	}
	const why = "field is immutable when `immutable` is set"
	if o["immutable"] != true {
		e.forbidden("immutable", why)
	}
	for _, f := range fields {
		if !equalJSON(o[f], old[f]) {
			e.forbidden(f, why)
		}
	}
}
