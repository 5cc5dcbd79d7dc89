// Command mutproxy is a throwaway reverse proxy for validating difftest: it
// serves plain HTTP without authentication (like kapi's example server),
// forwards every request to the server of a kubeconfig, and mutates the
// responses by rules, so that difftest can be shown to flag (or, for the
// negative controls, not to flag) each kind of difference.
//
//	mutproxy -kubeconfig ref.kubeconfig -listen 127.0.0.1:18081 \
//	         -write-kubeconfig /tmp/mut.kubeconfig -mutate code:409=400,drop-warning
//
// Rules (comma-separated, each applies to every response it matches):
//
//	code:FROM=TO        HTTP status FROM becomes TO (and a Status body's code)
//	reason:FROM=TO      Status reason FROM becomes TO
//	message:FROM=TO     replace text in Status messages (a soft difference)
//	drop-warning        remove Warning headers
//	drop-retry-after    remove Retry-After headers
//	drop-causes         remove details.causes from Status bodies
//	drop-managedfields  remove metadata.managedFields from objects
//	drop-events:TYPE    drop watch events of TYPE (ADDED, MODIFIED, DELETED, ...)
//	reverse-items       reverse the order of list items
//	fraction-time       give creationTimestamp fractional seconds
//	hang-watch          keep watch streams open after the upstream closes them
//	pretty              re-indent JSON bodies (a format difference)
//	content-type:VALUE  set Content-Type on JSON responses
//	gzip                gzip non-watch bodies, with Content-Encoding: gzip
//	rv-remap            negative control: show every resourceVersion v as
//	                    2v+1000000 and map them back in requests
//	charset             negative control: Content-Type gets "; charset=utf-8"
//	reorder             negative control: re-encode JSON with sorted keys
//	none                forward unchanged
package main

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"net/http/httputil"
	"os"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/kapi-dev/kapi/hack/internal/kubeconfig"
)

type rules struct {
	code            map[int]int
	reason          map[string]string
	message         [][2]string
	dropWarning     bool
	dropRetryAfter  bool
	dropCauses      bool
	dropManaged     bool
	dropEvents      map[string]bool
	reverseItems    bool
	fractionTime    bool
	hangWatch       bool
	pretty          bool
	contentType     string
	gzip            bool
	rvRemap         bool
	charset         bool
	reorder         bool
	mutatesJSONBody bool
}

func parseRules(s string) (*rules, error) {
	r := &rules{code: map[int]int{}, reason: map[string]string{}, dropEvents: map[string]bool{}}
	for _, rule := range strings.Split(s, ",") {
		rule = strings.TrimSpace(rule)
		name, arg, _ := strings.Cut(rule, ":")
		from, to, _ := strings.Cut(arg, "=")
		switch name {
		case "", "none":
		case "code":
			f, err1 := strconv.Atoi(from)
			t, err2 := strconv.Atoi(to)
			if err1 != nil || err2 != nil {
				return nil, fmt.Errorf("bad rule %q", rule)
			}
			r.code[f] = t
		case "reason":
			r.reason[from] = to
		case "message":
			r.message = append(r.message, [2]string{from, to})
		case "drop-warning":
			r.dropWarning = true
		case "drop-retry-after":
			r.dropRetryAfter = true
		case "drop-causes":
			r.dropCauses = true
		case "drop-managedfields":
			r.dropManaged = true
		case "drop-events":
			r.dropEvents[arg] = true
		case "reverse-items":
			r.reverseItems = true
		case "fraction-time":
			r.fractionTime = true
		case "hang-watch":
			r.hangWatch = true
		case "pretty":
			r.pretty = true
		case "content-type":
			r.contentType = arg
		case "gzip":
			r.gzip = true
		case "rv-remap":
			r.rvRemap = true
		case "charset":
			r.charset = true
		case "reorder":
			r.reorder = true
		default:
			return nil, fmt.Errorf("unknown rule %q", rule)
		}
	}
	r.mutatesJSONBody = len(r.code) > 0 || len(r.reason) > 0 || len(r.message) > 0 || r.dropCauses ||
		r.dropManaged || r.reverseItems || r.fractionTime || r.pretty || r.rvRemap || r.reorder
	return r, nil
}

func main() {
	var (
		kc     = flag.String("kubeconfig", "", "kubeconfig of the upstream server")
		listen = flag.String("listen", "127.0.0.1:18081", "address to serve plain HTTP on (loopback only)")
		out    = flag.String("write-kubeconfig", "", "write a kubeconfig pointing at this proxy here")
		mutate = flag.String("mutate", "none", "comma-separated mutation rules (see the package comment)")
	)
	flag.Parse()
	ru, err := parseRules(*mutate)
	if err != nil {
		log.Fatal(err)
	}
	ep, err := kubeconfig.Load(*kc)
	if err != nil {
		log.Fatal(err)
	}
	host, _, err := net.SplitHostPort(*listen)
	if err != nil || (host != "127.0.0.1" && host != "localhost" && host != "::1") {
		log.Fatalf("-listen must be a loopback host:port, got %q", *listen)
	}
	ln, err := net.Listen("tcp", *listen)
	if err != nil {
		log.Fatal(err)
	}
	if *out != "" {
		cfg := fmt.Sprintf("apiVersion: v1\nkind: Config\nclusters:\n- name: mutproxy\n  cluster:\n    server: http://%s\ncontexts:\n- name: mutproxy\n  context:\n    cluster: mutproxy\ncurrent-context: mutproxy\n", ln.Addr())
		if err := os.WriteFile(*out, []byte(cfg), 0o644); err != nil {
			log.Fatal(err)
		}
	}
	p := &proxy{ep: ep, r: ru}
	rp := &httputil.ReverseProxy{
		Rewrite:        p.rewrite,
		Transport:      ep.Transport(),
		FlushInterval:  -1,
		ModifyResponse: p.modify,
		ErrorLog:       log.New(os.Stderr, "mutproxy: ", 0),
	}
	log.Printf("mutproxy: http://%s -> %s, rules %q", ln.Addr(), ep.Server, *mutate)
	srv := &http.Server{Handler: rp, ReadHeaderTimeout: 10 * time.Second}
	log.Fatal(srv.Serve(ln))
}

type proxy struct {
	ep *kubeconfig.Endpoint
	r  *rules
}

// ---- resourceVersion remapping (negative control) ---------------------------

const rvOffset = 1000000

func rvOut(s string) string {
	n, err := strconv.ParseUint(s, 10, 64)
	if err != nil {
		return s
	}
	return strconv.FormatUint(2*n+rvOffset, 10)
}

func rvIn(s string) string {
	n, err := strconv.ParseUint(s, 10, 64)
	if err != nil || n < rvOffset || (n-rvOffset)%2 != 0 {
		return s
	}
	return strconv.FormatUint((n-rvOffset)/2, 10)
}

var quotedDigits = regexp.MustCompile(`"(\d{7,})"`)

func (p *proxy) rewrite(pr *httputil.ProxyRequest) {
	pr.SetURL(p.ep.Server)
	pr.Out.Host = p.ep.Server.Host
	pr.Out.Header.Del("Authorization")
	p.ep.Authorize(pr.Out)
	if !p.r.rvRemap {
		return
	}
	q := pr.Out.URL.Query()
	if v := q.Get("resourceVersion"); v != "" {
		// Rebuild the raw query by hand to keep parameter order.
		var parts []string
		for _, kv := range strings.Split(pr.Out.URL.RawQuery, "&") {
			k, val, _ := strings.Cut(kv, "=")
			if k == "resourceVersion" {
				val = rvIn(val)
			}
			parts = append(parts, k+"="+val)
		}
		pr.Out.URL.RawQuery = strings.Join(parts, "&")
	}
	if pr.Out.Body != nil && pr.Out.ContentLength != 0 {
		b, err := io.ReadAll(io.LimitReader(pr.Out.Body, 16<<20))
		pr.Out.Body.Close()
		if err == nil {
			b = quotedDigits.ReplaceAllFunc(b, func(m []byte) []byte {
				return []byte(`"` + rvIn(string(m[1:len(m)-1])) + `"`)
			})
		}
		pr.Out.Body = io.NopCloser(bytes.NewReader(b))
		pr.Out.ContentLength = int64(len(b))
		pr.Out.Header.Set("Content-Length", strconv.Itoa(len(b)))
	}
}

// ---- responses ---------------------------------------------------------------

// isWatch follows kube-apiserver's query conversion: a watch parameter with
// any value but "0" or "false" (any case) is true, so watch=maybe watches.
func isWatch(req *http.Request) bool {
	if strings.Contains(req.URL.Path, "/watch/") {
		return true
	}
	ws, ok := req.URL.Query()["watch"]
	if !ok || len(ws) == 0 {
		return false
	}
	return ws[0] != "0" && !strings.EqualFold(ws[0], "false")
}

func (p *proxy) modify(res *http.Response) error {
	r := p.r
	if to, ok := r.code[res.StatusCode]; ok {
		res.StatusCode = to
		res.Status = fmt.Sprintf("%d %s", to, http.StatusText(to))
	}
	if r.dropWarning {
		res.Header.Del("Warning")
	}
	if r.dropRetryAfter {
		res.Header.Del("Retry-After")
	}
	jsonCT := strings.HasPrefix(res.Header.Get("Content-Type"), "application/json")
	if jsonCT && r.contentType != "" {
		res.Header.Set("Content-Type", r.contentType)
	}
	if jsonCT && r.charset {
		res.Header.Set("Content-Type", res.Header.Get("Content-Type")+"; charset=utf-8")
	}
	if isWatch(res.Request) && res.StatusCode == http.StatusOK {
		res.Body = p.watchBody(res.Body)
		return nil
	}
	if !(jsonCT && r.mutatesJSONBody) && !r.gzip {
		return nil
	}
	body, err := io.ReadAll(io.LimitReader(res.Body, 64<<20))
	res.Body.Close()
	if err != nil {
		return err
	}
	if jsonCT && r.mutatesJSONBody {
		body = p.mutateJSON(body, false)
	}
	if r.gzip && len(body) > 0 {
		var zb bytes.Buffer
		zw := gzip.NewWriter(&zb)
		zw.Write(body)
		zw.Close()
		body = zb.Bytes()
		res.Header.Set("Content-Encoding", "gzip")
	}
	res.Body = io.NopCloser(bytes.NewReader(body))
	res.ContentLength = int64(len(body))
	res.Header.Set("Content-Length", strconv.Itoa(len(body)))
	return nil
}

// watchBody rewrites a watch stream line by line.
func (p *proxy) watchBody(in io.ReadCloser) io.ReadCloser {
	pr, pw := io.Pipe()
	go func() {
		defer in.Close()
		br := bufio.NewReaderSize(in, 64<<10)
		for {
			line, err := br.ReadBytes('\n')
			if len(bytes.TrimSpace(line)) > 0 {
				out := p.mutateEvent(line)
				if out != nil {
					if _, werr := pw.Write(out); werr != nil {
						return
					}
				}
			}
			if err != nil {
				if p.r.hangWatch && err == io.EOF {
					time.Sleep(30 * time.Second)
				}
				pw.CloseWithError(err)
				return
			}
		}
	}()
	return pr
}

func (p *proxy) mutateEvent(line []byte) []byte {
	var ev map[string]json.RawMessage
	if json.Unmarshal(line, &ev) != nil {
		return line
	}
	var typ string
	json.Unmarshal(ev["type"], &typ)
	if p.r.dropEvents[typ] {
		return nil
	}
	if !p.r.mutatesJSONBody {
		return line
	}
	ev["object"] = p.mutateJSON(ev["object"], true)
	b, _ := json.Marshal(ev)
	return append(b, '\n')
}

func (p *proxy) mutateJSON(body []byte, inEvent bool) []byte {
	var v any
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.UseNumber()
	if dec.Decode(&v) != nil {
		return body
	}
	changed := p.mutateValue(v, true)
	if !changed && !p.r.pretty && !p.r.reorder {
		return body
	}
	// Keep the upstream's layout (kube-apiserver pretty-prints some
	// responses) unless the pretty rule asks for indentation.
	wasPretty := bytes.Contains(bytes.TrimSpace(body), []byte("\n"))
	var out []byte
	if (p.r.pretty || wasPretty) && !inEvent {
		out, _ = json.MarshalIndent(v, "", "  ")
	} else {
		out, _ = json.Marshal(v)
	}
	return append(out, '\n')
}

// mutateValue applies the body rules in place; top marks the document root.
func (p *proxy) mutateValue(v any, top bool) bool {
	r := p.r
	changed := false
	switch t := v.(type) {
	case map[string]any:
		if t["kind"] == "Status" {
			if c, ok := t["code"].(json.Number); ok {
				if n, err := c.Int64(); err == nil {
					if to, ok := r.code[int(n)]; ok {
						t["code"] = json.Number(strconv.Itoa(to))
						changed = true
					}
				}
			}
			if reason, ok := t["reason"].(string); ok {
				if to, ok := r.reason[reason]; ok {
					t["reason"] = to
					changed = true
				}
			}
			if m, ok := t["message"].(string); ok {
				for _, fr := range r.message {
					if strings.Contains(m, fr[0]) {
						t["message"] = strings.ReplaceAll(m, fr[0], fr[1])
						changed = true
					}
				}
				if r.rvRemap {
					t["message"] = remapMessage(t["message"].(string))
					changed = true
				}
			}
			if d, ok := t["details"].(map[string]any); ok {
				if _, has := d["causes"]; has && r.dropCauses {
					delete(d, "causes")
					changed = true
				}
				causes, _ := d["causes"].([]any)
				for _, c := range causes {
					cm, _ := c.(map[string]any)
					if m, ok := cm["message"].(string); ok && r.rvRemap {
						cm["message"] = remapMessage(m)
						changed = true
					}
				}
			}
		}
		if md, ok := t["metadata"].(map[string]any); ok {
			if r.dropManaged {
				if _, has := md["managedFields"]; has {
					delete(md, "managedFields")
					changed = true
				}
			}
			if r.rvRemap {
				if s, ok := md["resourceVersion"].(string); ok && s != "" {
					md["resourceVersion"] = rvOut(s)
					changed = true
				}
			}
			if r.fractionTime {
				if s, ok := md["creationTimestamp"].(string); ok && strings.HasSuffix(s, "Z") {
					md["creationTimestamp"] = strings.TrimSuffix(s, "Z") + ".000000Z"
					changed = true
				}
			}
		}
		if items, ok := t["items"].([]any); ok && r.reverseItems && len(items) > 1 {
			for i, j := 0, len(items)-1; i < j; i, j = i+1, j-1 {
				items[i], items[j] = items[j], items[i]
			}
			changed = true
		}
		for _, e := range t {
			if p.mutateValue(e, false) {
				changed = true
			}
		}
	case []any:
		for _, e := range t {
			if p.mutateValue(e, false) {
				changed = true
			}
		}
	}
	return changed
}

var (
	rvWordRE  = regexp.MustCompile(`(?i)(resource ?version[^0-9]{0,40}?)(\d+)`)
	currentRE = regexp.MustCompile(`(current: )(\d+)`)
)

// remapMessage rewrites the numbers after "resourceVersion"-like words and
// "current: " in a message, as a server with other resourceVersions would
// write them.
func remapMessage(m string) string {
	for _, re := range []*regexp.Regexp{rvWordRE, currentRE} {
		m = re.ReplaceAllStringFunc(m, func(s string) string {
			sub := re.FindStringSubmatch(s)
			return sub[1] + rvOut(sub[2])
		})
	}
	return m
}
