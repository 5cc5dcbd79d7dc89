package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"strconv"
	"strings"
	"syscall"
	"time"
	"unicode/utf8"

	"github.com/kapi-dev/kapi/hack/internal/kubeconfig"
)

// userAgent is fixed so that the default field manager ("difftest", the
// user agent up to the first '/') is the same on both servers. It must not
// start with curl/Wget/Mozilla: kube-apiserver pretty-prints JSON for those.
const userAgent = "difftest/1.0 (linux/amd64) differential-tester"

// maxBody bounds what is read of one response (a list of a few objects is a
// few KiB; anything near this is itself a finding).
const maxBody = 8 << 20

// Side is one of the two servers being compared.
type Side struct {
	Name   string // "A" or "B"
	Base   string // scheme://host:port, no trailing slash
	EP     *kubeconfig.Endpoint
	Client *http.Client
}

func newSide(name, kubeconfigPath string) (*Side, error) {
	ep, err := kubeconfig.Load(kubeconfigPath)
	if err != nil {
		return nil, err
	}
	return &Side{
		Name: name,
		Base: strings.TrimRight(ep.Server.String(), "/"),
		EP:   ep,
		// No Client.Timeout: every request carries its own context deadline.
		Client: &http.Client{
			Transport: ep.Transport(),
			CheckRedirect: func(*http.Request, []*http.Request) error {
				return http.ErrUseLastResponse // report redirects, don't follow
			},
		},
	}, nil
}

// Req is a concrete request, after the symbols of an Op have been resolved
// against one side's state.
type Req struct {
	Method  string
	Path    string // path plus raw query
	Header  []KV   // sent in order; Content-Type "" means "no Content-Type header"
	Body    []byte
	HasBody bool
	Subst   map[string]string // symbol -> value used (for message normalisation)
}

func (r *Req) contentType() string {
	for _, h := range r.Header {
		if strings.EqualFold(h.K, "Content-Type") {
			return h.V
		}
	}
	return ""
}

// Event is one watch event, as received.
type Event struct {
	Type   string
	Object json.RawMessage
	Raw    []byte // the undecodable line, if it was not an event
}

// Resp is what came back for one request.
type Resp struct {
	Code   int
	Header http.Header
	Body   []byte
	Err    string // transport failure class: timeout, reset, eof, refused, other:...
	Dur    time.Duration

	// Watch only.
	Watch  bool
	Events []Event
	End    string // server-closed | max-events | client-deadline | stream-error:...
	Live   *Resp  // the write sent while the watch was open
	LiveRq *Req
}

// send performs one ordinary (non-watch) request with its own deadline.
func (s *Side) send(ctx context.Context, rq *Req, timeout time.Duration) *Resp {
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	start := time.Now()
	hr, err := s.newRequest(ctx, rq)
	if err != nil {
		return &Resp{Err: "build: " + err.Error()}
	}
	res, err := s.Client.Do(hr)
	if err != nil {
		return &Resp{Err: errClass(err), Dur: time.Since(start)}
	}
	defer res.Body.Close()
	body, err := io.ReadAll(io.LimitReader(res.Body, maxBody))
	r := &Resp{Code: res.StatusCode, Header: res.Header, Body: body, Dur: time.Since(start)}
	if err != nil {
		r.Err = "body: " + errClass(err)
	}
	return r
}

func (s *Side) newRequest(ctx context.Context, rq *Req) (*http.Request, error) {
	var body io.Reader
	if rq.HasBody {
		body = bytes.NewReader(rq.Body)
	}
	u := s.Base + rq.Path
	if _, err := url.Parse(u); err != nil {
		return nil, err
	}
	hr, err := http.NewRequestWithContext(ctx, rq.Method, u, body)
	if err != nil {
		return nil, err
	}
	hr.Header.Set("User-Agent", userAgent)
	hr.Header.Set("Accept", "application/json")
	for _, h := range rq.Header {
		if h.V == "" {
			hr.Header.Del(h.K)
			continue
		}
		hr.Header.Set(h.K, h.V)
	}
	s.EP.Authorize(hr)
	return hr, nil
}

// errClass maps a transport error to a short, comparable class.
func errClass(err error) string {
	switch {
	case err == nil:
		return ""
	case errors.Is(err, context.DeadlineExceeded), errors.Is(err, os.ErrDeadlineExceeded):
		return "timeout"
	case errors.Is(err, syscall.ECONNREFUSED):
		return "refused"
	case errors.Is(err, syscall.ECONNRESET):
		return "reset"
	case errors.Is(err, io.EOF), errors.Is(err, io.ErrUnexpectedEOF):
		return "eof"
	}
	var ne interface{ Timeout() bool }
	if errors.As(err, &ne) && ne.Timeout() {
		return "timeout"
	}
	msg := err.Error()
	if len(msg) > 120 {
		msg = msg[:120]
	}
	return "other: " + msg
}

// watch opens a watch request, optionally sends a live write on the same
// side once the response headers have arrived, and reads events until the
// server closes the stream, maxEvents have been read, or the client deadline
// passes. Events are collected raw; normalisation happens later.
func (s *Side) watch(ctx context.Context, rq *Req, maxEvents int, deadline time.Duration,
	live func() (*Req, *Resp)) *Resp {
	ctx, cancel := context.WithTimeout(ctx, deadline)
	defer cancel()
	start := time.Now()
	hr, err := s.newRequest(ctx, rq)
	if err != nil {
		return &Resp{Err: "build: " + err.Error(), Watch: true}
	}
	res, err := s.Client.Do(hr)
	if err != nil {
		r := &Resp{Err: errClass(err), Watch: true, Dur: time.Since(start)}
		if live != nil { // keep the two sides' write sequences aligned
			r.LiveRq, r.Live = live()
		}
		return r
	}
	defer res.Body.Close()
	r := &Resp{Code: res.StatusCode, Header: res.Header, Watch: true}
	if res.StatusCode != http.StatusOK {
		r.Body, _ = io.ReadAll(io.LimitReader(res.Body, maxBody))
		r.End = "not-a-stream"
		if live != nil {
			r.LiveRq, r.Live = live()
		}
		r.Dur = time.Since(start)
		return r
	}
	if live != nil {
		r.LiveRq, r.Live = live()
	}
	dec := json.NewDecoder(io.LimitReader(res.Body, maxBody))
	for {
		if maxEvents > 0 && len(r.Events) >= maxEvents {
			r.End = "max-events"
			break
		}
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			switch {
			case errors.Is(err, io.EOF):
				r.End = "server-closed"
			case ctx.Err() != nil:
				r.End = "client-deadline"
			default:
				r.End = "stream-error: " + errClass(err)
			}
			break
		}
		var ev struct {
			Type   string          `json:"type"`
			Object json.RawMessage `json:"object"`
		}
		if err := json.Unmarshal(raw, &ev); err != nil || ev.Type == "" {
			r.Events = append(r.Events, Event{Raw: raw})
			continue
		}
		r.Events = append(r.Events, Event{Type: ev.Type, Object: ev.Object, Raw: raw})
	}
	r.Dur = time.Since(start)
	return r
}

func (r *Req) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s %s", r.Method, r.Path)
	for _, h := range r.Header {
		v := h.V
		if v == "" {
			v = "(none)"
		}
		fmt.Fprintf(&b, "  %s: %s", h.K, v)
	}
	if r.HasBody {
		fmt.Fprintf(&b, "\n      body: %s", clip(printable(string(r.Body)), 400))
	}
	return b.String()
}

// printable returns s, or its Go-quoted form if it holds invalid UTF-8 or
// control characters other than newline and tab.
func printable(s string) string {
	if !utf8.ValidString(s) {
		return strconv.Quote(s)
	}
	for _, c := range s {
		if c < 0x20 && c != '\n' && c != '\t' || c == 0x7f {
			return strconv.Quote(s)
		}
	}
	return s
}

func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + fmt.Sprintf("…(+%d bytes)", len(s)-n)
}
