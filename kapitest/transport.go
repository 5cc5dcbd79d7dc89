package kapitest

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
)

// inProcess is an http.RoundTripper that answers each request by calling
// an http.Handler in the caller's process: no socket, no TLS, no HTTP
// framing. A plain request (everything but watches and followed logs) is
// answered in the caller's goroutine, its body buffered until the handler
// returns (see call); a request whose answer may be a stream runs the
// handler in a goroutine of its own and is answered at the handler's
// first flush, its body then a pipe the handler keeps writing to (see
// stream). The context the handler sees ends when the client cancels the
// request's, when the handler returns (as on a server), and, for a stream,
// when the client closes the response body, as a client that goes away
// does over a connection.
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
	if streaming(req) {
		return t.stream(req)
	}
	return t.call(req)
}

// serverRequest is the handler's copy of req, with ctx: its own headers
// and URL, which filters change (authentication drops Authorization), as
// a server parses its own from the wire. req.Clone would copy more than a
// request from a client has (forms, trailers). u holds the URL's copy.
func serverRequest(req *http.Request, ctx context.Context, u *url.URL) *http.Request {
	r := req.WithContext(ctx)
	*u = *req.URL
	r.URL = u
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
	return r
}

// call answers a request that is not a stream (every request but watches
// and followed logs) in the caller's goroutine: the handler writes into a
// buffer the response body then reads. Everything a call needs beyond the
// two requests and the headers is one allocation (bufferedCall), and the
// buffer comes from a pool it returns to when the body is closed. The
// handler's context ends when it returns, as a server's does.
func (t inProcess) call(req *http.Request) (*http.Response, error) {
	c := &bufferedCall{}
	ctx, cancel := context.WithCancel(req.Context())
	r := serverRequest(req, ctx, &c.url)
	c.w.header = make(http.Header, 4)
	err := c.serve(t.handler, r)
	cancel()
	if err == nil {
		err = req.Context().Err() // the client gave up first
	}
	w := &c.w
	if err != nil {
		w.buf.release()
		return nil, err
	}
	if w.code == 0 {
		w.code = http.StatusOK
	}
	var length int64
	if w.buf != nil {
		length = int64(len(w.buf.b))
	}
	if req.Method == http.MethodHead {
		length = -1
		if cl := w.header.Get("Content-Length"); cl != "" {
			length, _ = strconv.ParseInt(cl, 10, 64)
		}
	}
	c.body.reset(w.buf)
	c.resp = http.Response{
		Status:        statusLine(w.code),
		StatusCode:    w.code,
		Proto:         "HTTP/1.1",
		ProtoMajor:    1,
		ProtoMinor:    1,
		Header:        w.header, // the handler has returned: it changes it no more
		Body:          &c.body,
		ContentLength: length,
		Request:       req,
	}
	return &c.resp, nil
}

// serve runs the handler, turning a panic into an error as a server
// turns one into a closed connection.
func (c *bufferedCall) serve(h http.Handler, r *http.Request) (err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("kapitest: the handler panicked: %v", p)
		}
		c.w.mu.Lock()
		c.w.finished = true
		c.w.mu.Unlock()
	}()
	h.ServeHTTP(&c.w, r)
	return nil
}

// stream answers a request whose answer may be a stream (a watch, a
// followed log): the handler runs in a goroutine of its own, and the
// response is handed back as soon as it returns or flushes (the body is
// then a pipe the handler keeps writing to). Closing the response body,
// or cancelling the request's context, cancels the context the handler
// sees, as a client that goes away does over a connection.
func (t inProcess) stream(req *http.Request) (*http.Response, error) {
	ctx, cancel := context.WithCancel(req.Context())
	r := serverRequest(req, ctx, new(url.URL))
	w := &responseWriter{header: http.Header{}, ready: make(chan struct{}), req: req, ctx: ctx, cancel: cancel}
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
	if !strings.Contains(q, "watch") && !strings.Contains(q, "follow") {
		return false // most requests: no query, or one without either
	}
	v := req.URL.Query()
	switch v.Get("watch") {
	case "true", "1":
		return true
	}
	return v.Get("follow") == "true"
}

// bufferedCall is what call needs for one request, in one allocation: the
// writer the handler answers into, the response handed back, its body,
// and the handler's copy of the URL.
type bufferedCall struct {
	w    bufferedWriter
	body pooledBody
	resp http.Response
	url  url.URL
}

// bufferedWriter is the http.ResponseWriter of a call: it keeps the status
// and the whole body until the handler returns. Flushes keep nothing
// back (the handler runs in the caller's goroutine: nobody could read
// what they would send). Writes after the handler has returned (from a
// goroutine it left behind) fail, as on a server.
type bufferedWriter struct {
	header http.Header

	mu       sync.Mutex
	code     int
	buf      *bodyBuffer // from bodyBuffers, taken at the first write
	finished bool
}

func (w *bufferedWriter) Header() http.Header { return w.header }

func (w *bufferedWriter) WriteHeader(code int) {
	w.mu.Lock()
	if w.code == 0 && code >= 200 {
		w.code = code
	}
	w.mu.Unlock()
}

func (w *bufferedWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.finished {
		return 0, http.ErrHandlerTimeout
	}
	w.take(len(p))
	w.buf.b = append(w.buf.b, p...)
	return len(p), nil
}

// WriteString is Write without converting s to bytes first.
func (w *bufferedWriter) WriteString(s string) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.finished {
		return 0, http.ErrHandlerTimeout
	}
	w.take(len(s))
	w.buf.b = append(w.buf.b, s...)
	return len(s), nil
}

// take notes the status (200 unless written) and takes the buffer at the
// first write: sized by the body's length when the handler announced it
// (kapi does for every object and list), else by the first write. w.mu
// is held.
func (w *bufferedWriter) take(n int) {
	if w.code == 0 {
		w.code = http.StatusOK
	}
	if w.buf == nil {
		size := n
		if cl := w.header["Content-Length"]; len(cl) == 1 {
			if announced, err := strconv.Atoi(cl[0]); err == nil && announced > size {
				size = announced
			}
		}
		w.buf = takeBodyBuffer(size)
	}
}

// FlushError sends nothing yet (see bufferedWriter); it fails once the
// handler has returned.
func (w *bufferedWriter) FlushError() error {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.code == 0 {
		w.code = http.StatusOK
	}
	if w.finished {
		return http.ErrHandlerTimeout
	}
	return nil
}

// Flush is FlushError for callers of http.Flusher.
func (w *bufferedWriter) Flush() { _ = w.FlushError() }

// bodyBuffer is a response body's bytes, pooled: a body returns its
// buffer when the client closes it.
type bodyBuffer struct{ b []byte }

var bodyBuffers sync.Pool

// maxPooledBody is the largest buffer kept for reuse: lists can be much
// larger than objects, and should not stay in memory after their test.
const maxPooledBody = 64 << 10

func takeBodyBuffer(size int) *bodyBuffer {
	if b, ok := bodyBuffers.Get().(*bodyBuffer); ok {
		if cap(b.b) >= size {
			return b
		}
		bodyBuffers.Put(b)
	}
	return &bodyBuffer{b: make([]byte, 0, size)}
}

func (b *bodyBuffer) release() {
	if b != nil && cap(b.b) <= maxPooledBody {
		b.b = b.b[:0]
		bodyBuffers.Put(b)
	}
}

// errBodyClosed is what a read of a closed body gets, as from net/http.
var errBodyClosed = errors.New("http: read on closed response body")

// pooledBody is a complete response body over a pooled buffer, which
// Close returns to the pool.
type pooledBody struct {
	mu     sync.Mutex // Close may come from another goroutine than Read
	buf    *bodyBuffer
	unread []byte
	closed bool
}

func (b *pooledBody) reset(buf *bodyBuffer) {
	b.buf = buf
	if buf != nil {
		b.unread = buf.b
	}
}

func (b *pooledBody) Read(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.closed {
		return 0, errBodyClosed
	}
	if len(b.unread) == 0 {
		return 0, io.EOF
	}
	n := copy(p, b.unread)
	b.unread = b.unread[n:]
	return n, nil
}

// WriteTo lets io.Copy take the body in one write.
func (b *pooledBody) WriteTo(dst io.Writer) (int64, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.closed {
		return 0, errBodyClosed
	}
	n, err := dst.Write(b.unread)
	b.unread = b.unread[n:]
	return int64(n), err
}

func (b *pooledBody) Close() error {
	b.mu.Lock()
	defer b.mu.Unlock()
	if !b.closed {
		b.closed = true
		b.unread = nil
		b.buf.release()
		b.buf = nil
	}
	return nil
}

// statusLines are the Status strings of responses, made once.
var statusLines = func() (lines [600]string) {
	for code := range lines {
		if text := http.StatusText(code); text != "" {
			lines[code] = strconv.Itoa(code) + " " + text
		}
	}
	return lines
}()

func statusLine(code int) string {
	if code >= 0 && code < len(statusLines) && statusLines[code] != "" {
		return statusLines[code]
	}
	return strconv.Itoa(code) + " " + http.StatusText(code)
}

// responseWriter collects the answer of a handler that may stream. Until the handler flushes
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
	if w.pipe == nil {
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
		Status:        statusLine(w.code),
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
