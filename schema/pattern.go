package schema

import (
	"regexp"
	"sync"
	"sync/atomic"
)

// maxCachedPatterns bounds the patterns compilePattern keeps: schemas come
// from clients, and a server must not grow without bound with them.
const maxCachedPatterns = 4096

var (
	patterns      sync.Map // string → *regexp.Regexp
	patternsCount atomic.Int64
)

// compilePattern compiles a schema's pattern once per server process:
// CRDs repeat the same patterns (names, quantities, DNS labels) in many
// properties and many CRDs, and a Regexp is safe for concurrent use.
func compilePattern(p string) (*regexp.Regexp, error) {
	if re, ok := patterns.Load(p); ok {
		return re.(*regexp.Regexp), nil
	}
	re, err := regexp.Compile(p)
	if err == nil && patternsCount.Load() < maxCachedPatterns {
		if _, loaded := patterns.LoadOrStore(p, re); !loaded {
			patternsCount.Add(1)
		}
	}
	return re, err
}
