package policy

import (
	"fmt"
	"math"
	"sync"

	"github.com/google/cel-go/cel"
	"github.com/google/cel-go/common/types"

	kcel "github.com/kapi-dev/kapi/schema/cel"
)

// The variables of admission expressions, as kube names them.
const (
	varObject    = "object"
	varOldObject = "oldObject"
	varParams    = "params"
	varRequest   = "request"
	varNamespace = "namespaceObject"
	varVariables = "variables"
)

// requestType and namespaceType are the types kube declares for request
// and namespaceObject (typed for the checker; maps at run time).
var (
	gvkType = kcel.ObjectType{Name: "kubernetes.GroupVersionKind", Fields: []kcel.Field{
		{Name: "group", Type: cel.StringType}, {Name: "version", Type: cel.StringType}, {Name: "kind", Type: cel.StringType}}}
	gvrType = kcel.ObjectType{Name: "kubernetes.GroupVersionResource", Fields: []kcel.Field{
		{Name: "group", Type: cel.StringType}, {Name: "version", Type: cel.StringType}, {Name: "resource", Type: cel.StringType}}}
	userInfoType = kcel.ObjectType{Name: "kubernetes.UserInfo", Fields: []kcel.Field{
		{Name: "username", Type: cel.StringType}, {Name: "uid", Type: cel.StringType},
		{Name: "groups", Type: cel.ListType(cel.StringType)},
		{Name: "extra", Type: cel.MapType(cel.StringType, cel.ListType(cel.StringType))}}}
	requestType = kcel.ObjectType{Name: "kubernetes.AdmissionRequest", Fields: []kcel.Field{
		{Name: "kind", Type: gvkType.CelType()}, {Name: "resource", Type: gvrType.CelType()},
		{Name: "subResource", Type: cel.StringType}, {Name: "requestKind", Type: gvkType.CelType()},
		{Name: "requestResource", Type: gvrType.CelType()}, {Name: "requestSubResource", Type: cel.StringType},
		{Name: "name", Type: cel.StringType}, {Name: "namespace", Type: cel.StringType},
		{Name: "operation", Type: cel.StringType}, {Name: "userInfo", Type: userInfoType.CelType()},
		{Name: "dryRun", Type: cel.BoolType}, {Name: "options", Type: cel.DynType}}}
	nsMetaType = kcel.ObjectType{Name: "kubernetes.NamespaceMetadata", Fields: []kcel.Field{
		{Name: "name", Type: cel.StringType}, {Name: "generateName", Type: cel.StringType},
		{Name: "namespace", Type: cel.StringType}, {Name: "labels", Type: cel.MapType(cel.StringType, cel.StringType)},
		{Name: "annotations", Type: cel.MapType(cel.StringType, cel.StringType)}, {Name: "UID", Type: cel.StringType},
		{Name: "creationTimestamp", Type: cel.TimestampType}, {Name: "deletionGracePeriodSeconds", Type: cel.IntType},
		{Name: "deletionTimestamp", Type: cel.TimestampType}, {Name: "generation", Type: cel.IntType},
		{Name: "resourceVersion", Type: cel.StringType}, {Name: "finalizers", Type: cel.ListType(cel.StringType)}}}
	nsSpecType      = kcel.ObjectType{Name: "kubernetes.NamespaceSpec", Fields: []kcel.Field{{Name: "finalizers", Type: cel.ListType(cel.StringType)}}}
	nsConditionType = kcel.ObjectType{Name: "kubernetes.NamespaceCondition", Fields: []kcel.Field{
		{Name: "status", Type: cel.StringType}, {Name: "type", Type: cel.StringType},
		{Name: "lastTransitionTime", Type: cel.TimestampType}, {Name: "message", Type: cel.StringType},
		{Name: "reason", Type: cel.StringType}}}
	nsStatusType = kcel.ObjectType{Name: "kubernetes.NamespaceStatus", Fields: []kcel.Field{
		{Name: "conditions", Type: cel.ListType(nsConditionType.CelType())}, {Name: "phase", Type: cel.StringType}}}
	namespaceType = kcel.ObjectType{Name: "kubernetes.Namespace", Fields: []kcel.Field{
		{Name: "metadata", Type: nsMetaType.CelType()}, {Name: "spec", Type: nsSpecType.CelType()},
		{Name: "status", Type: nsStatusType.CelType()}}}
)

// admissionEnv is kube's environment for admission expressions: object,
// oldObject, request and namespaceObject, and params when the policy has
// a paramKind. Expressions that may name variables are compiled in an
// environment extended with their types (variablesEnv).
func admissionEnv(params bool) (*cel.Env, error) {
	if params {
		return envWithParams()
	}
	return envWithoutParams()
}

var (
	envWithParams    = sync.OnceValues(func() (*cel.Env, error) { return buildAdmissionEnv(true) })
	envWithoutParams = sync.OnceValues(func() (*cel.Env, error) { return buildAdmissionEnv(false) })
)

func buildAdmissionEnv(params bool) (*cel.Env, error) {
	base, err := kcel.BaseEnv()
	if err != nil {
		return nil, err
	}
	opts := []cel.EnvOption{
		kcel.DeclareObjectTypes(gvkType, gvrType, userInfoType, requestType, nsMetaType, nsSpecType, nsConditionType,
			nsStatusType, namespaceType),
		cel.Variable(varObject, cel.DynType),
		cel.Variable(varOldObject, cel.DynType),
		cel.Variable(varNamespace, namespaceType.CelType()),
		cel.Variable(varRequest, requestType.CelType()),
	}
	if params {
		opts = append(opts, cel.Variable(varParams, cel.DynType))
	}
	return base.Extend(opts...)
}

// variableField is one compiled variable, as the variables type declares
// it.
type variableField struct {
	name string
	t    *cel.Type
}

// variablesEnv extends env with `variables` of the given fields.
func variablesEnv(env *cel.Env, fields []variableField) (*cel.Env, error) {
	vt := kcel.ObjectType{Name: "kubernetes.variables"}
	for _, f := range fields {
		t := f.t
		if t == nil {
			t = cel.DynType
		}
		vt.Fields = append(vt.Fields, kcel.Field{Name: f.name, Type: t})
	}
	return env.Extend(kcel.DeclareObjectTypes(vt), cel.Variable(varVariables, vt.CelType()))
}

// compiled is one compiled admission expression.
type compiled struct {
	expr    string
	program cel.Program
	// fast runs without cost tracking; estimate is the expression's
	// estimated worst cost (math.MaxUint64 when unknown).
	fast     cel.Program
	estimate uint64
	// namespace and request: the expression reads namespaceObject or
	// request.
	namespace, request bool
	out                *cel.Type
	// err is kube's compile error detail ("compilation failed: ...",
	// "must evaluate to bool but got string").
	err string
}

// compileExpr compiles expr and checks its type is one of want (nil:
// any).
func compileExpr(env *cel.Env, expr string, want ...*cel.Type) compiled {
	c := compiled{expr: expr}
	ast, iss := env.Compile(expr)
	if iss != nil && iss.Err() != nil {
		c.err = "compilation failed: " + iss.String()
		return c
	}
	if len(want) > 0 {
		found := false
		for _, w := range want {
			if ast.OutputType().IsExactType(w) || cel.AnyType.IsExactType(w) {
				found = true
			}
		}
		if !found {
			if len(want) == 1 {
				c.err = fmt.Sprintf("must evaluate to %v but got %v", want[0].String(), ast.OutputType().String())
			} else {
				c.err = fmt.Sprintf("must evaluate to one of %v but got %v", want, ast.OutputType().String())
			}
			return c
		}
	}
	prog, err := env.Program(ast, kcel.ProgramOptions()...)
	if err != nil {
		c.err = "program instantiation failed: " + err.Error()
		return c
	}
	c.program, c.out = prog, ast.OutputType()
	c.estimate = math.MaxUint64
	if est, err := kcel.EstimateCost(env, ast); err == nil {
		c.estimate = est
	}
	if c.estimate <= kcel.PerCallLimit {
		c.fast, _ = env.Program(ast, kcel.UntrackedProgramOptions()...)
	}
	c.namespace = kcel.References(ast, varNamespace)
	c.request = kcel.References(ast, varRequest)
	return c
}

var nullType = types.NullType

const kcelPerCallLimit = kcel.PerCallLimit
