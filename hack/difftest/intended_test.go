package main

import (
	"strconv"
	"testing"
)

func TestIntendedDifferences(t *testing.T) {
	watch := &Op{Class: "watch", Watch: &WatchSpec{}, Query: []KV{{"watch", "1"}, {"sendInitialEvents", "true"}}}
	gateOnly := `{"kind":"Status","code":422,"message":"x","details":{"causes":[{"reason":"FieldValueForbidden","message":"Forbidden: ` + watchListGate + `","field":"sendInitialEvents"}]}}`
	gateAndRVM := `{"kind":"Status","code":422,"message":"x","details":{"causes":[{"reason":"FieldValueForbidden","message":"Forbidden: sendInitialEvents requires setting resourceVersionMatch to NotOlderThan","field":"resourceVersionMatch"},{"reason":"FieldValueForbidden","message":"Forbidden: ` + watchListGate + `","field":"sendInitialEvents"}]}}`
	rvmOnly := `{"kind":"Status","code":422,"message":"y","details":{"causes":[{"reason":"FieldValueForbidden","message":"Forbidden: sendInitialEvents requires setting resourceVersionMatch to NotOlderThan","field":"resourceVersionMatch"}]}}`
	badBody := &Op{Class: "delete", Method: "DELETE", HasBody: true}
	status := func(code int, msg string) *Resp {
		return &Resp{Code: code, Body: []byte(`{"kind":"Status","code":` + strconv.Itoa(code) + `,"message":"` + msg + `"}`)}
	}
	tests := []struct {
		name string
		op   *Op
		a, b *Resp
		want string
	}{
		{"kapi serves the watch kube refuses for the gate", watch, &Resp{Code: 422, Body: []byte(gateOnly)}, &Resp{Code: 200}, "watchlist"},
		{"kapi answers what follows the gate", watch, &Resp{Code: 422, Body: []byte(gateOnly)}, status(400, "bad selector"), "watchlist"},
		{"both refuse for another reason too", watch, &Resp{Code: 422, Body: []byte(gateAndRVM)}, &Resp{Code: 422, Body: []byte(rvmOnly)}, "watchlist"},
		{"kapi serving a watch kube refuses for another reason too is no intended difference", watch,
			&Resp{Code: 422, Body: []byte(gateAndRVM)}, &Resp{Code: 200}, ""},
		{"a watch without sendInitialEvents is never one", &Op{Class: "watch", Watch: &WatchSpec{}},
			&Resp{Code: 422, Body: []byte(gateOnly)}, &Resp{Code: 200}, ""},
		{"an undecodable DeleteOptions body, same message", badBody, status(500, "json: oops"), status(400, "json: oops"), "undecodable-deleteoptions"},
		{"other messages are no intended difference", badBody, status(500, "json: oops"), status(400, "other"), ""},
		{"nor a delete without body", &Op{Class: "delete", Method: "DELETE"}, status(500, "json: oops"), status(400, "json: oops"), ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := ""
			if d := intendedFor(tt.op, tt.a, tt.b); d != nil {
				got = d.ID
			}
			if got != tt.want {
				t.Errorf("intendedFor = %q, want %q", got, tt.want)
			}
		})
	}
}

func TestNormalizerCloneIsIndependent(t *testing.T) {
	n := newNormalizer("ns")
	n.rv["1"] = 1
	c := n.clone()
	c.rv["2"] = 2
	if _, ok := n.rv["2"]; ok || len(c.rv) != 2 {
		t.Fatalf("clone shares state: %v %v", n.rv, c.rv)
	}
}
