package store_test

import (
	"errors"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kapi-dev/kapi/meta"
	"github.com/kapi-dev/kapi/store"
)

type jsonKey struct{}
type protoKey struct{}
type fieldsKey struct{}

func newObject() *store.Object {
	return store.NewObject("/cm/a", 3, meta.Object{"metadata": map[string]any{"name": "a", "resourceVersion": "3"}})
}

func TestAnObjectComputesEachDerivedValueOnceAndServesItByKey(t *testing.T) {
	o := newObject()
	calls := 0
	encode := func(b string) func(meta.Object) ([]byte, error) {
		return func(meta.Object) ([]byte, error) { calls++; return []byte(b), nil }
	}

	_, ok := o.Cached(jsonKey{})
	assert.False(t, ok, "nothing is cached before the first request")

	b, err := o.Encoded(jsonKey{}, encode("json"))
	require.NoError(t, err)
	assert.Equal(t, "json", string(b))
	b, err = o.Encoded(jsonKey{}, encode("other"))
	require.NoError(t, err)
	assert.Equal(t, "json", string(b), "the second request is served from the cache")

	b, err = o.Encoded(protoKey{}, encode("proto"))
	require.NoError(t, err)
	assert.Equal(t, "proto", string(b), "another key gets its own value")
	fields, err := o.Derived(fieldsKey{}, func(meta.Object) (any, error) { return map[string]string{"a": "b"}, nil })
	require.NoError(t, err)
	assert.Equal(t, map[string]string{"a": "b"}, fields)
	assert.Equal(t, 2, calls, "one encoding per key")

	for key, want := range map[any]string{jsonKey{}: "json", protoKey{}: "proto"} {
		got, ok := o.Cached(key)
		assert.True(t, ok)
		assert.Equal(t, want, string(got))
	}
	_, ok = o.Cached(fieldsKey{})
	assert.False(t, ok, "Cached serves only bytes")
}

func TestAFailedDerivationIsNotCached(t *testing.T) {
	o := newObject()
	_, err := o.Encoded(jsonKey{}, func(meta.Object) ([]byte, error) { return nil, errors.New("boom") })
	require.Error(t, err)
	b, err := o.Encoded(jsonKey{}, func(meta.Object) ([]byte, error) { return []byte("ok"), nil })
	require.NoError(t, err)
	assert.Equal(t, "ok", string(b))
}

func TestConcurrentFirstRequestsDeriveOnce(t *testing.T) {
	o := newObject()
	var calls atomic.Int32
	var wg sync.WaitGroup
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			b, err := o.Encoded(jsonKey{}, func(meta.Object) ([]byte, error) { calls.Add(1); return []byte("json"), nil })
			assert.NoError(t, err)
			assert.Equal(t, "json", string(b))
		}()
	}
	wg.Wait()
	assert.Equal(t, int32(1), calls.Load())
}

func TestAnEncodedObjectDecodesItsDataWhenFirstRead(t *testing.T) {
	var decodes atomic.Int32
	o := store.NewEncodedObject("/cm/a", 3, protoKey{}, []byte("a"), func(b []byte) (meta.Object, error) {
		decodes.Add(1)
		return meta.Object{"metadata": map[string]any{"name": string(b), "resourceVersion": "3"}}, nil
	})
	assert.Equal(t, int32(0), decodes.Load(), "nothing is decoded before a read")

	assert.Equal(t, "a", o.Data().Name())
	assert.Equal(t, "3", o.Data().ResourceVersion())
	assert.Equal(t, map[string]string(nil), o.Labels())
	cached, ok := o.Cached(protoKey{})
	assert.True(t, ok, "the encoding is served as a cached value")
	assert.Equal(t, "a", string(cached))
	b, err := o.Encoded(jsonKey{}, func(d meta.Object) ([]byte, error) { return []byte("json of " + d.Name()), nil })
	require.NoError(t, err)
	assert.Equal(t, "json of a", string(b))
}

func TestAnEncodedObjectThatDoesNotDecodeReadsAsEmpty(t *testing.T) {
	o := store.NewEncodedObject("/cm/a", 3, protoKey{}, []byte("?"), func([]byte) (meta.Object, error) {
		return nil, errors.New("not an object")
	})
	assert.Equal(t, meta.Object{}, o.Data())
}

func TestADeletedStateIsThePreviousVersionStampedWithTheDeletionRevision(t *testing.T) {
	prev := store.NewObject("/cm/a", 3, meta.Object{"metadata": map[string]any{"name": "a", "resourceVersion": "3",
		"labels": map[string]any{"app": "x"}}, "data": map[string]any{"k": "v"}})
	prev.Encoded(jsonKey{}, func(meta.Object) ([]byte, error) { return []byte(`{"metadata":{"name":"a"}}`), nil })
	decodes := 0
	prev.Compact(jsonKey{}, func([]byte) (meta.Object, error) {
		decodes++
		return meta.Object{"metadata": map[string]any{"name": "a", "resourceVersion": "3", "labels": map[string]any{"app": "x"}}}, nil
	})
	assert.Equal(t, map[string]string{"app": "x"}, prev.Labels())

	d := store.NewDeleted(prev, 7)
	assert.Equal(t, "/cm/a", d.Key())
	assert.Equal(t, int64(7), d.Revision())
	assert.Equal(t, map[string]string{"app": "x"}, d.Labels(), "labels are the previous version's")
	assert.Zero(t, decodes, "nothing is decoded before the data is asked for")
	assert.Equal(t, "7", d.Data().ResourceVersion())
	assert.Equal(t, "a", d.Data().Name())
	assert.Equal(t, "3", prev.Data().ResourceVersion(), "the previous version is unchanged")
	_, cached := d.Cached(jsonKey{})
	assert.False(t, cached, "the previous version's encodings are not the deleted state's")
}

func TestFinalizingIsReadOnceAndNeedsNoDecodeOfACompactedVersion(t *testing.T) {
	tests := []struct {
		name                 string
		metadata             map[string]any
		finalizers, deleting bool
	}{
		{"neither", map[string]any{"name": "a"}, false, false},
		{"finalizers", map[string]any{"finalizers": []any{"x/y"}}, true, false},
		{"empty finalizers", map[string]any{"finalizers": []any{}}, false, false},
		{"being deleted", map[string]any{"deletionTimestamp": "2026-01-01T00:00:00Z"}, false, true},
		{"a null deletionTimestamp", map[string]any{"deletionTimestamp": nil}, false, false},
		{"both", map[string]any{"finalizers": []any{"x/y"}, "deletionTimestamp": "2026-01-01T00:00:00Z"}, true, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			data := meta.Object{"metadata": tt.metadata}
			plain := store.NewObject("/cm/a", 3, data)
			f, d := plain.Finalizing()
			assert.Equal(t, [2]bool{tt.finalizers, tt.deleting}, [2]bool{f, d}, "from the data")

			compacted := store.NewObject("/cm/a", 3, data)
			compacted.Encoded(jsonKey{}, func(meta.Object) ([]byte, error) { return []byte("{}"), nil })
			decodes := 0
			compacted.Compact(jsonKey{}, func([]byte) (meta.Object, error) { decodes++; return meta.Object{}, nil })
			f, d = compacted.Finalizing()
			assert.Equal(t, [2]bool{tt.finalizers, tt.deleting}, [2]bool{f, d}, "compacted")
			assert.Zero(t, decodes)

			f, d = store.NewDeleted(compacted, 4).Finalizing()
			assert.Equal(t, [2]bool{tt.finalizers, tt.deleting}, [2]bool{f, d}, "the deleted state, as the version deleted")
			assert.Zero(t, decodes)
		})
	}
}
