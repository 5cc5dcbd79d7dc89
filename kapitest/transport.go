package kapitest

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
)

// inProcess is an http.RoundTripper that answers each request by calling
// an http.Handler in the caller's process: no socket, no TLS, no HTTP
// framing. The handler runs in a goroutine of its own; the response is
// handed back as soon as the handler returns (its body then a plain byte
// slice) or flushes (a watch: the body is then a pipe the handler keeps
// writing to). Closing the response body, or cancelling the request's
// context, cancels the context the handler sees, as a client that goes
// away does over a connection.
type inProcess struct {
	handler http.Handler
	closed  *atomic.Bool // the server's: set by Close
}

// errClosed is what a request to a closed server gets, as a refused
// connection.
var errClosed = errors.New("kapitest: the server is closed")

func (t inProcess) RoundTrip(req *http.Request) (*http.Response, error) {
	if t.closed.Load() {
		if req.Body != nil {
			_ = req.Body.Close()
		}
		return nil, errClosed
	}
	ctx, cancel := context.WithCancel(req.Context())
	// The handler's copy: its own headers and URL, which filters change
	// (authentication drops Authorization), as a server parses its own
	// from the wire. req.Clone would copy more than a request from a
	// client has (forms, trailers).
	r := req.WithContext(ctx)
	u := *req.URL
	r.URL = &u
	r.Header = req.Header.Clone()
	if r.Header == nil {
		r.Header = http.Header{}
	}
	if r.Body == nil {
		r.Body = http.NoBody
	}
	if r.Host == "" {
		r.Host = req.URL.Host
	}
	r.RequestURI = req.URL.RequestURI()
	r.RemoteAddr = "127.0.0.1:0"
	if r.Proto == "" {
		r.Proto, r.ProtoMajor, r.ProtoMinor = "HTTP/1.1", 1, 1
	}
	if r.ContentLength == 0 && r.Body != http.NoBody {
		r.ContentLength = -1
	}

	w := &responseWriter{header: http.Header{}, ready: make(chan struct{}), req: req, ctx: ctx, cancel: cancel}
	if !streaming(req) {
		// Answered in the caller's goroutine, body buffered: most requests.
		w.buffered = true
		func() {
			defer func() {
				if p := recover(); p != nil {
					w.finish(fmt.Errorf("kapitest: the handler panicked: %v", p))
					return
				}
				w.finish(nil)
			}()
			t.handler.ServeHTTP(w, r)
		}()
		if err := req.Context().Err(); err != nil {
			cancel()
			return nil, err // the client gave up first
		}
		if w.err != nil {
			cancel()
			return nil, w.err
		}
		return w.resp, nil
	}
	go func() {
		defer func() {
			if p := recover(); p != nil {
				w.finish(fmt.Errorf("kapitest: the handler panicked: %v", p))
				return
			}
			w.finish(nil)
		}()
		t.handler.ServeHTTP(w, r)
	}()
	select {
	case <-w.ready:
	case <-req.Context().Done():
		cancel()
		<-w.ready
		if w.resp != nil {
			_ = w.resp.Body.Close()
		}
		return nil, req.Context().Err()
	}
	if w.err != nil {
		cancel()
		return nil, w.err
	}
	return w.resp, nil
}

// streaming says whether the answer to req may be a stream the handler
// keeps writing (a watch, a followed log), which the handler then writes
// from a goroutine of its own.
func streaming(req *http.Request) bool {
	if strings.Contains(req.URL.Path, "/watch/") {
		return true
	}
	q := req.URL.RawQuery
	if q == "" {
		return false
	}
	v := req.URL.Query()
	switch v.Get("watch") {
	case "true", "1":
		return true
	}
	return v.Get("follow") == "true"
}

// responseWriter collects a handler's answer. Until the handler flushes
// or returns, its writes are buffered; the first flush turns the body into
// a pipe (streamed), and the handler's return completes it.
type responseWriter struct {
	header http.Header
	req    *http.Request
	ctx    context.Context // the handler's
	cancel context.CancelFunc

	mu       sync.Mutex
	code     int
	buf      bytes.Buffer
	pipe     *io.PipeWriter
	resp     *http.Response
	err      error
	ready    chan struct{} // closed once resp (or err) is set
	sent     bool
	finished bool
	// buffered keeps the whole body until the handler returns (flushes
	// do nothing): the handler runs in RoundTrip's goroutine.
	buffered bool
}

func (w *responseWriter) Header() http.Header { return w.header }

func (w *responseWriter) WriteHeader(code int) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.code == 0 && code >= 200 {
		w.code = code
	}
}

func (w *responseWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	if w.code == 0 {
		w.code = http.StatusOK
	}
	if w.finished {
		w.mu.Unlock()
		return 0, http.ErrHandlerTimeout
	}
	if w.pipe == nil {
		n, err := w.buf.Write(p)
		w.mu.Unlock()
		return n, err
	}
	pipe := w.pipe
	w.mu.Unlock()
	return pipe.Write(p) // blocks until the client reads, as a socket would
}

// FlushError hands the response to the client, streaming from then on. It
// fails once the client has gone away, which ends a watch.
func (w *responseWriter) FlushError() error {
	w.mu.Lock()
	if w.code == 0 {
		w.code = http.StatusOK
	}
	if w.pipe == nil && !w.buffered {
		pr, pw := io.Pipe()
		w.pipe = pw
		if w.buf.Len() > 0 {
			pending := bytes.Clone(w.buf.Bytes())
			w.buf.Reset()
			w.send(&pipeBody{PipeReader: pr, cancel: w.cancel, pending: pending}, -1)
		} else {
			w.send(&pipeBody{PipeReader: pr, cancel: w.cancel}, -1)
		}
	}
	w.mu.Unlock()
	return w.ctx.Err()
}

// Flush is FlushError for callers of http.Flusher.
func (w *responseWriter) Flush() { _ = w.FlushError() }

// finish completes the response when the handler returns.
func (w *responseWriter) finish(err error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.finished = true
	if w.sent {
		if w.pipe != nil {
			_ = w.pipe.CloseWithError(err)
		}
		w.cancel()
		return
	}
	if err != nil {
		w.err, w.sent = err, true
		close(w.ready)
		return
	}
	if w.code == 0 {
		w.code = http.StatusOK
	}
	body := w.buf.Bytes()
	length := int64(len(body))
	if w.req.Method == http.MethodHead {
		length = -1
		if cl := w.header.Get("Content-Length"); cl != "" {
			length, _ = strconv.ParseInt(cl, 10, 64)
		}
	}
	w.send(&bytesBody{Reader: bytes.NewReader(body), cancel: w.cancel}, length)
}

// send builds the response around body (of length bytes, -1 if unknown)
// and releases RoundTrip. w.mu is held.
func (w *responseWriter) send(body io.ReadCloser, length int64) {
	h := w.header // a handler that has returned changes it no more
	if !w.finished {
		h = h.Clone() // a stream: the handler goes on with its own
	}
	w.resp = &http.Response{
		Status:        strconv.Itoa(w.code) + " " + http.StatusText(w.code),
		StatusCode:    w.code,
		Proto:         "HTTP/1.1",
		ProtoMajor:    1,
		ProtoMinor:    1,
		Header:        h,
		Body:          body,
		ContentLength: length,
		Request:       w.req,
	}
	w.sent = true
	close(w.ready)
}

// bytesBody is a complete response body; closing it releases the
// handler's context.
type bytesBody struct {
	*bytes.Reader
	cancel context.CancelFunc
}

func (b *bytesBody) Close() error {
	b.cancel()
	return nil
}

// pipeBody is a streamed response body: what the handler wrote before its
// first flush, then the pipe.
type pipeBody struct {
	*io.PipeReader
	cancel  context.CancelFunc
	pending []byte
}

func (b *pipeBody) Read(p []byte) (int, error) {
	if len(b.pending) > 0 {
		n := copy(p, b.pending)
		b.pending = b.pending[n:]
		return n, nil
	}
	return b.PipeReader.Read(p)
}

func (b *pipeBody) Close() error {
	b.cancel()
	return b.PipeReader.Close()
}
