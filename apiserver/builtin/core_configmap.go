package builtin

import (
	"encoding/base64"
	"fmt"
	"reflect"
	"regexp"
	"sort"
	"strings"
	"time"

	"github.com/kapi-dev/kapi/apiserver"
	"github.com/kapi-dev/kapi/meta"
)

// configMapResource is core/v1 configmaps.
func configMapResource() apiserver.Resource {
	return apiserver.Resource{Version: "v1", Kind: "ConfigMap", Plural: "configmaps", Namespaced: true, ShortNames: []string{"cm"},
		PrinterColumns: configMapColumns, WithoutGeneration: true, GenericDelete: true, Strategy: configMapStrategy{}}
}

// configMapStrategy validates a ConfigMap as kube's ValidateConfigMap and
// ValidateConfigMapUpdate do.
type configMapStrategy struct{ apiserver.GenericStrategy }

// Validate checks the keys of data and binaryData and their total size.
func (configMapStrategy) Validate(_ *apiserver.Write, obj meta.Object) meta.FieldErrors {
	return configMapDataErrors(obj)
}

// ValidateUpdate refuses changes to an immutable ConfigMap, then validates
// the new object as on create (ObjectMeta included), as kube does.
func (configMapStrategy) ValidateUpdate(w *apiserver.Write, obj, old meta.Object) meta.FieldErrors {
	var errs meta.FieldErrors
	if immutable, _ := old["immutable"].(bool); immutable {
		const detail = "field is immutable when `immutable` is set"
		if now, _ := obj["immutable"].(bool); !now {
			errs = append(errs, meta.FieldError{Type: meta.ErrorForbidden, Field: "immutable", Detail: detail})
		}
		for _, f := range []string{"data", "binaryData"} {
			if !reflect.DeepEqual(obj[f], old[f]) {
				errs = append(errs, meta.FieldError{Type: meta.ErrorForbidden, Field: f, Detail: detail})
			}
		}
	}
	errs = append(errs, apiserver.ValidateObjectMeta(w, obj)...)
	return append(errs, configMapDataErrors(obj)...)
}

// maxConfigMapBytes is kube's bound on the values of a ConfigMap or Secret.
const maxConfigMapBytes = 1 << 20

var configMapKeyRE = regexp.MustCompile(`^[-._a-zA-Z0-9]+$`)

// configMapDataErrors is the data part of kube's ValidateConfigMap: every
// key of data and binaryData a valid config key, none in both, and at most
// 1 MiB of values.
func configMapDataErrors(obj meta.Object) meta.FieldErrors {
	var errs meta.FieldErrors
	data, _ := obj["data"].(map[string]any)
	binary, _ := obj["binaryData"].(map[string]any)
	total := 0
	for _, k := range sortedKeys(data) {
		for _, msg := range configMapKeyErrors(k) {
			errs = append(errs, meta.FieldError{Type: meta.ErrorInvalid, Field: "data[" + k + "]", Value: k, Detail: msg})
		}
		if _, both := binary[k]; both {
			errs = append(errs, meta.FieldError{Type: meta.ErrorInvalid, Field: "data[" + k + "]", Value: k,
				Detail: "duplicate of key present in binaryData"})
		}
		v, _ := data[k].(string)
		total += len(v)
	}
	for _, k := range sortedKeys(binary) {
		for _, msg := range configMapKeyErrors(k) {
			errs = append(errs, meta.FieldError{Type: meta.ErrorInvalid, Field: "binaryData[" + k + "]", Value: k, Detail: msg})
		}
		v, _ := binary[k].(string)
		b, err := base64.StdEncoding.DecodeString(v)
		if err != nil {
			total += len(v)
			continue
		}
		total += len(b)
	}
	if total > maxConfigMapBytes {
		errs = append(errs, meta.FieldError{Type: meta.ErrorTooLong, Field: "[]", // kube names the whole object so
			Detail: fmt.Sprintf("may not be more than %d bytes", maxConfigMapBytes)})
	}
	return errs
}

// configMapKeyErrors is kube's IsConfigMapKey.
func configMapKeyErrors(key string) []string {
	var msgs []string
	if len(key) > 253 {
		msgs = append(msgs, "must be no more than 253 characters")
	}
	if !configMapKeyRE.MatchString(key) {
		msgs = append(msgs, "a valid config key must consist of alphanumeric characters, '-', '_' or '.' "+
			"(e.g. 'key.name',  or 'KEY_NAME',  or 'key-name', regex used for validation is '[-._a-zA-Z0-9]+')")
	}
	switch {
	case key == ".":
		msgs = append(msgs, "must not be '.'")
	case key == "..":
		msgs = append(msgs, "must not be '..'")
	case strings.HasPrefix(key, ".."):
		msgs = append(msgs, "must not start with '..'")
	}
	return msgs
}

func sortedKeys(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

var configMapColumns = []apiserver.PrinterColumn{
	column("Data", "string", propertyDoc("io.k8s.api.core.v1.ConfigMap", "data"), 0,
		func(o meta.Object, _ time.Time) any { return count(field(o, "data")) + count(field(o, "binaryData")) }),
	apiserver.AgeColumn(),
}
