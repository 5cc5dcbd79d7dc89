package storetest

import (
	"math/rand/v2"
	"testing"

	"github.com/kapi-dev/kapi/store/storetest/internal/check"
	"github.com/kapi-dev/kapi/store/storetest/internal/require"

	"github.com/kapi-dev/kapi/store"
)

// byNode files objects under data.node, as the API server files pods
// under spec.nodeName; objects without one are left out.
func byNode(o *store.Object) (string, bool) {
	v := dataOf(o, "node")
	return v, v != ""
}

// onNode is the Filter an indexed List pairs with byNode.
func onNode(node string) func(*store.Object) bool {
	return func(o *store.Object) bool { return dataOf(o, "node") == node }
}

// walk lists every page of prefix at rev with opts, pages of limit.
func walk(t *testing.T, s store.Store, prefix string, rev int64, limit int, opts store.ListOptions) []string {
	t.Helper()
	opts.Revision, opts.Match, opts.Limit = rev, store.Exact, limit
	var got []string
	for {
		res := mustList(t, s, prefix, opts)
		got = append(got, keys(res.Items)...)
		if res.Next == "" {
			return got
		}
		opts.Start = res.Next
	}
}

func testIndexes(t *testing.T, newStore Factory) {
	indexer := func(t *testing.T) (store.Store, store.Indexer) {
		s := newStore(t, Options{})
		ix, ok := s.(store.Indexer)
		if !ok {
			t.Skip("the store keeps no indexes")
		}
		return s, ix
	}

	t.Run("a List through an index returns the pages its Filter alone returns", func(t *testing.T) {
		s, ix := indexer(t)
		r := rand.New(rand.NewPCG(3, 4))
		nodes := []string{"", "n1", "n2", "n3"}
		for i := range 60 {
			ns := []string{"/pods/a/", "/pods/b/", "/other/a/"}[i%3]
			mustCreate(t, s, ns+name(i), "node", nodes[r.IntN(len(nodes))])
		}
		require.NoError(t, ix.AddIndex("node", byNode)) // files what exists
		for i := range 30 {                             // and what is written later
			key := []string{"/pods/a/", "/pods/b/"}[i%2] + name(r.IntN(60))
			if o, err := s.Get(t.Context(), key); err == nil {
				if r.IntN(5) == 0 {
					mustDelete(t, s, o.Key())
				} else {
					mustSet(t, s, key, "node", nodes[r.IntN(len(nodes))])
				}
			} else {
				mustCreate(t, s, key, "node", nodes[r.IntN(len(nodes))])
			}
		}
		rev := s.Revision()
		for _, prefix := range []string{"/pods/", "/pods/a/", "/pods/b/", "/other/"} {
			for _, node := range []string{"n1", "n2", "n9"} {
				for _, limit := range []int{0, 1, 3} {
					want := walk(t, s, prefix, rev, limit, store.ListOptions{Filter: onNode(node)})
					got := walk(t, s, prefix, rev, limit, store.ListOptions{Filter: onNode(node), Index: "node", IndexValue: node})
					check.Equal(t, want, got, "prefix %s node %s limit %d", prefix, node, limit)
				}
			}
		}
	})

	t.Run("an older snapshot lists through the index as it was then", func(t *testing.T) {
		s, ix := indexer(t)
		require.NoError(t, ix.AddIndex("node", byNode))
		mustCreate(t, s, "/pods/a/p", "node", "n1")
		before := mustCreate(t, s, "/pods/a/q", "node", "n1").Revision()
		mustSet(t, s, "/pods/a/p", "node", "n2")
		mustDelete(t, s, "/pods/a/q")
		onN1 := store.ListOptions{Filter: onNode("n1"), Index: "node", IndexValue: "n1"}
		onN2 := store.ListOptions{Filter: onNode("n2"), Index: "node", IndexValue: "n2"}
		check.Equal(t, []string{"/pods/a/p", "/pods/a/q"}, walk(t, s, "/pods/", before, 0, onN1))
		check.Empty(t, walk(t, s, "/pods/", before, 0, onN2))
		check.Empty(t, walk(t, s, "/pods/", s.Revision(), 0, onN1))
		check.Equal(t, []string{"/pods/a/p"}, walk(t, s, "/pods/", s.Revision(), 0, onN2))
	})

	t.Run("an index name is added once", func(t *testing.T) {
		_, ix := indexer(t)
		require.NoError(t, ix.AddIndex("node", byNode))
		check.Error(t, ix.AddIndex("node", byNode))
	})

	t.Run("a List naming an index the store does not keep reads through its Filter", func(t *testing.T) {
		s, _ := indexer(t)
		mustCreate(t, s, "/pods/a/p", "node", "n1")
		mustCreate(t, s, "/pods/a/q", "node", "n2")
		got := walk(t, s, "/pods/", s.Revision(), 0, store.ListOptions{Filter: onNode("n1"), Index: "none", IndexValue: "n1"})
		check.Equal(t, []string{"/pods/a/p"}, got)
	})
}
