package main

import (
	"fmt"
	"strings"
)

// The scale class (optional: -run-only scale) drives the /scale
// subresource of one Deployment, dp, created in the sequence's setup: reads
// of the Scale and of the Deployment, PUTs of Scales (valid and not: no
// name, another name, replicas of the wrong type or negative, stale
// versions, YAML), and merge, JSON and strategic merge patches.

const deployColl = "/apis/apps/v1/namespaces/${ns}/deployments"

const deploymentFixture = `{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"dp","labels":{"app":"dp"}},` +
	`"spec":{"replicas":2,"selector":{"matchLabels":{"app":"dp"}},` +
	`"template":{"metadata":{"labels":{"app":"dp"}},"spec":{"containers":[{"name":"c","image":"nginx"}]}}}}`

// scaleName is mostly dp, sometimes a Deployment that does not exist.
func (g *Gen) scaleName() string {
	if g.chance(0.08) {
		g.tag("missing")
		return "dp-missing"
	}
	return "dp"
}

// replicas is a spec.replicas value: mostly a valid count.
func (g *Gen) replicas() any {
	switch v := g.weighted("0", 10, "1", 20, "2", 15, "3", 20, "-1", 5, `"x"`, 4, "1.5", 3, "null", 4, "big", 2); v {
	case "big":
		g.tag("replicas=3000000000")
		return 3000000000
	case `"x"`:
		g.tag("replicas=%s", v)
		return "x"
	case "1.5":
		g.tag("replicas=%s", v)
		return 1.5
	case "null":
		g.tag("replicas=null")
		return nil
	default:
		g.tag("replicas=%s", v)
		var n int
		fmt.Sscan(v, &n)
		return n
	}
}

func (g *Gen) scale() *Op {
	name := g.scaleName()
	path := deployColl + "/" + name + "/scale"
	op := &Op{}
	var q []KV
	switch g.weighted("get", 20, "get-deployment", 10, "put", 35, "patch", 35) {
	case "get":
		g.tag("get")
		op.Method = "GET"
	case "get-deployment":
		g.tag("get-deployment")
		op.Method, path = "GET", deployColl+"/"+name
	case "put":
		g.tag("put")
		op.Method, op.HasBody = "PUT", true
		md := map[string]any{}
		switch g.weighted("same", 80, "none", 7, "other", 7, "empty", 6) {
		case "same":
			md["name"] = name
		case "none":
			g.tag("no-name")
		case "other":
			g.tag("other-name")
			md["name"] = "dp-other"
		case "empty":
			g.tag("empty-name")
			md["name"] = ""
		}
		switch g.weighted("none", 60, "current", 20, "stale", 15, "bogus", 5) {
		case "current":
			g.tag("rv=current")
			md["resourceVersion"] = "${rv:dp}"
		case "stale":
			g.tag("rv=stale")
			md["resourceVersion"] = "${stale:dp}"
		case "bogus":
			g.tag("rv=bogus")
			md["resourceVersion"] = "abc"
		}
		body := map[string]any{"metadata": md}
		if g.chance(0.8) {
			body["apiVersion"], body["kind"] = "autoscaling/v1", "Scale"
		} else {
			g.tag("no-typemeta")
		}
		switch g.weighted("replicas", 80, "no-spec", 8, "empty-spec", 6, "spec-string", 3, "null-spec", 3) {
		case "replicas":
			spec := map[string]any{}
			if r := g.replicas(); r != nil || g.chance(0.5) {
				spec["replicas"] = r
			}
			body["spec"] = spec
		case "no-spec":
			g.tag("no-spec")
		case "empty-spec":
			g.tag("empty-spec")
			body["spec"] = map[string]any{}
		case "spec-string":
			g.tag("spec-string")
			body["spec"] = "x"
		case "null-spec":
			g.tag("null-spec")
			body["spec"] = nil
		}
		ct := "application/json"
		if g.chance(0.15) {
			ct = "application/yaml" // JSON is YAML
			g.tag("yaml")
		}
		op.Header = []KV{{"Content-Type", ct}}
		op.Body = enc(body)
		if g.chance(0.05) {
			op.Body = g.pick("", "null", "[1]", `{"metadata":`)
			g.tag("body=%q", op.Body)
		}
	case "patch":
		op.Method, op.HasBody = "PATCH", true
		pt := g.weighted("merge", 50, "json", 30, "strategic", 20)
		g.tag("%s", pt)
		switch pt {
		case "merge", "strategic":
			ct := map[string]string{"merge": "application/merge-patch+json", "strategic": "application/strategic-merge-patch+json"}[pt]
			op.Header = []KV{{"Content-Type", ct}}
			switch g.weighted("replicas", 75, "null-spec", 8, "name", 7, "rv", 5, "junk", 5) {
			case "replicas":
				op.Body = enc(map[string]any{"spec": map[string]any{"replicas": g.replicas()}})
			case "null-spec":
				g.tag("null-spec")
				op.Body = `{"spec":null}`
			case "name":
				g.tag("rename")
				op.Body = `{"metadata":{"name":"dp-other"}}`
			case "rv":
				g.tag("rv=stale")
				op.Body = enc(map[string]any{"metadata": map[string]any{"resourceVersion": "${stale:dp}"}, "spec": map[string]any{"replicas": 1}})
			case "junk":
				op.Body = g.pick("[1]", "x", "null", `{"spec":`)
				g.tag("body=%q", op.Body)
			}
		case "json":
			op.Header = []KV{{"Content-Type", "application/json-patch+json"}}
			kind := g.weighted("replace", 45, "add", 15, "remove", 10, "test", 15, "bogus", 5, "junk", 10)
			g.tag("op=%s", kind)
			switch kind {
			case "remove":
				op.Body = `[{"op":"remove","path":"/spec/replicas"}]`
			case "bogus":
				op.Body = `[{"op":"bogus","path":"/spec/replicas","value":1}]`
			case "junk":
				op.Body = g.pick(`{"a":1}`, `[`, `[{"op":"replace"}]`)
			default:
				op.Body = enc([]any{map[string]any{"op": kind, "path": "/spec/replicas", "value": g.replicas()}})
			}
		}
	}
	if op.Method != "GET" && g.chance(0.1) {
		q = append(q, KV{"dryRun", "All"})
		op.DryRun = true
		g.tag("dryRun")
	}
	op.Path, op.Query = path, q
	op.Variant = strings.Join(g.tags, ",")
	return op
}
