package builtin

import (
	"fmt"
	"slices"

	"github.com/kapi-dev/kapi/meta"
)

// containerRestartRules is kube's validateContainerRestartPolicy for a
// regular container, from 1.35 (ContainerRestartRules on by default): a
// container may set restartPolicy (Always, Never, OnFailure) and up to 20
// restartPolicyRules, each an action (Restart; RestartAllContainers too
// from 1.36) on exit codes In or NotIn at most 255 values; rules need a
// restartPolicy.
func (e *fieldErrs) containerRestartRules(path string, c map[string]any) {
	rules := meta.AsList(c["restartPolicyRules"])
	policy, set := c["restartPolicy"]
	if !set || policy == nil {
		if len(rules) > 0 {
			e.list = append(e.list, meta.FieldError{Type: meta.ErrorRequired, Field: path + ".restartPolicy",
				Detail: "must specify restartPolicy when restart rules are used"})
		}
	} else {
		e.enum(path+".restartPolicy", policy, "Always", "Never", "OnFailure")
	}
	if len(rules) > 20 {
		e.list = append(e.list, meta.FieldError{Type: meta.ErrorTooMany, Field: path + ".restartPolicyRules",
			Value: len(rules), Detail: "must have at most 20 items"})
	}
	actions := []string{"Restart"}
	if e.release.AtLeast(36) { // RestartAllContainersOnContainerExits, beta since 1.36
		actions = append(actions, "RestartAllContainers")
	}
	for i, r := range rules {
		rp := fmt.Sprintf("%s.restartPolicyRules[%d]", path, i)
		rule := asMap(r)
		action, _ := rule["action"].(string)
		if !slices.Contains(actions, action) {
			e.notSupported(rp+".action", action, actions...)
		}
		codes, ok := rule["exitCodes"].(map[string]any)
		if !ok {
			e.list = append(e.list, meta.FieldError{Type: meta.ErrorRequired, Field: rp + ".exitCodes", Detail: "must be specified"})
			continue
		}
		op, _ := codes["operator"].(string)
		if op != "In" && op != "NotIn" {
			e.notSupported(rp+".exitCodes.operator", op, "In", "NotIn")
		}
		if values := meta.AsList(codes["values"]); len(values) > 255 {
			e.list = append(e.list, meta.FieldError{Type: meta.ErrorTooMany, Field: rp + ".exitCodes.values",
				Value: len(values), Detail: "must have at most 255 items"})
		}
	}
}
