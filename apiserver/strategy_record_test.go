package apiserver

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kapi-dev/kapi/meta"
	"github.com/kapi-dev/kapi/store"
	"github.com/kapi-dev/kapi/store/memory"
)

const ticketsKey = "/counters/tickets"

// ticketStrategy gives each new Ticket the next number of a counter kept
// in a record of the store (Write.UpdateRecord), as a Service's node
// ports are kept.
type ticketStrategy struct{ GenericStrategy }

func (ticketStrategy) PrepareForCreate(w *Write, obj meta.Object) {
	var n int64
	_, err := w.UpdateRecord(ticketsKey, func(cur meta.Object) (meta.Object, error) {
		n = 1
		if cur != nil {
			last, _ := meta.AsInt64(cur["last"])
			n = last + 1
		}
		return meta.Object{"metadata": map[string]any{}, "last": n}, nil
	})
	if err != nil {
		obj["error"] = err.Error()
		return
	}
	obj["number"] = n
}

func newTicketServer(t *testing.T, st store.Store) *Server {
	t.Helper()
	srv, err := New(Config{Store: st, Resources: []Resource{{Group: "example.com", Version: "v1", Kind: "Ticket",
		Plural: "tickets", Namespaced: true, WithoutGeneration: true, Strategy: ticketStrategy{}}}})
	require.NoError(t, err)
	return srv
}

const tickets = "/apis/example.com/v1/namespaces/default/tickets"

func createTicket(h http.Handler, path, name string) (int, map[string]any) {
	req := httptest.NewRequest(http.MethodPost, path, strings.NewReader(`{"metadata":{"name":"`+name+`"}}`))
	req.Header.Set("Content-Type", "application/json")
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	var out map[string]any
	_ = json.Unmarshal(rec.Body.Bytes(), &out)
	return rec.Code, out
}

func TestARecordIsSharedByTheServersOfAStoreAndNoUpdateIsLost(t *testing.T) {
	st := memory.New(memory.Config{})
	srvs := []*Server{newTicketServer(t, st), newTicketServer(t, st)}
	const n = 60
	var wg sync.WaitGroup
	numbers := make([]any, n)
	codes := make([]int, n)
	for i := 0; i < n; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var out map[string]any
			codes[i], out = createTicket(srvs[i%2], tickets, fmt.Sprintf("t%d", i))
			numbers[i] = out["number"]
		}()
	}
	wg.Wait()
	seen := map[float64]bool{}
	for i := 0; i < n; i++ {
		require.Equal(t, http.StatusCreated, codes[i])
		num, ok := numbers[i].(float64)
		require.True(t, ok, "ticket t%d has a number: %v", i, numbers[i])
		assert.False(t, seen[num], "number %v given twice", num)
		seen[num] = true
	}
	rec, err := st.Get(t.Context(), ticketsKey)
	require.NoError(t, err)
	assert.EqualValues(t, n, rec.Data()["last"], "every server's update is in the record")
}

func TestADryRunReadsTheRecordAndStoresNothing(t *testing.T) {
	st := memory.New(memory.Config{})
	srv := newTicketServer(t, st)

	code, out := createTicket(srv, tickets+"?dryRun=All", "d")
	require.Equal(t, http.StatusCreated, code, out)
	assert.EqualValues(t, 1, out["number"], "a dry run sees no record and answers what a write would")
	_, err := st.Get(t.Context(), ticketsKey)
	assert.ErrorIs(t, err, store.ErrNotFound, "and creates none")

	code, out = createTicket(srv, tickets, "a")
	require.Equal(t, http.StatusCreated, code, out)
	before, err := st.Get(t.Context(), ticketsKey)
	require.NoError(t, err)
	code, out = createTicket(srv, tickets+"?dryRun=All", "b")
	require.Equal(t, http.StatusCreated, code, out)
	assert.EqualValues(t, 2, out["number"])
	after, err := st.Get(t.Context(), ticketsKey)
	require.NoError(t, err)
	assert.Equal(t, before.Revision(), after.Revision(), "the record is not written")
}
