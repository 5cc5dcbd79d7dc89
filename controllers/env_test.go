package controllers_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/kapi-dev/kapi/apiserver"
	"github.com/kapi-dev/kapi/apiserver/builtin"
	"github.com/kapi-dev/kapi/controllers"
	"github.com/kapi-dev/kapi/meta"
	"github.com/kapi-dev/kapi/store"
	"github.com/stretchr/testify/require"
)

// env is a server with the built-in kinds and the controllers running.
type env struct {
	t   *testing.T
	srv *apiserver.Server
	m   *controllers.Manager
	ctx context.Context
}

func newEnv(t *testing.T, opts controllers.Options) *env {
	t.Helper()
	srv, err := apiserver.New(apiserver.Config{Resources: builtin.Resources(), OpenAPIComponents: builtin.OpenAPIComponents()})
	require.NoError(t, err)
	ctx, cancel := context.WithCancel(context.Background())
	m, err := controllers.Start(ctx, srv, opts)
	require.NoError(t, err)
	t.Cleanup(func() {
		cancel()
		select {
		case <-m.Done():
		case <-time.After(time.Minute):
			t.Error("the controllers' goroutines did not end")
		}
	})
	e := &env{t: t, srv: srv, m: m, ctx: ctx}
	e.idle()
	return e
}

// idle waits until the controllers have nothing left to do.
func (e *env) idle() {
	e.t.Helper()
	ctx, cancel := context.WithTimeout(e.ctx, 5*time.Minute) // a bound for a hang only
	defer cancel()
	require.NoError(e.t, e.m.WaitIdle(ctx))
}

// do sends a request and returns the code and the decoded JSON body.
func (e *env) do(method, path, contentType, body string) (int, map[string]any) {
	e.t.Helper()
	r := httptest.NewRequest(method, path, strings.NewReader(body))
	if contentType == "" {
		contentType = "application/json"
	}
	r.Header.Set("Content-Type", contentType)
	w := httptest.NewRecorder()
	e.srv.ServeHTTP(w, r)
	var out map[string]any
	_ = json.Unmarshal(w.Body.Bytes(), &out)
	return w.Code, out
}

// must sends a request that must answer code.
func (e *env) must(code int, method, path, body string) map[string]any {
	e.t.Helper()
	got, out := e.do(method, path, "", body)
	require.Equal(e.t, code, got, "%s %s: %v", method, path, out)
	return out
}

// exists reports whether GET path finds an object.
func (e *env) exists(path string) bool {
	e.t.Helper()
	code, _ := e.do(http.MethodGet, path, "", "")
	return code == http.StatusOK
}

func nested(obj map[string]any, path ...string) any {
	var v any = obj
	for _, p := range path {
		m, _ := v.(map[string]any)
		v = m[p]
	}
	return v
}

// managedBy is obj's managedFields entry of manager, nil when none.
func managedBy(obj map[string]any, manager string) map[string]any {
	list, _ := nested(obj, "metadata", "managedFields").([]any)
	for _, e := range list {
		if m, _ := e.(map[string]any); m["manager"] == manager {
			return m
		}
	}
	return nil
}

// recorder collects the store's events from now on, as one-line
// summaries: "TYPE name finalizers=[...] dt=bool owners=[name:block...]".
type recorder struct {
	e     *env
	w     store.Watcher
	lines []string
}

func (e *env) record() *recorder {
	e.t.Helper()
	w, err := e.srv.Store().Watch(e.ctx, "/", store.WatchOptions{})
	require.NoError(e.t, err)
	e.t.Cleanup(w.Stop)
	return &recorder{e: e, w: w}
}

// take returns the summaries of the events so far under prefix.
func (r *recorder) take(prefix string) []string {
	ctx, cancel := context.WithCancel(r.e.ctx)
	cancel()
	evs, _ := r.w.Next(ctx)
	for _, ev := range evs {
		if !strings.HasPrefix(ev.Object.Key(), prefix) {
			continue
		}
		d := ev.Object.Data()
		var owners []string
		for _, o := range ownerList(d) {
			owners = append(owners, fmt.Sprintf("%v:%v", o["name"], o["blockOwnerDeletion"]))
		}
		r.lines = append(r.lines, fmt.Sprintf("%s %s finalizers=%v dt=%v owners=%v", ev.Type, d.Name(), d.Finalizers(),
			d.DeletionTimestamp() != "", owners))
	}
	return r.lines
}

func ownerList(d meta.Object) []map[string]any {
	list, _ := d.Metadata()["ownerReferences"].([]any)
	var out []map[string]any
	for _, v := range list {
		out = append(out, v.(map[string]any))
	}
	return out
}
