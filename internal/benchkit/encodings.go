package benchkit

import (
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/kapi-dev/kapi/codec"
	"github.com/kapi-dev/kapi/meta"
)

// EncodingMeter counts object encodings without touching the server. A
// codec.Codec wrapper in Config.Codecs cannot do it: the watch path only
// streams codec.JSONCodec and *protobuf.Codec values (a wrapper gets a 406),
// and only JSONCodec triggers compaction. Instead the meter turns the heap
// profiler to every allocation (runtime.MemProfileRate = 1) and looks at
// the allocations made inside the codec's Encode method, in any goroutine,
// from any caller, cached or not.
//
// Calibrate encodes a sample object 100 and then 200 times and keeps the
// allocation sites inside Encode (the call path from Encode down to the
// allocation) that allocate exactly k times per encoding in both runs:
// those do not depend on sync.Pool refills or the garbage collector. Each
// such site then counts the encodings made since as its allocations ÷ k;
// the meter reports the median over the sites.
type EncodingMeter struct {
	rate  int
	sites map[string]map[string]int64 // codec fn → site → allocations per Encode
	last  map[[32]uintptr]int64
}

// EncodingCodec names a codec's Encode method as the profiler spells it.
type EncodingCodec struct {
	Fn     string // the function, as the profiler names it
	Encode func(meta.Object) ([]byte, error)
}

// JSONEncoding is codec.JSONCodec's Encode.
var JSONEncoding = EncodingCodec{
	Fn:     "github.com/kapi-dev/kapi/codec.JSONCodec.Encode",
	Encode: func(o meta.Object) ([]byte, error) { return codec.JSONCodec{}.Encode(o) },
}

// StartEncodingMeter turns the heap profiler to every allocation until
// Stop.
func StartEncodingMeter() *EncodingMeter {
	m := &EncodingMeter{rate: runtime.MemProfileRate, sites: map[string]map[string]int64{}}
	runtime.MemProfileRate = 1
	return m
}

// Stop puts the profiler's rate back.
func (m *EncodingMeter) Stop() { runtime.MemProfileRate = m.rate }

// Calibrate finds the stable allocation sites of each codec's Encode on
// obj, then marks the profile: Encodings counts from here.
func (m *EncodingMeter) Calibrate(b *testing.B, obj meta.Object, cs ...EncodingCodec) {
	b.Helper()
	const reps = 100
	for _, c := range cs {
		p0 := memProfile()
		calibrateEncodings(b, obj, c, reps)
		p1 := memProfile()
		calibrateEncodings(b, obj, c, 2*reps)
		p2 := memProfile()
		once, twice := sitesUnder(p0, p1, c.Fn), sitesUnder(p1, p2, c.Fn)
		stable := map[string]int64{}
		for site, n := range once {
			if k := n / reps; k > 0 && n == k*reps && twice[site] == 2*k*reps {
				stable[site] = k
			}
		}
		if len(stable) == 0 {
			b.Fatalf("no allocation site inside %s allocates a fixed number of times per encoding: the meter no longer finds the codec", c.Fn)
		}
		m.sites[c.Fn] = stable
		m.last = p2
	}
}

//go:noinline
func calibrateEncodings(b *testing.B, obj meta.Object, c EncodingCodec, reps int) {
	for range reps {
		if _, err := c.Encode(obj); err != nil {
			b.Fatal(err)
		}
	}
}

// Encodings returns, per codec, the Encode calls since Calibrate.
func (m *EncodingMeter) Encodings(b *testing.B, cs ...EncodingCodec) []float64 {
	b.Helper()
	p := memProfile()
	out := make([]float64, len(cs))
	for i, c := range cs {
		got := sitesUnder(m.last, p, c.Fn)
		var est []float64
		for site, k := range m.sites[c.Fn] {
			est = append(est, float64(got[site])/float64(k))
		}
		slices.Sort(est)
		out[i] = est[len(est)/2]
	}
	return out
}

// memProfile returns the allocation counts per stack, as of a completed
// garbage collection.
func memProfile() map[[32]uintptr]int64 {
	runtime.GC()
	runtime.GC()
	var recs []runtime.MemProfileRecord
	n, _ := runtime.MemProfile(nil, true)
	for {
		recs = make([]runtime.MemProfileRecord, n+64)
		var ok bool
		n, ok = runtime.MemProfile(recs, true)
		if ok {
			recs = recs[:n]
			break
		}
	}
	m := make(map[[32]uintptr]int64, len(recs))
	for _, r := range recs {
		m[r.Stack0] += r.AllocObjects
	}
	return m
}

// sitesUnder sums the allocations made between two profiles inside fn, by
// site: the frames from the allocation up to fn (so that the same site
// reached from different callers of fn is one site).
func sitesUnder(before, after map[[32]uintptr]int64, fn string) map[string]int64 {
	sites := map[string]int64{}
	for stk, n := range after {
		d := n - before[stk]
		if d <= 0 {
			continue
		}
		pcs := stk[:]
		for i, pc := range pcs {
			if pc == 0 {
				pcs = pcs[:i]
				break
			}
		}
		var site strings.Builder
		frames := runtime.CallersFrames(pcs)
		for {
			fr, more := frames.Next()
			site.WriteString(fr.Function)
			site.WriteByte(':')
			site.WriteString(strconv.Itoa(fr.Line))
			site.WriteByte('<')
			if fr.Function == fn {
				sites[site.String()] += d
				break
			}
			if !more {
				break
			}
		}
	}
	return sites
}
