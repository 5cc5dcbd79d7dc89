package cel

import (
	"github.com/google/cel-go/cel"
	"github.com/google/cel-go/common/types"

	"github.com/kapi-dev/kapi/schema"
)

// BaseEnv is kube-apiserver 1.33's environment for new expressions,
// without variables: the base of CRD rules and of admission expressions
// (ValidatingAdmissionPolicy, webhook matchConditions), which extend it
// with their variables.
func BaseEnv() (*cel.Env, error) { return baseEnv() }

// ProgramOptions are kube's options for every program: cost tracking with
// the costs of kube's library functions, the per-call limit, and the
// context checked while comprehensions run.
func ProgramOptions() []cel.ProgramOption { return programOptions(&costEstimator{}) }

// Field is one field of an ObjectType.
type Field struct {
	Name string
	Type *cel.Type
}

// ObjectType declares a message type to expressions, as kube declares
// the types of variables that no schema describes (kubernetes.AdmissionRequest,
// kubernetes.Namespace): fields are typed for the checker; at run time the
// variable is a map.
type ObjectType struct {
	Name   string
	Fields []Field
}

// CelType is the type's CEL type.
func (o ObjectType) CelType() *cel.Type { return types.NewObjectType(o.Name) }

// DeclareObjectTypes is an environment option that declares the object
// types (over the environment's own type provider).
func DeclareObjectTypes(objs ...ObjectType) cel.EnvOption {
	return func(e *cel.Env) (*cel.Env, error) {
		p := newProvider(e.CELTypeProvider())
		for _, o := range objs {
			t := &declType{name: o.Name, celType: types.NewObjectType(o.Name), fields: map[string]*declType{}, isObject: true}
			for _, f := range o.Fields {
				t.fields[f.Name] = &declType{name: f.Type.String(), celType: f.Type}
			}
			p.objects[o.Name] = t
		}
		for _, opt := range p.envOptions() {
			var err error
			if e, err = opt(e); err != nil {
				return nil, err
			}
		}
		return e, nil
	}
}

// SchemaType declares the CEL type of values of a schema (root: a whole
// resource, whose apiVersion, kind and metadata.name are always visible)
// under a type name of the caller's, as kube types the objects of a kind
// when it type-checks a ValidatingAdmissionPolicy. It returns the
// environment option declaring the type and the type; nil when values of
// the schema are invisible to expressions.
func SchemaType(name string, s *schema.Schema, root bool) (cel.EnvOption, *cel.Type) {
	t := typeOf(s, root)
	if t == nil {
		return nil, nil
	}
	t = t.named(name)
	opt := func(e *cel.Env) (*cel.Env, error) {
		p := newProvider(e.CELTypeProvider(), t)
		for _, o := range p.envOptions() {
			var err error
			if e, err = o(e); err != nil {
				return nil, err
			}
		}
		return e, nil
	}
	return opt, t.celType
}

// EstimateCost is the worst-case cost of a checked expression with
// kube's library costs, the sizes of variables unknown (unbounded).
func EstimateCost(env *cel.Env, ast *cel.Ast) (uint64, error) {
	est, err := env.EstimateCost(ast, &costEstimator{})
	if err != nil {
		return 0, err
	}
	return est.Max, nil
}

// UntrackedProgramOptions are the options of a program that runs without
// cost tracking (planned once), for expressions whose estimated cost is
// within every limit: the context is still checked while comprehensions
// run.
func UntrackedProgramOptions() []cel.ProgramOption {
	return []cel.ProgramOption{cel.EvalOptions(cel.OptOptimize), cel.InterruptCheckFrequency(CheckFrequency)}
}

// References reports whether a checked expression refers to a variable.
func References(ast *cel.Ast, name string) bool {
	checked, err := cel.AstToCheckedExpr(ast)
	if err != nil {
		return true
	}
	for _, ref := range checked.GetReferenceMap() {
		if ref.GetName() == name {
			return true
		}
	}
	return false
}
