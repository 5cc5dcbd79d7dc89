package kapitest

import (
	"context"
	"io"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// These tests hold the in-process transport to what a client gets from a
// server over a connection, with plain handlers; the tests of the kit
// (server_test.go, faults_test.go) do so through client-go and kapi.

func roundTrip(t *testing.T, h http.HandlerFunc, req *http.Request) (*http.Response, error) {
	t.Helper()
	return inProcess{handler: h, closed: &atomic.Bool{}}.RoundTrip(req)
}

func newRequest(t *testing.T, method, url string) *http.Request {
	t.Helper()
	req, err := http.NewRequestWithContext(t.Context(), method, url, nil)
	require.NoError(t, err)
	return req
}

func TestAnAnswerArrivesWithItsStatusHeadersAndBody(t *testing.T) {
	body := strings.Repeat("x", 3000)
	resp, err := roundTrip(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain")
		w.Header().Set("Content-Length", strconv.Itoa(len(body)))
		w.WriteHeader(http.StatusCreated)
		_, _ = io.WriteString(w, body[:1000])
		_, _ = io.WriteString(w, body[1000:])
	}, newRequest(t, http.MethodGet, "http://kapitest.invalid/api/v1/namespaces"))
	require.NoError(t, err)
	defer resp.Body.Close()
	assert.Equal(t, http.StatusCreated, resp.StatusCode)
	assert.Equal(t, "201 Created", resp.Status)
	assert.Equal(t, "text/plain", resp.Header.Get("Content-Type"))
	assert.Equal(t, int64(len(body)), resp.ContentLength)
	got, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	assert.Equal(t, body, string(got))
}

func TestAnAnswerLongerThanItsAnnouncedLengthArrivesWhole(t *testing.T) {
	resp, err := roundTrip(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Length", "2")
		_, _ = io.WriteString(w, "abc")
		_, _ = io.WriteString(w, "def")
	}, newRequest(t, http.MethodGet, "http://kapitest.invalid/x"))
	require.NoError(t, err)
	got, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	assert.Equal(t, "abcdef", string(got))
	assert.Equal(t, http.StatusOK, resp.StatusCode)
}

func TestAHandlerThatWritesNothingAnswers200WithAnEmptyBody(t *testing.T) {
	resp, err := roundTrip(t, func(http.ResponseWriter, *http.Request) {}, newRequest(t, http.MethodGet, "http://kapitest.invalid/x"))
	require.NoError(t, err)
	assert.Equal(t, "200 OK", resp.Status)
	got, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	assert.Empty(t, got)
	assert.Equal(t, int64(0), resp.ContentLength)
}

func TestAHEADAnswerKeepsTheLengthItAnnounces(t *testing.T) {
	resp, err := roundTrip(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Length", "42")
	}, newRequest(t, http.MethodHead, "http://kapitest.invalid/x"))
	require.NoError(t, err)
	assert.Equal(t, int64(42), resp.ContentLength)
}

func TestAClosedBodyReadsNoMore(t *testing.T) {
	resp, err := roundTrip(t, func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.WriteString(w, "abcdef")
	}, newRequest(t, http.MethodGet, "http://kapitest.invalid/x"))
	require.NoError(t, err)
	p := make([]byte, 2)
	n, err := resp.Body.Read(p)
	require.NoError(t, err)
	assert.Equal(t, "ab", string(p[:n]))
	require.NoError(t, resp.Body.Close())
	require.NoError(t, resp.Body.Close(), "closing twice is harmless")
	_, err = resp.Body.Read(p)
	assert.ErrorIs(t, err, errBodyClosed)
}

func TestTheHandlerWorksOnACopyOfTheRequest(t *testing.T) {
	req := newRequest(t, http.MethodGet, "http://kapitest.invalid/api/v1/pods?limit=1")
	req.Header.Set("Authorization", "Bearer secret")
	resp, err := roundTrip(t, func(w http.ResponseWriter, r *http.Request) {
		assert.Equal(t, "Bearer secret", r.Header.Get("Authorization"))
		assert.Equal(t, "/api/v1/pods?limit=1", r.RequestURI)
		assert.Equal(t, "kapitest.invalid", r.Host)
		assert.NotEmpty(t, r.RemoteAddr)
		r.Header.Del("Authorization") // as authentication does
		r.URL.Path = "/changed"
	}, req)
	require.NoError(t, err)
	require.NoError(t, resp.Body.Close())
	assert.Equal(t, "Bearer secret", req.Header.Get("Authorization"))
	assert.Equal(t, "/api/v1/pods", req.URL.Path)
	assert.Same(t, req, resp.Request)
}

func TestTheHandlersContextEndsWhenItReturns(t *testing.T) {
	var ctx context.Context
	resp, err := roundTrip(t, func(w http.ResponseWriter, r *http.Request) {
		ctx = r.Context()
		assert.NoError(t, ctx.Err())
	}, newRequest(t, http.MethodGet, "http://kapitest.invalid/x"))
	require.NoError(t, err)
	require.NoError(t, resp.Body.Close())
	assert.ErrorIs(t, ctx.Err(), context.Canceled)
}

func TestWritesAfterTheHandlerReturnedFail(t *testing.T) {
	var w http.ResponseWriter
	resp, err := roundTrip(t, func(rw http.ResponseWriter, r *http.Request) {
		w = rw
		_, _ = io.WriteString(rw, "answer")
	}, newRequest(t, http.MethodGet, "http://kapitest.invalid/x"))
	require.NoError(t, err)
	_, err = io.WriteString(w, "late")
	assert.ErrorIs(t, err, http.ErrHandlerTimeout)
	assert.ErrorIs(t, http.NewResponseController(w).Flush(), http.ErrHandlerTimeout)
	got, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	assert.Equal(t, "answer", string(got))
}

func TestAPanickingHandlerIsAnErrorNotAPanic(t *testing.T) {
	_, err := roundTrip(t, func(http.ResponseWriter, *http.Request) { panic("boom") },
		newRequest(t, http.MethodGet, "http://kapitest.invalid/x"))
	require.ErrorContains(t, err, "the handler panicked: boom")
}

func TestAClientThatGaveUpGetsItsContextsError(t *testing.T) {
	ctx, cancel := context.WithCancel(t.Context())
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, "http://kapitest.invalid/x", nil)
	require.NoError(t, err)
	_, err = roundTrip(t, func(w http.ResponseWriter, r *http.Request) {
		cancel()
		<-r.Context().Done() // the handler sees the client go
		_, _ = io.WriteString(w, "too late")
	}, req)
	assert.ErrorIs(t, err, context.Canceled)
}

func TestAFlushBeforeTheEndOfAPlainRequestSendsTheWholeAnswer(t *testing.T) {
	resp, err := roundTrip(t, func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.WriteString(w, "a")
		require.NoError(t, http.NewResponseController(w).Flush())
		_, _ = io.WriteString(w, "b")
	}, newRequest(t, http.MethodGet, "http://kapitest.invalid/x"))
	require.NoError(t, err)
	got, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	assert.Equal(t, "ab", string(got))
}

func TestAWatchIsStreamedAsTheHandlerFlushes(t *testing.T) {
	next := make(chan struct{})
	resp, err := roundTrip(t, func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.WriteString(w, "first\n")
		_ = http.NewResponseController(w).Flush()
		<-next
		_, _ = io.WriteString(w, "second\n")
	}, newRequest(t, http.MethodGet, "http://kapitest.invalid/api/v1/pods?watch=true"))
	require.NoError(t, err, "the response comes at the first flush")
	p := make([]byte, 6)
	_, err = io.ReadFull(resp.Body, p)
	require.NoError(t, err)
	assert.Equal(t, "first\n", string(p))
	close(next)
	rest, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	assert.Equal(t, "second\n", string(rest))
	require.NoError(t, resp.Body.Close())
}

func TestOnlyWatchesAndFollowedLogsAreStreamed(t *testing.T) {
	for url, want := range map[string]bool{
		"http://h/api/v1/pods":                                 false,
		"http://h/api/v1/pods?limit=500":                       false,
		"http://h/api/v1/pods?watch=true":                      true,
		"http://h/api/v1/pods?watch=1&resourceVersion=3":       true,
		"http://h/api/v1/pods?watch=false":                     false,
		"http://h/api/v1/watch/pods":                           true,
		"http://h/api/v1/namespaces/a/pods/p/log?follow=true":  true,
		"http://h/api/v1/namespaces/a/pods/p/log":              false,
		"http://h/api/v1/configmaps?labelSelector=watcher%3Dx": false,
	} {
		assert.Equal(t, want, streaming(newRequest(t, http.MethodGet, url)), url)
	}
}

func TestParallelRequestsGetTheirOwnAnswers(t *testing.T) {
	h := func(w http.ResponseWriter, r *http.Request) {
		body := strings.Repeat(r.URL.Query().Get("n"), 100+len(r.URL.Query().Get("n"))*50)
		w.Header().Set("Content-Length", strconv.Itoa(len(body)))
		_, _ = io.WriteString(w, body)
	}
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 200 {
				n := strconv.Itoa(g*1000 + i)
				resp, err := roundTrip(t, h, newRequest(t, http.MethodGet, "http://kapitest.invalid/x?n="+n))
				if !assert.NoError(t, err) {
					return
				}
				got, err := io.ReadAll(resp.Body)
				assert.NoError(t, err)
				assert.NoError(t, resp.Body.Close())
				assert.Equal(t, strings.Repeat(n, 100+len(n)*50), string(got))
			}
		}()
	}
	wg.Wait()
}
