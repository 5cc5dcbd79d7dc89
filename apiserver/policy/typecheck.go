package policy

import (
	"fmt"
	"sort"
	"strings"
	"sync/atomic"

	"github.com/google/cel-go/cel"

	"github.com/kapi-dev/kapi/meta"
	"github.com/kapi-dev/kapi/schema"
	kcel "github.com/kapi-dev/kapi/schema/cel"
)

// Schemas resolves what type checking needs: the kinds a resource serves
// and their schemas.
type Schemas interface {
	// KindsFor is the kind a group, version and resource serves (none
	// when it is not served).
	KindsFor(gvr meta.GroupVersionResource) []meta.GroupVersionKind
	// SchemaFor is a kind's schema; nil when it has none.
	SchemaFor(gvk meta.GroupVersionKind) *schema.Schema
}

// ExpressionWarning is one entry of status.typeChecking.expressionWarnings.
type ExpressionWarning struct {
	FieldRef string
	Warning  string
}

// maxTypesToCheck bounds the kinds a policy is checked against.
const maxTypesToCheck = 10

var typeNames atomic.Uint64

// TypeCheck checks a ValidatingAdmissionPolicy's validations (expression
// and messageExpression) against the schema of every kind its
// matchConstraints name exactly (no wildcards, at most ten kinds), as
// kube's status controller does, and returns the warnings it writes to
// status.typeChecking: per expression, each kind's compile errors
// prefixed with the kind ("apps/v1, Kind=Deployment: ERROR: ...").
func TypeCheck(obj map[string]any, schemas Schemas) []ExpressionWarning {
	spec, _ := obj["spec"].(map[string]any)
	gvks := typesToCheck(spec, schemas)
	type target struct {
		gvk meta.GroupVersionKind
		env *cel.Env
	}
	var targets []target
	var paramOpt cel.EnvOption
	var paramType *cel.Type
	hasParams := false
	if pk, ok := spec["paramKind"].(map[string]any); ok {
		group, version, found := strings.Cut(str(pk, "apiVersion"), "/")
		if !found {
			group, version = "", str(pk, "apiVersion")
		}
		if s := schemas.SchemaFor(meta.GroupVersionKind{Group: group, Version: version, Kind: str(pk, "kind")}); s != nil {
			paramOpt, paramType = kcel.SchemaType(fmt.Sprintf("%s%d", str(pk, "kind"), typeNames.Add(1)), s, true)
			hasParams = paramType != nil
		}
	}
	base, err := kcel.BaseEnv()
	if err != nil {
		return nil
	}
	for _, gvk := range gvks {
		s := schemas.SchemaFor(gvk)
		if s == nil {
			continue
		}
		objOpt, objType := kcel.SchemaType(fmt.Sprintf("%s%d", gvk.Kind, typeNames.Add(1)), s, true)
		if objType == nil {
			continue
		}
		opts := []cel.EnvOption{
			kcel.DeclareObjectTypes(gvkType, gvrType, userInfoType, requestType, nsMetaType, nsSpecType, nsConditionType,
				nsStatusType, namespaceType),
			objOpt,
			cel.Variable(varNamespace, namespaceType.CelType()),
			cel.Variable(varRequest, requestType.CelType()),
			cel.Variable(varObject, objType),
			cel.Variable(varOldObject, objType),
		}
		if hasParams {
			opts = append(opts, paramOpt, cel.Variable(varParams, paramType))
		}
		env, err := base.Extend(opts...)
		if err != nil {
			continue
		}
		// Variables are typed from this kind too.
		var fields []variableField
		venv, err := variablesEnv(env, nil)
		if err != nil {
			continue
		}
		for _, v := range meta.AsMaps(spec["variables"]) {
			var out *cel.Type
			if ast, iss := venv.Compile(str(v, "expression")); iss == nil || iss.Err() == nil {
				out = ast.OutputType()
			}
			fields = append(fields, variableField{name: str(v, "name"), t: declaredType(out)})
			if venv, err = variablesEnv(env, fields); err != nil {
				break
			}
		}
		if err != nil {
			continue
		}
		targets = append(targets, target{gvk: gvk, env: venv})
	}
	check := func(expr string) string {
		var msgs []string
		for _, t := range targets {
			if _, iss := t.env.Compile(expr); iss != nil && iss.Err() != nil {
				msgs = append(msgs, fmt.Sprintf("%s: %s\n", gvkString(t.gvk), iss.String()))
			}
		}
		return strings.Join(msgs, "\n")
	}
	var warnings []ExpressionWarning
	for i, v := range meta.AsMaps(spec["validations"]) {
		if w := check(str(v, "expression")); w != "" {
			warnings = append(warnings, ExpressionWarning{FieldRef: fmt.Sprintf("spec.validations[%d].expression", i), Warning: w})
		}
		if me := str(v, "messageExpression"); me != "" {
			if w := check(me); w != "" {
				warnings = append(warnings, ExpressionWarning{FieldRef: fmt.Sprintf("spec.validations[%d].messageExpression", i), Warning: w})
			}
		}
	}
	return warnings
}

// gvkString is kube's GroupVersionKind String(): "apps/v1, Kind=Deployment".
func gvkString(g meta.GroupVersionKind) string {
	return g.Group + "/" + g.Version + ", Kind=" + g.Kind
}

// typesToCheck are the kinds a policy's resource rules name exactly.
func typesToCheck(spec map[string]any, schemas Schemas) []meta.GroupVersionKind {
	mc, _ := spec["matchConstraints"].(map[string]any)
	seen := map[meta.GroupVersionKind]bool{}
	var out []meta.GroupVersionKind
	count := 0
	for _, r := range ParseRules(mc["resourceRules"]) {
		groups, versions := noWildcards(r.APIGroups), noWildcards(r.APIVersions)
		if groups == nil || versions == nil {
			continue
		}
		var resources []string
		for _, res := range r.Resources {
			if !strings.ContainsAny(res, "*/") {
				resources = append(resources, res)
			}
		}
		sort.Strings(groups)
		sort.Strings(versions)
		sort.Strings(resources)
		for _, g := range groups {
			for _, v := range versions {
				for _, res := range resources {
					for _, gvk := range schemas.KindsFor(meta.GroupVersionResource{Group: g, Version: v, Resource: res}) {
						if !seen[gvk] {
							seen[gvk] = true
							out = append(out, gvk)
						}
						count++
						if count == maxTypesToCheck {
							return sortGVKs(out)
						}
					}
				}
			}
		}
	}
	return sortGVKs(out)
}

func noWildcards(items []string) []string {
	out := make([]string, 0, len(items))
	for _, i := range items {
		if strings.Contains(i, "*") {
			return nil
		}
		out = append(out, i)
	}
	if len(out) == 0 {
		return nil
	}
	return out
}

func sortGVKs(l []meta.GroupVersionKind) []meta.GroupVersionKind {
	sort.Slice(l, func(i, j int) bool {
		if l[i].Group != l[j].Group {
			return l[i].Group < l[j].Group
		}
		if l[i].Version != l[j].Version {
			return l[i].Version < l[j].Version
		}
		return l[i].Kind < l[j].Kind
	})
	return l
}
