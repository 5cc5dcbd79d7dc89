package fieldmanager_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/kapi-dev/kapi/fieldmanager"
	"github.com/kapi-dev/kapi/meta"
)

func TestManagerFromUserAgentIsThePartBeforeTheFirstSlash(t *testing.T) {
	for ua, want := range map[string]string{
		"kubectl/v1.33.1 (linux/amd64) kubernetes/8adc0f0": "kubectl",
		"kref/1.0":                     "kref",
		"Go-http-client/1.1":           "Go-http-client",
		"no slash at all":              "no slash at all",
		"":                             "",
		"/leading":                     "",
		"tab\there/1":                  "tabhere",
		"\x00\x01ctl\x7f/2":            "ctl",
		"ünïcødé/1":                    "ünïcødé",
		strings.Repeat("a", 200):       strings.Repeat("a", 128),
		strings.Repeat("é", 100):       strings.Repeat("é", 64),
		strings.Repeat("a", 127) + "é": strings.Repeat("a", 127),
		"bad\xffutf8/1":                "bad\uFFFDutf8",
	} {
		assert.Equal(t, want, fieldmanager.ManagerFromUserAgent(ua), "%q", ua)
	}
}

func TestValidateManagerLikeKube(t *testing.T) {
	assert.Nil(t, fieldmanager.ValidateManager(""))
	assert.Nil(t, fieldmanager.ValidateManager("kubectl"))
	assert.Nil(t, fieldmanager.ValidateManager(strings.Repeat("a", 128)))

	errs := fieldmanager.ValidateManager(strings.Repeat("a", 129))
	st := meta.Invalid(meta.GroupKind{Group: "meta.k8s.io", Kind: "PatchOptions"}, "", errs)
	assert.Equal(t, `PatchOptions.meta.k8s.io "" is invalid: fieldManager: Too long: may not be more than 128 bytes`, st.Message)
	assert.Equal(t, meta.CauseFieldValueTooLong, st.Details.Causes[0].Type)

	errs = fieldmanager.ValidateManager("a\x01b")
	st = meta.Invalid(meta.GroupKind{Group: "meta.k8s.io", Kind: "PatchOptions"}, "", errs)
	assert.Equal(t, `PatchOptions.meta.k8s.io "" is invalid: fieldManager: Invalid value: "a\x01b": invalid character U+0001 (at position 1)`, st.Message)
	assert.Equal(t, meta.CauseFieldValueInvalid, st.Details.Causes[0].Type)
	assert.Equal(t, "fieldManager", st.Details.Causes[0].Field)

	assert.Len(t, fieldmanager.ValidateManager(strings.Repeat("\x01", 130)), 131, "one error for the length, one per character")
}
