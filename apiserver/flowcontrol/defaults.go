package flowcontrol

import (
	"github.com/kapi-dev/kapi/meta"
)

// Defaults of the configuration kinds, as kube sets them.
const (
	DefaultMatchingPrecedence       = 1000
	DefaultQueues                   = 64
	DefaultHandSize                 = 8
	DefaultQueueLengthLimit         = 50
	DefaultNominalConcurrencyShares = 30
)

// DefaultPriorityLevel sets kube's defaults on a PriorityLevelConfiguration
// in the version its apiVersion names (v1 or v1beta3), as kube's
// defaulting does when it decodes a request body:
//
//   - a Limited level's nominalConcurrencyShares: 30 when unset; in v1beta3,
//     where the field cannot be unset, 30 when 0 unless the
//     flowcontrol.k8s.io/v1beta3-preserve-zero-concurrency-shares annotation
//     is present;
//   - lendablePercent: 0 (Limited and Exempt), the exempt level's
//     nominalConcurrencyShares: 0;
//   - queuing: queues 64, handSize 8, queueLengthLimit 50 when 0 or unset.
func DefaultPriorityLevel(obj meta.Object) {
	spec, _ := meta.AsMap(obj["spec"])
	if spec == nil {
		return
	}
	v1beta3 := obj.APIVersion() == Group+"/v1beta3"
	if limited, ok := meta.AsMap(spec["limited"]); ok {
		ncs, set := intField(limited, "nominalConcurrencyShares")
		switch {
		case !v1beta3 && !set:
			limited["nominalConcurrencyShares"] = int64(DefaultNominalConcurrencyShares)
		case v1beta3 && ncs == 0:
			if _, preserve := obj.Annotations()[PreserveZeroConcurrencySharesKey]; !preserve {
				limited["nominalConcurrencyShares"] = int64(DefaultNominalConcurrencyShares)
			}
		}
		defaultUnset(limited, "lendablePercent", 0)
		if lr, ok := meta.AsMap(limited["limitResponse"]); ok {
			if q, ok := meta.AsMap(lr["queuing"]); ok {
				defaultZero(q, "queues", DefaultQueues)
				defaultZero(q, "handSize", DefaultHandSize)
				defaultZero(q, "queueLengthLimit", DefaultQueueLengthLimit)
			}
		}
	}
	if exempt, ok := meta.AsMap(spec["exempt"]); ok {
		defaultUnset(exempt, "nominalConcurrencyShares", 0)
		defaultUnset(exempt, "lendablePercent", 0)
	}
}

// DefaultFlowSchema sets kube's default on a FlowSchema (any version): a
// matchingPrecedence of 0 or unset becomes 1000.
func DefaultFlowSchema(obj meta.Object) {
	if spec, ok := meta.AsMap(obj["spec"]); ok {
		defaultZero(spec, "matchingPrecedence", DefaultMatchingPrecedence)
	}
}

// intField reads an integer field; set is false when it is absent or null.
// A value of another type reads as set and non-zero, so that defaulting
// leaves it for validation to refuse.
func intField(m map[string]any, k string) (n int64, set bool) {
	v, ok := m[k]
	if !ok || v == nil {
		return 0, false
	}
	n, isInt := meta.AsInt64(v)
	if !isInt {
		return -1, true
	}
	return n, true
}

func defaultUnset(m map[string]any, k string, v int64) {
	if _, set := intField(m, k); !set {
		m[k] = v
	}
}

func defaultZero(m map[string]any, k string, v int64) {
	if n, set := intField(m, k); !set || n == 0 {
		m[k] = v
	}
}
