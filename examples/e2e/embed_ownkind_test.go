package e2e

import (
	"strings"
	"testing"

	"github.com/kapi-dev/kapi/apiserver"
	"github.com/kapi-dev/kapi/schema"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// widgetsOfOnesOwn is the README's Embedding example of a kind of one's
// own, its schema in YAML.
func widgetsOfOnesOwn(t *testing.T) apiserver.Config {
	t.Helper()
	widgets, err := schema.ParseYAML([]byte(`
type: object
properties:
  spec:
    type: object
    required: [size]
    properties:
      size: {type: integer, minimum: 1}
      color: {type: string, enum: [red, blue], default: red}
  status:
    type: object
    properties:
      ready: {type: boolean}
`))
	require.NoError(t, err)
	return apiserver.Config{Resources: []apiserver.Resource{{
		Group: "example.com", Version: "v1", Kind: "Widget", Plural: "widgets", Namespaced: true,
		StatusSubresource: true, Schema: widgets,
	}}}
}

// kubectl sees the README's kind of one's own as it sees a custom resource
// of a CRD with the same schema: defaults, kube's validation messages, no
// status on create, and NAME and AGE columns.
func TestKubectlServesAKindOfOnesOwnAsACustomResource(t *testing.T) {
	for _, version := range kubectlVersions {
		t.Run("kubectl "+version, func(t *testing.T) {
			t.Parallel()
			c := startClusterWith(t, widgetsOfOnesOwn(t))
			out, err := c.kubectlStdin(version, "apiVersion: example.com/v1\nkind: Widget\nmetadata: {name: w1}\nspec: {size: 2}\nstatus: {ready: true}\n", "create", "-f", "-")
			require.NoError(t, err, out)
			assert.Equal(t, "widget.example.com/w1 created", strings.TrimSpace(out))

			assert.Equal(t, "red|", c.mustKubectl(version, "get", "widget", "w1", "-o", "jsonpath={.spec.color}|{.status}"),
				"the schema's default is applied; the status subresource keeps the status out of a create")
			table := strings.Split(strings.TrimSpace(c.mustKubectl(version, "get", "widgets")), "\n")
			require.Len(t, table, 2, "%q", table)
			assert.Regexp(t, `^NAME\s+AGE$`, table[0])
			assert.Regexp(t, `^w1\s+\d+s$`, table[1])

			out, err = c.kubectlStdin(version, "apiVersion: example.com/v1\nkind: Widget\nmetadata: {name: w2}\nspec: {size: 0, color: green}\n", "create", "-f", "-")
			require.Error(t, err)
			assert.Equal(t, `The Widget "w2" is invalid: 
* spec.color: Unsupported value: "green": supported values: "red", "blue"
* spec.size: Invalid value: 0: spec.size in body should be greater than or equal to 1`, sortedLines(out))
		})
	}
}
