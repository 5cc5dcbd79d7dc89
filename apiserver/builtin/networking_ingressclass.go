package builtin

import (
	"time"

	"github.com/kapi-dev/kapi/apiserver"
	"github.com/kapi-dev/kapi/meta"
)

// ingressClassResource is networking.k8s.io/v1 ingressclasses.
func ingressClassResource() apiserver.Resource {
	return apiserver.Resource{Group: "networking.k8s.io", Version: "v1", Kind: "IngressClass", Plural: "ingressclasses",
		PrinterColumns: ingressClassColumns, GenericDelete: true, Strategy: ingressClassStrategy{}}
}

// ingressClassStrategy is what an IngressClass does differently.
type ingressClassStrategy struct{ apiserver.GenericStrategy }

// Default mirrors SetDefaults_IngressClass: parameters are cluster-scoped
// unless told.
func (ingressClassStrategy) Default(o meta.Object) {
	if p, ok := field(o, "spec", "parameters").(map[string]any); ok {
		setDefault(p, "scope", "Cluster")
	}
}

var ingressClassColumns = []apiserver.PrinterColumn{
	column("Controller", "string", "Controller that is responsible for handling this class", 0,
		func(o meta.Object, now time.Time) any { return str(o, "spec", "controller") }),
	column("Parameters", "string", "A reference to a resource with additional parameters", 0,
		func(o meta.Object, now time.Time) any {
			p, ok := field(o, "spec", "parameters").(map[string]any)
			if !ok {
				return "<none>"
			}
			s := stringOr(p["kind"], "")
			if g, ok := p["apiGroup"].(string); ok {
				s += "." + g
			}
			return s + "/" + stringOr(p["name"], "")
		}),
	apiserver.AgeColumn(),
}

// ingressClassColumns136 are the columns of kube 1.36 and 1.37, whose NAME marks
// the default class (ingressclass.kubernetes.io/is-default-class "true"),
// as a StorageClass's does; 1.33 prints the name alone.
var ingressClassColumns136 = append([]apiserver.PrinterColumn{func() apiserver.PrinterColumn {
	c := apiserver.NameColumn()
	c.Cell = func(o meta.Object, _ time.Time) any {
		if o.Annotations()["ingressclass.kubernetes.io/is-default-class"] == "true" {
			return o.Name() + " (default)"
		}
		return o.Name()
	}
	return c
}()}, ingressClassColumns...)
