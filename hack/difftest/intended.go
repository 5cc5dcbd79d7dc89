package main

import (
	"encoding/json"
	"strings"
)

// intendedDifference is a difference from kube-apiserver that kapi keeps on
// purpose. Each is described, with kube's answer and the reason, in kapi's
// docs/kube-behaviour/08-fidelity.md ("Intended differences"). A step whose
// responses it matches counts as intended, not divergent (-no-intended
// turns this off), and it is kept out of what the tester learns, so that
// it does not cascade into later steps.
type intendedDifference struct {
	ID      string
	Doc     string
	Matches func(op *Op, a, b *Resp) bool
}

var intendedDifferences = []intendedDifference{
	{
		ID: "watchlist",
		Doc: "kapi serves streaming lists (sendInitialEvents on a watch); kube-apiserver 1.33 has them behind the " +
			"WatchList feature gate, off by default, and answers 422",
		Matches: func(op *Op, a, b *Resp) bool {
			if op.Watch == nil || !hasQuery(op, "sendInitialEvents") || a.Code != 422 || !strings.Contains(string(a.Body), watchListGate) {
				return false
			}
			if others := causes(a, watchListGate); others != "" {
				// kube refuses the watch for other reasons too: kapi for
				// those, and only those.
				return b.Code == 422 && causes(b, "") == others
			}
			// The gate is kube's only objection: kapi serves the watch, or
			// answers what comes after the options' validation (an unknown
			// field selector, say).
			return true
		},
	},
	{
		ID: "undecodable-deleteoptions",
		Doc: "a DeleteOptions body kube cannot decode is its internal error (500); kapi answers 400 BadRequest with " +
			"kube's message",
		Matches: func(op *Op, a, b *Resp) bool {
			return op.Method == "DELETE" && op.HasBody && a.Code == 500 && b.Code == 400 &&
				statusMessage(a) != "" && statusMessage(a) == statusMessage(b)
		},
	},
}

const watchListGate = "sendInitialEvents is forbidden for watch unless the WatchList feature gate is enabled"

// causes lists a Status's causes, without those whose message contains
// drop (none when drop is ""), as text to compare.
func causes(r *Resp, drop string) string {
	var st struct {
		Details struct {
			Causes []struct{ Reason, Message, Field string } `json:"causes"`
		} `json:"details"`
	}
	if json.Unmarshal(r.Body, &st) != nil {
		return "?"
	}
	var out []string
	for _, c := range st.Details.Causes {
		if drop == "" || !strings.Contains(c.Message, drop) {
			out = append(out, c.Field+" "+c.Reason+" "+c.Message)
		}
	}
	return strings.Join(out, "\n")
}

// intendedFor returns the intended difference a step's responses show, or
// nil.
func intendedFor(op *Op, a, b *Resp) *intendedDifference {
	for i := range intendedDifferences {
		if intendedDifferences[i].Matches(op, a, b) {
			return &intendedDifferences[i]
		}
	}
	return nil
}

func hasQuery(op *Op, key string) bool {
	for _, kv := range op.Query {
		if kv.K == key {
			return true
		}
	}
	return false
}

// statusMessage is the message of a Status body, "" for anything else.
func statusMessage(r *Resp) string {
	var st struct {
		Kind    string `json:"kind"`
		Message string `json:"message"`
	}
	if json.Unmarshal(r.Body, &st) != nil || st.Kind != "Status" {
		return ""
	}
	return st.Message
}
