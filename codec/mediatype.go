package codec

import (
	"mime"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
)

// Media types kapi reads and writes.
const (
	JSON     = "application/json"
	YAML     = "application/yaml"
	Protobuf = "application/vnd.kubernetes.protobuf"
)

// MediaRange is one entry of an Accept header (or a Content-Type), with
// its parameters, such as kube's `as=Table;g=meta.k8s.io;v=v1`. Names are
// lower-cased; parameter values are kept as sent.
type MediaRange struct {
	Type, Subtype string
	Params        map[string]string
	// Q is the quality, 1 unless the entry says otherwise.
	Q float64
}

// MediaType returns "type/subtype" without parameters.
func (m MediaRange) MediaType() string { return m.Type + "/" + m.Subtype }

// Matches reports whether the concrete mediaType ("application/json") is
// covered by m, honouring the wildcards "*/*" and "type/*".
func (m MediaRange) Matches(mediaType string) bool {
	t, s, _ := strings.Cut(mediaType, "/")
	return (m.Type == "*" || m.Type == t) && (m.Subtype == "*" || m.Subtype == s)
}

// Param returns a parameter's value, "" when absent.
func (m MediaRange) Param(name string) string { return m.Params[name] }

// ParseMediaType parses one media type with parameters, as a Content-Type
// header carries it.
func ParseMediaType(s string) (MediaRange, bool) {
	mt, params, err := mime.ParseMediaType(strings.TrimSpace(s))
	if err != nil {
		return MediaRange{}, false
	}
	t, sub, ok := strings.Cut(mt, "/")
	if !ok || t == "" || sub == "" {
		return MediaRange{}, false
	}
	m := MediaRange{Type: t, Subtype: sub, Params: params, Q: 1}
	if q, ok := params["q"]; ok {
		if f, err := strconv.ParseFloat(q, 64); err == nil && f >= 0 && f <= 1 {
			m.Q = f
		}
		delete(params, "q")
	}
	return m, true
}

// ParseAccept parses an Accept header into its media ranges, ordered by
// quality (highest first, stable otherwise), dropping entries that do not
// parse or have quality 0. An empty header accepts everything. Results are
// shared and must not be modified: clients send a handful of distinct
// headers, so parses are memoized (up to acceptCacheMax of them).
func ParseAccept(header string) []MediaRange {
	if v, ok := acceptCache.Load(header); ok {
		return v.([]MediaRange)
	}
	out := parseAccept(header)
	if acceptCacheSize.Load() < acceptCacheMax {
		if _, loaded := acceptCache.LoadOrStore(header, out); !loaded {
			acceptCacheSize.Add(1)
		}
	}
	return out
}

const acceptCacheMax = 1024

var (
	acceptCache     sync.Map // header -> []MediaRange
	acceptCacheSize atomic.Int64
)

func parseAccept(header string) []MediaRange {
	if strings.TrimSpace(header) == "" {
		return []MediaRange{{Type: "*", Subtype: "*", Q: 1}}
	}
	var out []MediaRange
	for _, part := range splitAccept(header) {
		if m, ok := ParseMediaType(part); ok && m.Q > 0 {
			out = append(out, m)
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Q > out[j].Q })
	return out
}

// splitAccept splits on commas that are not inside quoted parameter values.
func splitAccept(header string) []string {
	var parts []string
	start, quoted := 0, false
	for i := 0; i < len(header); i++ {
		switch header[i] {
		case '"':
			quoted = !quoted
		case '\\':
			if quoted {
				i++
			}
		case ',':
			if !quoted {
				parts = append(parts, header[start:i])
				start = i + 1
			}
		}
	}
	return append(parts, header[start:])
}
