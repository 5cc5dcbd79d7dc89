package storetest

import (
	"errors"
	"fmt"
	"sync"
	"testing"

	"github.com/kapi-dev/kapi/store/storetest/internal/check"
	"github.com/kapi-dev/kapi/store/storetest/internal/require"

	"github.com/kapi-dev/kapi/meta"
	"github.com/kapi-dev/kapi/store"
)

func testRevisions(t *testing.T, newStore Factory) {
	t.Run("an empty store is at revision 1", func(t *testing.T) {
		s := newStore(t, Options{})
		check.Equal(t, int64(1), s.Revision())
		res := mustList(t, s, "/", store.ListOptions{})
		check.Equal(t, int64(1), res.Revision)
		check.Empty(t, res.Items)
		check.Zero(t, res.Total)
	})

	t.Run("each create, update and delete adds exactly one revision", func(t *testing.T) {
		s := newStore(t, Options{})
		created := mustCreate(t, s, "/a/x")
		check.Equal(t, int64(2), created.Revision())
		check.Equal(t, int64(2), s.Revision())
		updated := mustSet(t, s, "/a/x", "k", "v")
		check.Equal(t, int64(3), updated.Revision())
		check.Equal(t, int64(3), s.Revision())
		other := mustCreate(t, s, "/a/y")
		check.Equal(t, int64(4), other.Revision())
		deleted := mustDelete(t, s, "/a/x")
		check.Equal(t, int64(5), deleted.Revision())
		check.Equal(t, int64(5), s.Revision())
		check.Equal(t, int64(5), mustList(t, s, "/", store.ListOptions{}).Revision)
	})

	t.Run("failed and empty writes do not advance the revision", func(t *testing.T) {
		boom := errors.New("boom")
		tests := []struct {
			name  string
			write func(s store.Store) error
		}{
			{"create of an existing key", func(s store.Store) error {
				_, err := s.Create(t.Context(), "/a/x", object("x"))
				return err
			}},
			{"update of a missing key", func(s store.Store) error {
				_, err := s.Update(t.Context(), "/a/missing", store.UpdateOptions{}, func(cur *store.Object) (meta.Object, error) {
					return object("missing"), nil
				})
				return err
			}},
			{"update whose precondition fails", func(s store.Store) error {
				_, err := s.Update(t.Context(), "/a/x", store.UpdateOptions{Preconditions: store.Preconditions{UID: "other"}},
					func(cur *store.Object) (meta.Object, error) { return withData(cur, "k", "v"), nil })
				return err
			}},
			{"update whose tryUpdate fails", func(s store.Store) error {
				_, err := s.Update(t.Context(), "/a/x", store.UpdateOptions{}, func(cur *store.Object) (meta.Object, error) {
					return nil, boom
				})
				return err
			}},
			{"update that changes nothing", func(s store.Store) error {
				_, err := s.Update(t.Context(), "/a/x", store.UpdateOptions{}, func(cur *store.Object) (meta.Object, error) {
					return nil, store.ErrNoChange
				})
				return err
			}},
			{"delete of a missing key", func(s store.Store) error {
				_, err := s.Delete(t.Context(), "/a/missing", store.Preconditions{}, nil)
				return err
			}},
			{"delete whose precondition fails", func(s store.Store) error {
				_, err := s.Delete(t.Context(), "/a/x", store.Preconditions{ResourceVersion: "1"}, nil)
				return err
			}},
			{"delete whose validation fails", func(s store.Store) error {
				_, err := s.Delete(t.Context(), "/a/x", store.Preconditions{}, func(*store.Object) error { return boom })
				return err
			}},
		}
		for _, tt := range tests {
			t.Run(tt.name, func(t *testing.T) {
				s := newStore(t, Options{})
				before := mustCreate(t, s, "/a/x")
				rev := s.Revision()
				_ = tt.write(s)
				check.Equal(t, rev, s.Revision())
				got, err := s.Get(t.Context(), "/a/x")
				require.NoError(t, err)
				check.Equal(t, versionOf(before), versionOf(got))
			})
		}
	})
}

func testCreateGet(t *testing.T, newStore Factory) {
	t.Run("Create stamps metadata.resourceVersion with its revision and keeps the data", func(t *testing.T) {
		s := newStore(t, Options{})
		mustCreate(t, s, "/a/first")
		o, err := s.Create(t.Context(), "/a/x", object("x", "k", "v"))
		require.NoError(t, err)
		check.Equal(t, "/a/x", o.Key())
		check.Equal(t, int64(3), o.Revision())
		check.Equal(t, "3", o.Data().ResourceVersion())
		check.Equal(t, "x", o.Data().Name())
		check.Equal(t, "uid-x", o.Data().UID())
		check.Equal(t, "v", dataOf(o, "k"))
	})

	t.Run("Get returns the newest version", func(t *testing.T) {
		s := newStore(t, Options{})
		mustCreate(t, s, "/a/x", "k", "1")
		mustCreate(t, s, "/a/y", "k", "other")
		want := mustSet(t, s, "/a/x", "k", "2")
		got, err := s.Get(t.Context(), "/a/x")
		require.NoError(t, err)
		check.Equal(t, versionOf(want), versionOf(got))
		check.Equal(t, "2", dataOf(got, "k"))
	})

	t.Run("Get of a missing key is ErrNotFound", func(t *testing.T) {
		s := newStore(t, Options{})
		mustCreate(t, s, "/a/x")
		for _, key := range []string{"/a/y", "/a/", "/a", "/a/x/", "/a/xx"} {
			_, err := s.Get(t.Context(), key)
			check.ErrorIs(t, err, store.ErrNotFound, key)
		}
	})

	t.Run("Create of an existing key is ErrExists and changes nothing", func(t *testing.T) {
		s := newStore(t, Options{})
		first := mustCreate(t, s, "/a/x", "k", "1")
		_, err := s.Create(t.Context(), "/a/x", object("x", "k", "2"))
		require.ErrorIs(t, err, store.ErrExists)
		got, err := s.Get(t.Context(), "/a/x")
		require.NoError(t, err)
		check.Equal(t, versionOf(first), versionOf(got))
	})

	t.Run("a deleted key is gone and can be created again", func(t *testing.T) {
		s := newStore(t, Options{})
		mustCreate(t, s, "/a/x", "k", "1")
		mustDelete(t, s, "/a/x")
		_, err := s.Get(t.Context(), "/a/x")
		require.ErrorIs(t, err, store.ErrNotFound)
		again := mustCreate(t, s, "/a/x", "k", "2")
		check.Equal(t, int64(4), again.Revision())
		got, err := s.Get(t.Context(), "/a/x")
		require.NoError(t, err)
		check.Equal(t, "2", dataOf(got, "k"))
	})
}

// wrappedError is a tryUpdate error type the store must hand back intact.
type wrappedError struct{ why string }

func (e *wrappedError) Error() string { return e.why }

func testUpdate(t *testing.T, newStore Factory) {
	t.Run("Update applies tryUpdate to the newest version", func(t *testing.T) {
		s := newStore(t, Options{})
		v1 := mustCreate(t, s, "/a/x", "k", "1")
		var seen *store.Object
		o, err := s.Update(t.Context(), "/a/x", store.UpdateOptions{}, func(cur *store.Object) (meta.Object, error) {
			seen = cur
			return withData(cur, "k", "2"), nil
		})
		require.NoError(t, err)
		check.Equal(t, versionOf(v1), versionOf(seen))
		check.Equal(t, int64(3), o.Revision())
		check.Equal(t, "3", o.Data().ResourceVersion())
		check.Equal(t, "2", dataOf(o, "k"))
		check.Equal(t, "1", dataOf(v1, "k"), "the previous version must not change")
		check.Equal(t, "2", v1.Data().ResourceVersion(), "the previous version must not change")
	})

	t.Run("preconditions are checked against the current version", func(t *testing.T) {
		tests := []struct {
			name      string
			pre       store.Preconditions
			wantField string // "" means the update succeeds
		}{
			{"no preconditions", store.Preconditions{}, ""},
			{"matching UID", store.Preconditions{UID: "uid-x"}, ""},
			{"matching resourceVersion", store.Preconditions{ResourceVersion: "3"}, ""},
			{"matching UID and resourceVersion", store.Preconditions{UID: "uid-x", ResourceVersion: "3"}, ""},
			{"other UID", store.Preconditions{UID: "uid-y"}, "UID"},
			{"stale resourceVersion", store.Preconditions{ResourceVersion: "2"}, "ResourceVersion"},
			{"future resourceVersion", store.Preconditions{ResourceVersion: "4"}, "ResourceVersion"},
		}
		for _, tt := range tests {
			t.Run(tt.name, func(t *testing.T) {
				s := newStore(t, Options{})
				mustCreate(t, s, "/a/x")
				mustSet(t, s, "/a/x", "k", "1") // revision 3
				o, err := s.Update(t.Context(), "/a/x", store.UpdateOptions{Preconditions: tt.pre},
					func(cur *store.Object) (meta.Object, error) { return withData(cur, "k", "2"), nil })
				if tt.wantField == "" {
					require.NoError(t, err)
					check.Equal(t, int64(4), o.Revision())
					return
				}
				var pe *store.PreconditionError
				require.ErrorAs(t, err, &pe)
				check.Equal(t, tt.wantField, pe.Field)
				check.Equal(t, int64(3), s.Revision())
			})
		}
	})

	t.Run("an Update returning ErrNoChange writes nothing and returns the current version", func(t *testing.T) {
		s := newStore(t, Options{})
		cur := mustCreate(t, s, "/a/x", "k", "1")
		w, err := s.Watch(t.Context(), "/", store.WatchOptions{})
		require.NoError(t, err)
		defer w.Stop()
		o, err := s.Update(t.Context(), "/a/x", store.UpdateOptions{}, func(cur *store.Object) (meta.Object, error) {
			return nil, store.ErrNoChange
		})
		require.NoError(t, err)
		check.Equal(t, versionOf(cur), versionOf(o))
		check.Equal(t, int64(2), s.Revision())
		next := mustSet(t, s, "/a/x", "k", "2")
		evs := collect(t, w, next.Revision())
		require.Len(t, evs, 1, "the empty update must not produce an event")
		check.Equal(t, next.Revision(), evs[0].Revision)
	})

	t.Run("Update of a missing key is ErrNotFound without calling tryUpdate", func(t *testing.T) {
		s := newStore(t, Options{})
		called := false
		_, err := s.Update(t.Context(), "/a/x", store.UpdateOptions{}, func(cur *store.Object) (meta.Object, error) {
			called = true
			return object("x"), nil
		})
		require.ErrorIs(t, err, store.ErrNotFound)
		check.False(t, called)
	})

	t.Run("Update with AllowCreate creates a missing key from tryUpdate(nil)", func(t *testing.T) {
		s := newStore(t, Options{})
		w, err := s.Watch(t.Context(), "/", store.WatchOptions{})
		require.NoError(t, err)
		defer w.Stop()
		var seen []*store.Object
		o, err := s.Update(t.Context(), "/a/x", store.UpdateOptions{AllowCreate: true}, func(cur *store.Object) (meta.Object, error) {
			seen = append(seen, cur)
			return object("x", "k", "new"), nil
		})
		require.NoError(t, err)
		check.Equal(t, []*store.Object{nil}, seen)
		check.Equal(t, int64(2), o.Revision())
		check.Equal(t, "2", o.Data().ResourceVersion())
		evs := collect(t, w, 2)
		require.Len(t, evs, 1)
		check.Equal(t, store.Added, evs[0].Type)
		check.Nil(t, evs[0].Prev)

		// With the key present, AllowCreate is a plain update.
		o, err = s.Update(t.Context(), "/a/x", store.UpdateOptions{AllowCreate: true}, func(cur *store.Object) (meta.Object, error) {
			require.NotNil(t, cur)
			return withData(cur, "k", "updated"), nil
		})
		require.NoError(t, err)
		check.Equal(t, "updated", dataOf(o, "k"))
		evs = collect(t, w, 3)
		require.Len(t, evs, 1)
		check.Equal(t, store.Modified, evs[0].Type)
	})

	t.Run("tryUpdate's error is returned unchanged", func(t *testing.T) {
		s := newStore(t, Options{})
		mustCreate(t, s, "/a/x")
		cause := &wrappedError{why: "admission denied"}
		_, err := s.Update(t.Context(), "/a/x", store.UpdateOptions{}, func(cur *store.Object) (meta.Object, error) {
			return nil, fmt.Errorf("validating: %w", cause)
		})
		var got *wrappedError
		require.ErrorAs(t, err, &got)
		check.Same(t, cause, got)
		check.Equal(t, "validating: admission denied", err.Error())
	})

	t.Run("a write landing while tryUpdate runs makes Update retry on the newer version", func(t *testing.T) {
		s := newStore(t, Options{})
		mustCreate(t, s, "/a/x", "k", "0")
		var seen []string
		o, err := s.Update(t.Context(), "/a/x", store.UpdateOptions{}, func(cur *store.Object) (meta.Object, error) {
			seen = append(seen, dataOf(cur, "k"))
			if len(seen) == 1 {
				mustSet(t, s, "/a/x", "k", "1") // a concurrent writer wins
			}
			return withData(cur, "k", dataOf(cur, "k")+"+"), nil
		})
		require.NoError(t, err)
		check.Equal(t, []string{"0", "1"}, seen)
		check.Equal(t, "1+", dataOf(o, "k"))
		check.Equal(t, int64(4), o.Revision())
	})

	t.Run("preconditions are checked again when Update retries", func(t *testing.T) {
		s := newStore(t, Options{})
		v1 := mustCreate(t, s, "/a/x", "k", "0")
		calls := 0
		_, err := s.Update(t.Context(), "/a/x", store.UpdateOptions{Preconditions: store.Preconditions{ResourceVersion: v1.Data().ResourceVersion()}},
			func(cur *store.Object) (meta.Object, error) {
				if calls++; calls == 1 {
					mustSet(t, s, "/a/x", "k", "1")
				}
				return withData(cur, "k", "lost"), nil
			})
		var pe *store.PreconditionError
		require.ErrorAs(t, err, &pe)
		check.Equal(t, "ResourceVersion", pe.Field)
		check.Equal(t, 1, calls)
		got, err := s.Get(t.Context(), "/a/x")
		require.NoError(t, err)
		check.Equal(t, "1", dataOf(got, "k"))
	})

	t.Run("concurrent Updates lose no increment", func(t *testing.T) {
		const goroutines, increments = 20, 50
		s := newStore(t, Options{})
		start := mustCreate(t, s, "/a/counter", "n", "0")
		var wg sync.WaitGroup
		for range goroutines {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for range increments {
					_, err := s.Update(t.Context(), "/a/counter", store.UpdateOptions{}, func(cur *store.Object) (meta.Object, error) {
						var n int
						if _, err := fmt.Sscan(dataOf(cur, "n"), &n); err != nil {
							return nil, err
						}
						return withData(cur, "n", fmt.Sprint(n+1)), nil
					})
					if !check.NoError(t, err) {
						return
					}
				}
			}()
		}
		wg.Wait()
		got, err := s.Get(t.Context(), "/a/counter")
		require.NoError(t, err)
		check.Equal(t, fmt.Sprint(goroutines*increments), dataOf(got, "n"))
		check.Equal(t, start.Revision()+goroutines*increments, got.Revision())
		check.Equal(t, got.Revision(), s.Revision())
	})
}

func testDelete(t *testing.T, newStore Factory) {
	t.Run("Delete returns the last state stamped with the deletion revision", func(t *testing.T) {
		s := newStore(t, Options{})
		mustCreate(t, s, "/a/x", "k", "1")
		last := mustSet(t, s, "/a/x", "k", "2")
		mustCreate(t, s, "/a/y")
		o, err := s.Delete(t.Context(), "/a/x", store.Preconditions{}, nil)
		require.NoError(t, err)
		check.Equal(t, "/a/x", o.Key())
		check.Equal(t, int64(5), o.Revision())
		check.Equal(t, "5", o.Data().ResourceVersion())
		check.Equal(t, "2", dataOf(o, "k"))
		check.Equal(t, "uid-x", o.Data().UID())
		check.Equal(t, "3", last.Data().ResourceVersion(), "the deleted version must not change")
		_, err = s.Get(t.Context(), "/a/x")
		check.ErrorIs(t, err, store.ErrNotFound)
	})

	t.Run("Delete of a missing key is ErrNotFound", func(t *testing.T) {
		s := newStore(t, Options{})
		_, err := s.Delete(t.Context(), "/a/x", store.Preconditions{}, nil)
		check.ErrorIs(t, err, store.ErrNotFound)
	})

	t.Run("Delete checks preconditions against the version deleted", func(t *testing.T) {
		tests := []struct {
			name      string
			pre       store.Preconditions
			wantField string
		}{
			{"matching UID and resourceVersion", store.Preconditions{UID: "uid-x", ResourceVersion: "3"}, ""},
			{"other UID", store.Preconditions{UID: "uid-y"}, "UID"},
			{"stale resourceVersion", store.Preconditions{ResourceVersion: "2"}, "ResourceVersion"},
		}
		for _, tt := range tests {
			t.Run(tt.name, func(t *testing.T) {
				s := newStore(t, Options{})
				mustCreate(t, s, "/a/x")
				mustSet(t, s, "/a/x", "k", "1")
				_, err := s.Delete(t.Context(), "/a/x", tt.pre, nil)
				_, getErr := s.Get(t.Context(), "/a/x")
				if tt.wantField == "" {
					require.NoError(t, err)
					check.ErrorIs(t, getErr, store.ErrNotFound)
					return
				}
				var pe *store.PreconditionError
				require.ErrorAs(t, err, &pe)
				check.Equal(t, tt.wantField, pe.Field)
				check.NoError(t, getErr, "the object must still exist")
			})
		}
	})

	t.Run("a validate error aborts the delete and is returned unchanged", func(t *testing.T) {
		s := newStore(t, Options{})
		v := mustCreate(t, s, "/a/x")
		cause := &wrappedError{why: "has finalizers"}
		var seen *store.Object
		_, err := s.Delete(t.Context(), "/a/x", store.Preconditions{}, func(cur *store.Object) error {
			seen = cur
			return fmt.Errorf("wrapped: %w", cause)
		})
		var got *wrappedError
		require.ErrorAs(t, err, &got)
		check.Same(t, cause, got)
		check.Equal(t, versionOf(v), versionOf(seen))
		_, err = s.Get(t.Context(), "/a/x")
		check.NoError(t, err)
	})

	t.Run("validate sees the exact version deleted, even when a write lands during it", func(t *testing.T) {
		s := newStore(t, Options{})
		mustCreate(t, s, "/a/x", "k", "0")
		w, err := s.Watch(t.Context(), "/", store.WatchOptions{})
		require.NoError(t, err)
		defer w.Stop()
		var seen []string
		o, err := s.Delete(t.Context(), "/a/x", store.Preconditions{}, func(cur *store.Object) error {
			seen = append(seen, dataOf(cur, "k"))
			if len(seen) == 1 {
				mustSet(t, s, "/a/x", "k", "1")
			}
			return nil
		})
		require.NoError(t, err)
		check.Equal(t, []string{"0", "1"}, seen)
		check.Equal(t, "1", dataOf(o, "k"))
		evs := collect(t, w, o.Revision())
		require.Len(t, evs, 2)
		check.Equal(t, store.Deleted, evs[1].Type)
		check.Equal(t, "1", dataOf(evs[1].Prev, "k"))
		check.Equal(t, evs[0].Revision, evs[1].Prev.Revision())
	})
}
