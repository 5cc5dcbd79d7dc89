package etcd_test

import (
	"fmt"
	"runtime/debug"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	clientv3 "go.etcd.io/etcd/client/v3"
	"google.golang.org/protobuf/encoding/protowire"

	"github.com/kapi-dev/kapi/codec"
	"github.com/kapi-dev/kapi/meta"
	"github.com/kapi-dev/kapi/store"
	"github.com/kapi-dev/kapi/store/etcd"
	"github.com/kapi-dev/kapi/store/etcd/etcdtest"
)

// putConfigMaps writes n ConfigMaps straight to etcd, one to a
// transaction as kapi and kube-apiserver do, from a few writers, and
// returns etcd's revision after the last.
func putConfigMaps(t *testing.T, cli *clientv3.Client, n int) int64 {
	t.Helper()
	const writers = 4
	errs := make([]error, writers)
	var wg sync.WaitGroup
	for w := range writers {
		wg.Go(func() {
			for i := w; i < n && errs[w] == nil; i += writers {
				value, err := codec.JSONCodec{}.Encode(configMap(fmt.Sprintf("c%05d", i), "i", fmt.Sprint(i)))
				if err == nil {
					_, err = cli.Put(t.Context(), fmt.Sprintf("/registry/configmaps/ns/c%05d", i), string(value))
				}
				errs[w] = err
			}
		})
	}
	wg.Wait()
	for _, err := range errs {
		require.NoError(t, err)
	}
	resp, err := cli.Get(t.Context(), "/registry", clientv3.WithCountOnly())
	require.NoError(t, err)
	return resp.Header.Revision
}

func TestANewStoreLoadsEveryObjectOfAListLongerThanOnePage(t *testing.T) {
	cluster := etcdtest.Start(t)
	const n = 2_345 // pages of 1,000
	rev := putConfigMaps(t, cluster.Client(t), n)

	s := newStore(t, cluster, etcd.Config{})
	res, err := s.List(t.Context(), "/configmaps/ns/", store.ListOptions{})
	require.NoError(t, err)
	require.Len(t, res.Items, n)
	for i, o := range res.Items {
		name := fmt.Sprintf("c%05d", i)
		require.Equal(t, "/configmaps/ns/"+name, o.Key())
		assert.Equal(t, name, o.Data().Name())
		assert.Equal(t, fmt.Sprint(i), o.Data()["data"].(map[string]any)["i"])
		assert.Equal(t, fmt.Sprint(o.Revision()), o.Data().ResourceVersion())
		assert.LessOrEqual(t, o.Revision(), rev)
	}
}

func TestAStoreReadsTheObjectsItLoadedAsTheStoreThatWroteThem(t *testing.T) {
	cluster := etcdtest.Start(t)
	ctx := t.Context()
	first := newStore(t, cluster, etcd.Config{})
	written, err := first.Create(ctx, "/configmaps/ns/a", configMap("a", "k", "v"))
	require.NoError(t, err)

	defer debug.SetGCPercent(debug.SetGCPercent(-1))        // no collection between the load and the reads
	second := newStore(t, cluster, etcd.Config{Replay: -1}) // a's version comes from the list
	loaded, err := second.Get(ctx, "/configmaps/ns/a")
	require.NoError(t, err)
	assert.Equal(t, written.Revision(), loaded.Revision())
	assert.Equal(t, written.Data(), loaded.Data())

	updated, err := second.Update(ctx, "/configmaps/ns/a", store.UpdateOptions{}, set("k", "w"))
	require.NoError(t, err, "a loaded object is updated from its decoded data")
	assert.Equal(t, "w", updated.Data()["data"].(map[string]any)["k"])
	assert.Equal(t, "a", updated.Data().Name())
}

func TestAStoreDeletesTheObjectsItLoadedAndWatchersSeeTheirLastState(t *testing.T) {
	cluster := etcdtest.Start(t)
	ctx := t.Context()
	putConfigMaps(t, cluster.Client(t), 3)
	// No collection between the load and the reads: a loaded version must
	// not depend on one to read right.
	defer debug.SetGCPercent(debug.SetGCPercent(-1))

	// Replay -1: every object comes from the list, none from the history.
	s := newStore(t, cluster, etcd.Config{Replay: -1})
	w, err := s.Watch(ctx, "/configmaps/", store.WatchOptions{})
	require.NoError(t, err)
	defer w.Stop()
	other, err := etcd.New(ctx, etcd.Config{Client: cluster.Client(t), Replay: -1})
	require.NoError(t, err)
	defer other.Close()

	deleted, err := s.Delete(ctx, "/configmaps/ns/c00000", store.Preconditions{}, nil)
	require.NoError(t, err)
	assert.Equal(t, "c00000", deleted.Data().Name())
	// A delete through another store reaches this one's cache as an etcd
	// event, which carries the loaded version's data.
	_, err = other.Delete(ctx, "/configmaps/ns/c00001", store.Preconditions{}, nil)
	require.NoError(t, err)

	_, err = s.List(ctx, "/configmaps/", store.ListOptions{}) // the cache has both deletes
	require.NoError(t, err)
	evs := collectUntil(t, w, s.Revision())
	require.Len(t, evs, 2)
	for i, ev := range evs {
		assert.Equal(t, store.Deleted, ev.Type)
		assert.Equal(t, fmt.Sprintf("c%05d", i), ev.Object.Data().Name())
		assert.Equal(t, fmt.Sprint(ev.Revision), ev.Object.Data().ResourceVersion())
	}
}

func TestANewStoreSkipsValuesItsCodecDoesNotRecognize(t *testing.T) {
	cluster := etcdtest.Start(t)
	ctx := t.Context()
	cli := cluster.Client(t)
	putConfigMaps(t, cli, 1)
	// kube-apiserver's encryption at rest writes values such as these.
	_, err := cli.Put(ctx, "/registry/configmaps/ns/encrypted", "k8s:enc:aescbc:v1:key1:\x8f\x01\x02")
	require.NoError(t, err)

	s := newStore(t, cluster, etcd.Config{})
	res, err := s.List(ctx, "/configmaps/ns/", store.ListOptions{})
	require.NoError(t, err)
	require.Len(t, res.Items, 1)
	assert.Equal(t, "/configmaps/ns/c00000", res.Items[0].Key())
}

func TestANewStoreOverACompactedHistoryReplaysWhatEtcdStillHolds(t *testing.T) {
	cluster := etcdtest.Start(t)
	ctx := t.Context()
	cli := cluster.Client(t)
	putConfigMaps(t, cli, 3)
	var revs []int64
	for i := range 10 {
		resp, err := cli.Put(ctx, fmt.Sprintf("/registry/configmaps/ns/late%d", i), `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"late"}}`)
		require.NoError(t, err)
		revs = append(revs, resp.Header.Revision)
	}
	compacted := revs[4]
	_, err := cli.Compact(ctx, compacted)
	require.NoError(t, err)

	s := newStore(t, cluster, etcd.Config{Replay: 100})
	assert.Equal(t, revs[9], s.Revision())

	w, err := s.Watch(ctx, "/configmaps/", store.WatchOptions{Revision: compacted})
	require.NoError(t, err, "a watch from the oldest revision etcd holds resumes")
	defer w.Stop()
	evs, err := w.Next(ctx)
	require.NoError(t, err)
	require.NotEmpty(t, evs)
	assert.Equal(t, revs[5], evs[0].Revision)

	_, err = s.Watch(ctx, "/configmaps/", store.WatchOptions{Revision: compacted - 1})
	var ee *store.ExpiredError
	assert.ErrorAs(t, err, &ee, "a watch from a compacted revision expires")
}

func TestANewStoreReachesEtcdsRevisionWhenTheNewestWritesAreOutsideItsPrefix(t *testing.T) {
	cluster := etcdtest.Start(t)
	ctx := t.Context()
	cli := cluster.Client(t)
	putConfigMaps(t, cli, 10)
	var rev int64
	for i := range 3 {
		resp, err := cli.Put(ctx, fmt.Sprintf("/elsewhere/%d", i), "x")
		require.NoError(t, err)
		rev = resp.Header.Revision
	}

	s := newStore(t, cluster, etcd.Config{})
	assert.Equal(t, rev, s.Revision())
}

// supporting is a protobuf stand-in that supports one kind.
type supporting struct {
	codec.Codec
	kind string
}

func (c supporting) SupportsKind(gvk meta.GroupVersionKind) bool { return gvk.Kind == c.kind }

// envelope is kube's protobuf envelope of an object of apiVersion and
// kind (runtime.Unknown: typeMeta 1 {apiVersion 1, kind 2}, raw 2).
func envelope(apiVersion, kind string) []byte {
	var typeMeta []byte
	typeMeta = protowire.AppendTag(typeMeta, 1, protowire.BytesType)
	typeMeta = protowire.AppendString(typeMeta, apiVersion)
	typeMeta = protowire.AppendTag(typeMeta, 2, protowire.BytesType)
	typeMeta = protowire.AppendString(typeMeta, kind)
	b := []byte("k8s\x00")
	b = protowire.AppendTag(b, 1, protowire.BytesType)
	b = protowire.AppendBytes(b, typeMeta)
	b = protowire.AppendTag(b, 2, protowire.BytesType)
	b = protowire.AppendBytes(b, []byte{0x0a, 0x00})
	return b
}

func TestCodecsRecognizeWhatTheyDecode(t *testing.T) {
	pb := supporting{Codec: codec.JSONCodec{}, kind: "ConfigMap"}
	tests := []struct {
		name  string
		codec etcd.Sniffer
		value []byte
		want  bool
	}{
		{"JSON recognizes a JSON object", etcd.JSON{}, []byte(`{"kind":"Widget"}`), true},
		{"JSON recognizes a JSON object after white space", etcd.JSON{}, []byte(" \n{}"), true},
		{"JSON does not recognize a JSON array", etcd.JSON{}, []byte(`[]`), false},
		{"JSON does not recognize an empty value", etcd.JSON{}, nil, false},
		{"JSON does not recognize kube's protobuf envelope", etcd.JSON{}, envelope("v1", "ConfigMap"), false},
		{"Kube recognizes a JSON object", etcd.Kube{}, []byte(`{"kind":"Widget"}`), true},
		{"Kube does not recognize a value encrypted at rest", etcd.Kube{Protobuf: pb}, []byte("k8s:enc:aescbc:v1:key1:\x01"), false},
		{"Kube recognizes an envelope of a kind its protobuf codec supports", etcd.Kube{Protobuf: pb}, envelope("v1", "ConfigMap"), true},
		{"Kube does not recognize an envelope of a kind its protobuf codec lacks", etcd.Kube{Protobuf: pb}, envelope("v1", "Secret"), false},
		{"Kube does not recognize an envelope without a protobuf codec", etcd.Kube{}, envelope("v1", "ConfigMap"), false},
		{"Kube does not recognize a truncated envelope", etcd.Kube{Protobuf: pb}, envelope("v1", "ConfigMap")[:8], false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, tt.codec.Recognizes(tt.value))
		})
	}
}
