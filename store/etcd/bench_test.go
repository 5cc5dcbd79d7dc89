package etcd_test

import (
	"context"
	"fmt"
	"testing"

	clientv3 "go.etcd.io/etcd/client/v3"

	"github.com/kapi-dev/kapi/codec"
	"github.com/kapi-dev/kapi/meta"
	"github.com/kapi-dev/kapi/store"
	"github.com/kapi-dev/kapi/store/etcd"
	"github.com/kapi-dev/kapi/store/etcd/etcdtest"
)

// The benchmarks compare the store with what kube-apiserver does for the
// same request without its watch cache (the baselines): one etcd request
// and a decode per object. Both run against the same embedded etcd in the
// same process, so etcd's own cost is in both.

const benchObjects = 500

func benchStore(b *testing.B) (*etcd.Store, *clientv3.Client) {
	b.Helper()
	cluster := etcdtest.Start(b)
	cli := cluster.Client(b)
	s, err := etcd.New(context.Background(), etcd.Config{Client: cli})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { _ = s.Close() })
	for i := range benchObjects {
		name := fmt.Sprintf("cm%04d", i)
		if _, err := s.Create(context.Background(), "/configmaps/ns/"+name, configMap(name, "k", "v")); err != nil {
			b.Fatal(err)
		}
	}
	return s, cli
}

func decodeValue(b *testing.B, value []byte) meta.Object {
	d, err := codec.JSONCodec{}.Decode(value)
	if err != nil {
		b.Fatal(err)
	}
	return d.Object
}

// BenchmarkGet: a consistent GET (resourceVersion unset) from the cache,
// 16 concurrent readers per core sharing the revision reads, as a busy
// server's; the baseline reads and decodes the key from etcd, as
// kube-apiserver does.
func BenchmarkGet(b *testing.B) {
	s, cli := benchStore(b)
	b.Run("store", func(b *testing.B) {
		b.ReportAllocs()
		b.SetParallelism(16)
		b.RunParallel(func(pb *testing.PB) {
			for pb.Next() {
				if _, err := s.Get(context.Background(), "/configmaps/ns/cm0042"); err != nil {
					b.Error(err)
					return
				}
			}
		})
	})
	b.Run("etcd-baseline", func(b *testing.B) {
		b.ReportAllocs()
		b.SetParallelism(16)
		b.RunParallel(func(pb *testing.PB) {
			for pb.Next() {
				resp, err := cli.Get(context.Background(), "/registry/configmaps/ns/cm0042")
				if err != nil || len(resp.Kvs) != 1 {
					b.Error(err)
					return
				}
				decodeValue(b, resp.Kvs[0].Value)
			}
		})
	})
}

// BenchmarkList: a consistent list of 500 objects; the baseline is one
// etcd range read decoding every value.
func BenchmarkList(b *testing.B) {
	s, cli := benchStore(b)
	b.Run("store", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			res, err := s.List(context.Background(), "/configmaps/ns/", store.ListOptions{})
			if err != nil || len(res.Items) != benchObjects {
				b.Fatal(err, len(res.Items))
			}
		}
	})
	b.Run("store-any-revision", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			res, err := s.List(context.Background(), "/configmaps/ns/", store.ListOptions{Revision: 1, Match: store.NotOlderThan})
			if err != nil || len(res.Items) != benchObjects {
				b.Fatal(err, len(res.Items))
			}
		}
	})
	b.Run("etcd-baseline", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			resp, err := cli.Get(context.Background(), "/registry/configmaps/ns/", clientv3.WithPrefix())
			if err != nil || len(resp.Kvs) != benchObjects {
				b.Fatal(err)
			}
			for _, kv := range resp.Kvs {
				decodeValue(b, kv.Value)
			}
		}
	})
}

// BenchmarkUpdate: a guaranteed update (one transaction comparing the mod
// revision, then the wait for the cache); the baseline is the same
// transaction alone.
func BenchmarkUpdate(b *testing.B) {
	s, cli := benchStore(b)
	b.Run("store", func(b *testing.B) {
		b.ReportAllocs()
		i := 0
		for b.Loop() {
			i++
			if _, err := s.Update(context.Background(), "/configmaps/ns/cm0001", store.UpdateOptions{}, set("k", fmt.Sprint(i))); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("etcd-baseline", func(b *testing.B) {
		b.ReportAllocs()
		value, _ := codec.JSONCodec{}.Encode(configMap("cm0002", "k", "v"))
		resp, err := cli.Get(context.Background(), "/registry/configmaps/ns/cm0002")
		if err != nil {
			b.Fatal(err)
		}
		rev := resp.Kvs[0].ModRevision
		for b.Loop() {
			key := "/registry/configmaps/ns/cm0002"
			t, err := cli.Txn(context.Background()).
				If(clientv3.Compare(clientv3.ModRevision(key), "=", rev)).
				Then(clientv3.OpPut(key, string(value))).Commit()
			if err != nil || !t.Succeeded {
				b.Fatal(err)
			}
			rev = t.Header.Revision
		}
	})
}

// BenchmarkStart: a new store over etcd holding 500 objects written one
// a revision: the list and the wait for etcd's revision, without
// replaying the history (Replay -1, as kube's cacher) and with it (the
// default: etcd sends a watch from an old revision its history at its
// next sync of such watches, every 100ms, which this loop's starts fall
// right after); the baseline is one range read of every object, each
// decoded, as kube's cacher starts.
func BenchmarkStart(b *testing.B) {
	_, cli := benchStore(b)
	for _, bc := range []struct {
		name   string
		replay int
	}{{"store-no-replay", -1}, {"store", 0}} {
		b.Run(bc.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				s, err := etcd.New(context.Background(), etcd.Config{Client: cli, Replay: bc.replay})
				if err != nil {
					b.Fatal(err)
				}
				_ = s.Close()
			}
		})
	}
	b.Run("etcd-baseline", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			resp, err := cli.Get(context.Background(), "/registry/", clientv3.WithPrefix())
			if err != nil || len(resp.Kvs) != benchObjects {
				b.Fatal(err)
			}
			for _, kv := range resp.Kvs {
				decodeValue(b, kv.Value)
			}
		}
	})
}
