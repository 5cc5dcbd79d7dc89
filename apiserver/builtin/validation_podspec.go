package builtin

import (
	"fmt"
	"strings"
	_ "time/tzdata"

	"github.com/kapi-dev/kapi/meta"
	"github.com/kapi-dev/kapi/schema"
	"github.com/kapi-dev/kapi/selectors"
)

// Pod templates and pod specs, as kube's core validation checks them
// wherever a pod spec is written (Pods, workloads, PodTemplates).

// tolerations is kube's ValidateTolerations; path is the list's (each is
// reported at path[i]).
func (e *fieldErrs) tolerations(path string, list []any) {
	for i, t := range list {
		tol := asMap(t)
		p := fmt.Sprintf("%s[%d]", path, i)
		key, _ := tol["key"].(string)
		op, _ := tol["operator"].(string)
		value, _ := tol["value"].(string)
		effect, _ := tol["effect"].(string)
		if key != "" {
			e.invalidAll(p+".key", key, selectors.QualifiedNameErrors(key))
		}
		if key == "" && op != "Exists" {
			e.invalid(p+".operator", op, "operator must be Exists when `key` is empty, which means \"match all values and all keys\"")
		}
		if tol["tolerationSeconds"] != nil && effect != "NoExecute" {
			e.invalid(p+".effect", effect, "effect must be 'NoExecute' when `tolerationSeconds` is set")
		}
		switch op {
		case "Equal", "":
			if msgs := selectors.LabelValueErrors(value); len(msgs) > 0 {
				e.invalid(p+".operator", value, strings.Join(msgs, ";"))
			}
		case "Exists":
			if value != "" {
				e.invalid(p+".operator", value, "value must be empty when `operator` is 'Exists'")
			}
		default:
			e.notSupported(p+".operator", op, "Equal", "Exists")
		}
		if effect != "" {
			e.enum(p+".effect", effect, "NoSchedule", "PreferNoSchedule", "NoExecute")
		}
	}
}

// podTemplate is kube's ValidatePodTemplateSpec for a workload's
// template at path: its labels and annotations, its pod spec.
func (e *fieldErrs) podTemplate(path string, tmpl map[string]any) {
	md := asMap(tmpl["metadata"])
	e.labels(path+".labels", md["labels"])
	for _, k := range sortedMapKeys(asMap(md["annotations"])) {
		e.invalidAll(path+".annotations", k, selectors.QualifiedNameErrors(strings.ToLower(k)))
	}
	e.podSpec(path+".spec", asMap(tmpl["spec"]))
}

// podSpec is the part of kube's ValidatePodSpec users hit: containers
// (required, DNS-label names unique among all containers, images,
// ports, pull policies), restart and DNS policies.
func (e *fieldErrs) podSpec(path string, spec map[string]any) {
	names := map[string]bool{}
	containers := meta.AsList(spec["containers"])
	if len(containers) == 0 {
		e.required(path + ".containers")
	}
	for i, c := range containers {
		e.container(fmt.Sprintf("%s.containers[%d]", path, i), asMap(c), names)
		if e.release.AtLeast(35) { // ContainerRestartRules, beta and on by default since 1.35
			e.containerRestartRules(fmt.Sprintf("%s.containers[%d]", path, i), asMap(c))
		}
	}
	for i, c := range meta.AsList(spec["initContainers"]) {
		e.container(fmt.Sprintf("%s.initContainers[%d]", path, i), asMap(c), names)
	}
	e.enum(path+".restartPolicy", spec["restartPolicy"], "Always", "OnFailure", "Never")
	e.enum(path+".dnsPolicy", spec["dnsPolicy"], "ClusterFirstWithHostNet", "ClusterFirst", "Default", "None")
	if n, ok := meta.AsInt64(spec["activeDeadlineSeconds"]); ok && n <= 0 {
		e.invalid(path+".activeDeadlineSeconds", n, "must be between 1 and 2147483647, inclusive")
	}
}

// container is kube's validateContainerCommon for what users hit.
func (e *fieldErrs) container(path string, c map[string]any, names map[string]bool) {
	name, _ := c["name"].(string)
	switch {
	case name == "":
		e.required(path + ".name")
	case names[name]:
		e.duplicate(path+".name", name)
	default:
		e.invalidAll(path+".name", name, schema.DNS1123Label(name))
	}
	names[name] = true
	image, _ := c["image"].(string)
	if image == "" {
		e.required(path + ".image")
	} else if strings.TrimSpace(image) != image {
		e.invalid(path+".image", image, "must not have leading or trailing whitespace")
	}
	for j, p := range meta.AsList(c["ports"]) {
		e.containerPort(fmt.Sprintf("%s.ports[%d]", path, j), asMap(p))
	}
	e.enum(path+".imagePullPolicy", c["imagePullPolicy"], "Always", "IfNotPresent", "Never")
}

func (e *fieldErrs) containerPort(path string, p map[string]any) {
	if name, _ := p["name"].(string); name != "" {
		e.invalidAll(path+".name", name, portNameErrors(name))
	}
	if n, _ := meta.AsInt64(p["containerPort"]); n == 0 {
		e.required(path + ".containerPort")
	} else {
		e.portNumber(path+".containerPort", n)
	}
	if n, ok := meta.AsInt64(p["hostPort"]); ok && n != 0 {
		e.portNumber(path+".hostPort", n)
	}
	e.protocol(path+".protocol", p["protocol"])
}
