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
