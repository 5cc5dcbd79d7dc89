package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"k8s.io/apimachinery/pkg/api/resource"
)

// TestQuantitiesAreStoredAsKubeWritesThem holds what kapi stores for a
// resource quantity to what kube's resource.Quantity makes of the same
// text (kube decodes every write into its Go types and encodes it again):
// hand-picked quantities and a few hundred generated ones, written as
// strings and as JSON numbers in a ResourceQuota's spec.hard.
func TestQuantitiesAreStoredAsKubeWritesThem(t *testing.T) {
	inputs := []string{"0", "00", "0m", "0.0", "1", "+1", "1.", "0.5", ".5", "1.5", "100m", "1000m", "1500m", "0.1m",
		"0.0000000001", "1n", "1.5n", "1u", "1000", "1500", "1k", "1000k", "1M", "1e3", "1.5e3", "12e1", "1e-3", "1E",
		"1000E", "1e21", "1Ki", "1024", "1024Ki", "1023Ki", "1536Mi", "0.5Gi", "1.5Gi", "8Gi", "512Mi", "500Mi", "10Ki",
		"1025Ki", "0Ki", "1Ei", "8Ei", "3Ei", "0.3Ki", "2048Ki", "129e6", "129M", "123456789012345678", "0.000000001",
		"1234567890123456789", " 2Gi "}
	rnd := rand.New(rand.NewPCG(13, 13))
	suffixes := []string{"", "n", "u", "m", "k", "M", "G", "T", "P", "E", "Ki", "Mi", "Gi", "Ti", "Pi", "Ei", "e3", "e-2", "e0", "E6", "e-10"}
	digits := func(n int) string {
		var b strings.Builder
		for range n {
			b.WriteByte(byte('0' + rnd.IntN(10)))
		}
		return b.String()
	}
	for range 400 {
		in := digits(rnd.IntN(5))
		if rnd.IntN(3) == 0 {
			in += "." + digits(rnd.IntN(12))
		}
		if strings.Trim(in, ".") == "" {
			in = "0" + in
		}
		inputs = append(inputs, in+suffixes[rnd.IntN(len(suffixes))])
	}

	hard := map[string]any{}
	want := map[string]string{}
	for i, in := range inputs {
		q, err := resource.ParseQuantity(strings.TrimSpace(in))
		if err != nil {
			continue // kube refuses it
		}
		name := fmt.Sprintf("requests.example.com/s%d", i) // requests.*: kube takes fractions
		hard[name], want[name] = in, q.String()
		// As a JSON number too, as kubectl sends `cpu: 0.5` (YAML numbers
		// reach the server without an exponent; one written in JSON with
		// an exponent is a number kapi no longer has the text of).
		if n := strings.TrimSpace(in); json.Valid([]byte(n)) && !strings.ContainsAny(n, "+eE") && len(n) < 16 {
			name = fmt.Sprintf("requests.example.com/n%d", i)
			hard[name], want[name] = json.RawMessage(n), q.String()
		}
	}
	require.Greater(t, len(want), 400, "most generated texts are quantities")
	body, err := json.Marshal(map[string]any{"apiVersion": "v1", "kind": "ResourceQuota",
		"metadata": map[string]any{"name": "quantities"}, "spec": map[string]any{"hard": hard}})
	require.NoError(t, err)

	c := startCluster(t)
	cs := clientsetFor(t, c, "application/json")
	raw, err := cs.CoreV1().RESTClient().Post().Namespace("default").Resource("resourcequotas").
		Body(body).SetHeader("Content-Type", "application/json").DoRaw(context.Background())
	require.NoError(t, err, string(raw))
	var stored struct {
		Spec struct{ Hard map[string]string }
	}
	require.NoError(t, json.Unmarshal(raw, &stored))
	for name, w := range want {
		assert.Equal(t, w, stored.Spec.Hard[name], "%s: %v", name, hard[name])
	}
}
