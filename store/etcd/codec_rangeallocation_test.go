package etcd_test

import (
	"encoding/base64"
	"encoding/hex"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kapi-dev/kapi/codec/protobuf"
	"github.com/kapi-dev/kapi/meta"
	"github.com/kapi-dev/kapi/store/etcd"
)

// Values kube-apiserver 1.33.13 wrote at /registry/ranges/servicenodeports
// (docs/kube-behaviour/13-node-ports.md): the RangeAllocation its repair
// creates at start, and the one after a NodePort Service took port 30123
// (bit 123 of the bitmap: big-endian bytes, 0x08 first).
const (
	kubeEmptyNodePorts = "6b3873000a150a027631120f52616e6765416c6c6f636174696f6e12210a100a0012001a0022002a00320038004200" +
		"120b33303030302d33323736371a001a002200"
	kubeNodePort30123 = "6b3873000a150a027631120f52616e6765416c6c6f636174696f6e12310a100a0012001a0022002a00320038004200" +
		"120b33303030302d33323736371a10080000000000000000000000000000001a002200"
)

func rangeAllocation(data []byte) meta.Object {
	return meta.Object{"apiVersion": "v1", "kind": "RangeAllocation", "metadata": map[string]any{},
		"range": "30000-32767", "data": base64.StdEncoding.EncodeToString(data)}
}

func TestKubeEncodesTheNodePortRangeAllocationAsKubeApiserverDoes(t *testing.T) {
	port30123 := make([]byte, 16)
	port30123[0] = 0x08
	cases := []struct {
		name, kube string
		obj        meta.Object
	}{
		{"an empty bitmap", kubeEmptyNodePorts, rangeAllocation(nil)},
		{"port 30123 taken", kubeNodePort30123, rangeAllocation(port30123)},
	}
	for _, c := range cases {
		// with no protobuf codec, or one that lacks the kind (no API
		// serves it)
		for _, k := range []etcd.Kube{{}, {Protobuf: protobuf.New(nil)}} {
			t.Run(c.name, func(t *testing.T) {
				want, err := hex.DecodeString(c.kube)
				require.NoError(t, err)
				got, err := k.Encode(c.obj)
				require.NoError(t, err)
				assert.Equal(t, c.kube, hex.EncodeToString(got), "the bytes kube-apiserver stores")

				assert.True(t, k.Recognizes(want))
				back, err := k.Decode(want)
				require.NoError(t, err)
				assert.Equal(t, c.obj["range"], back["range"])
				assert.Equal(t, c.obj["data"], back["data"])
				assert.Equal(t, "RangeAllocation", back.Kind())
			})
		}
	}
}
